#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make modern's plumbing (make -n in a scratch BUILD: nothing built or booted): each 6.12
# kernel is built with KVER=6.12 and selected under its own name (VARIANT-6.12), the 6.1
# images are neither built nor selected by it; its stages boot those names (boot check, CPU
# reads, per-CPU, mm_cid, icount A/B, hackbench, the rseq-stats motivation), hackbench and
# the motivation last; and the main job (make all) has none of it.
. "$(dirname "$0")/../../tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
b=$t/build
mn() { make -s -n -C "$LAB" BUILD="$b" "$@" 2>&1; }
out=$(mn modern); ok $? "make -n modern succeeds"
for v in rseq-n rseq-y rseq-stats; do
	like "$out" "^KVER=6\\.12 .*IMAGE_NAME=$v-6\\.12 scripts/build-kernel $v\$" "$v is built with KVER=6.12 as $v-6.12"
done
is "$(grep 'scripts/build-kernel' <<< "$out" | grep -vc 'IMAGE_NAME=[a-z-]*-6\.12 ')" 0 \
	"no 6.1 image is built or selected by it"
for n in rseq-n-6.12 rseq-y-6.12; do
	like "$out" "scripts/boot-smoke $n *\$" "$n: boot check"
	like "$out" "bench/cpu-read/run $n *\$" "$n: CPU reads"
	like "$out" "bench/percpu/run $n *\$" "$n: per-CPU strategies"
	like "$out" "bench/mm-cid/run $n *\$" "$n: mm_cid"
done
like "$out" "compare-icount rseq-n-6\\.12 rseq-y-6\\.12\$" "the icount A/B of the two"
like "$out" "bench/hackbench/run rseq-n-6\\.12 rseq-y-6\\.12\$" "hackbench A/B of the two"
like "$out" "bench/rseq-stats/motivation rseq-stats-6\\.12 rseq-y-6\\.12\$" "the motivation on 6.12"
order=$(grep -oE 'boot-smoke rseq-n-6|mm-cid/run rseq-y-6|hackbench/run|rseq-stats/motivation|scripts/report' <<< "$out" | paste -sd,)
is "$order" "boot-smoke rseq-n-6,mm-cid/run rseq-y-6,hackbench/run,rseq-stats/motivation,scripts/report" \
	"checks first, hackbench and the motivation last, then the report"
out=$(mn modern MODERN_STATS=); ok $? "MODERN_STATS= : make -n modern succeeds"
is "$(grep -c 'rseq-stats-6\.12\|motivation' <<< "$out")" 0 "  without the motivation stage or its kernel"
out=$(mn MODERN_KVER=6.13 modern-kernels)
like "$out" "^KVER=6\\.13 .*IMAGE_NAME=rseq-y-6\\.13 scripts/build-kernel rseq-y\$" "MODERN_KVER names the release"
out=$(mn all); ok $? "make -n all succeeds"
is "$(grep -c -- '-6\.12' <<< "$out")" 0 "the main job has nothing of make modern"
done_testing
