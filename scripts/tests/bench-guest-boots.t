#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/bench-guest: the boot is the unit. GUEST_BOOTS boots of the variant, each with its
# own BOOT_SEED (GUEST_SEED0 + k), their CSVs merged (the median boot's row, a figure per
# boot), the meta saying so; under icount a boot's instructions per read are the same in
# every boot. A bad GUEST_BOOTS is one line and no run.
. "$(dirname "$0")/tap.sh"
require_image rseq-y "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/data"
DATA=$t/data GUEST_BOOTS=2 GUEST_SEED0=40 ACCEL=icount "$LAB/scripts/bench-guest" rseq-y cpu-read -- \
	--method vdso,rseq-glibc > "$t/out" 2> "$t/err"
ok $? "bench-guest rseq-y cpu-read, two boots"
d=$(ls -d "$t"/data/*-rseq-y 2>/dev/null | head -n 1)
is "$(ls "$d/boots" 2>/dev/null | grep -v log | tr '\n' ' ')" "01 02 " "a directory per boot"
is "$(cat "$d"/boots/0[12]/lab-boot.info 2>/dev/null | sed -n 's/^boot_seed: //p' | tr '\n' ' ')" "41 42 " \
	"each boot booted with its own seed (lab-boot.info)"
is "$(ls "$d"/boots/0[12]/cpu-read.csv 2>/dev/null | wc -l)" 2 "each boot left its CSV"
like "$(cat "$d/cpu-read.meta" 2>/dev/null)" "^guest_units: 2 boots, each with its own seed \\(BOOT_SEED 41 to 42\\)" \
	"the meta names the unit and the seeds"
for m in vdso rseq-glibc; do
	a=$(csv_cols "$d/boots/01/cpu-read.csv" instructions_per_op --where method=$m 2>/dev/null)
	b=$(csv_cols "$d/boots/02/cpu-read.csv" instructions_per_op --where method=$m 2>/dev/null)
	m2=$(csv_cols "$d/cpu-read.csv" instructions_per_op --where method=$m 2>/dev/null)
	ok $([ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$m2" ]; echo $?) "$m: $a instructions a read in both boots and in the merged row"
done
like "$(cat "$d/figures.csv" 2>/dev/null)" "cpu-read,vdso,rseq-y,icount,insn," "figures from the merged CSV"
mkdir -p "$t/bad"
DATA=$t/bad GUEST_BOOTS=0 ACCEL=icount "$LAB/scripts/bench-guest" rseq-y cpu-read > /dev/null 2> "$t/err2"
ok $([ $? -ne 0 ] && [ "$(wc -l < "$t/err2")" = 1 ]; echo $?) "GUEST_BOOTS=0: one error line"
is "$(ls -A "$t/bad")" "" "  and no run"
done_testing
