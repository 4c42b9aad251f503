#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Makefile's promises: `make` alone is the main job; a bench source change rebuilds no
# kernel; a fragment change rebuilds only the variants that use it (make -n -W: nothing is
# touched or built). Each `make -n` must itself succeed: a make that errors out prints no
# build-kernel line either, and must not pass for "rebuilds nothing".
. "$(dirname "$0")/tap.sh"
cd "$LAB" || exit 1
# mk WHAT ARGS...: make -n ARGS; check its status, leave its output in $out.
mk() {
	local what=$1 rc; shift
	out=$(make -n "$@" 2>&1); rc=$?
	ok $rc "make -n $* succeeds ($what)"
	[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -n 5 | sed 's/^/#   | /'
}
is "$(make -pnq 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | sort -u)" all "make alone runs the main job (all)"
if require_image --part rseq-y rseq-n; then
	v='VARIANTS=rseq-y rseq-n'
	src=bench/cpu-read/cpu-read.c
	ok $([ -f "$src" ]; echo $?) "$src exists (the bench source the next checks touch)"
	# Kernels make would build anyway (an image out of date): the baseline for what follows.
	kb() { grep -o 'build-kernel [a-z0-9-]*' <<<"$out" | sed 's/build-kernel //' | sort -u | tr '\n' ' '; }
	mk "nothing touched" kernels "$v"; base=$(kb)
	diag "kernels out of date before touching anything: ${base:-none}"
	mk "bench source" -W "$src" kernels "$v"
	is "$(kb)" "$base" "a bench source change rebuilds no kernel"
	mk "rseq-n fragment" -W kernel/fragments/rseq-n.config kernels "$v"
	is "$(kb)" "$(printf '%s\n' $base rseq-n | sort -u | tr '\n' ' ')" \
		"a change to rseq-n's fragment rebuilds rseq-n (and no other)"
	mk "base fragment" -W kernel/fragments/base.config kernels "$v"
	is "$(kb)" "rseq-n rseq-y " "a change to the base fragment rebuilds both"
	mk "initramfs" -W "$src" initramfs
	like "$out" "make-initramfs" "while the initramfs does get rebuilt"
else
	skip "no rseq-y/rseq-n images" "rebuild rules"
fi
done_testing
