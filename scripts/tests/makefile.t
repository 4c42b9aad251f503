#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Makefile's promises: `make` alone is the main job; a bench source change rebuilds no
# kernel; a fragment change rebuilds only the variants that use it (make -n -W: nothing is
# touched or built).
. "$(dirname "$0")/tap.sh"
cd "$LAB" || exit 1
is "$(make -pnq 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | sort -u)" all "make alone runs the main job (all)"
if have_image rseq-y && have_image rseq-n; then
	v='VARIANTS=rseq-y rseq-n'
	is "$(make -n -W bench/cpu-read.c kernels "$v" 2>/dev/null | grep -c 'build-kernel')" 0 \
		"a bench source change rebuilds no kernel"
	is "$(make -n -W kernel/fragments/rseq-n.config kernels "$v" 2>/dev/null | grep 'build-kernel' | tr '\n' ' ')" \
		"scripts/build-kernel rseq-n " "a change to rseq-n's fragment rebuilds rseq-n alone"
	is "$(make -n -W kernel/fragments/base.config kernels "$v" 2>/dev/null | grep -c 'build-kernel')" 2 \
		"a change to the base fragment rebuilds both"
	like "$(make -n -W bench/cpu-read.c initramfs 2>/dev/null)" "make-initramfs" \
		"while the initramfs does get rebuilt"
else
	skip "no rseq-y/rseq-n images" "rebuild rules"
fi
done_testing
