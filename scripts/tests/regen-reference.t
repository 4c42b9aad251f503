#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The committed icount reference runs regenerate on this clone: when the fresh rseq-n and
# rseq-y images and the initramfs are the bytes a reference booted, every CPU-read and ctxsw
# figure must come out identical (scripts/regen exit 0). When they are not the same
# bytes, the test fails if the toolchain, glibc, QEMU, kernel source and busybox are the ones
# the references recorded (then the build is not reproducible), and otherwise says, in a
# skip line that names what changed, that the references must be renewed
# (`make regen RUN=...`, then commit the new runs and name them here).
. "$(dirname "$0")/tap.sh"
require_image rseq-n rseq-y "$BUILD/initramfs/lab.cpio"
# The references: an icount CPU-read run of rseq-n (5 boots, each with its own seed); the ctxsw bench under icount on rseq-n
# and rseq-y (a chaotic workload: switches, signals, pipes; 15 boots, each with its own seed:
# BOOT_SEED and lab-ctxsw's repeat exactly; 180 figures).
REFS=(20261207T030947Z-vm-cpu-read-rseq-n 20261207T031058Z-vm-ctxsw)
for run in "${REFS[@]}"; do
	d=$LAB/data/$run
	if [ ! -d "$d" ]; then ok 1 "reference run $run is committed"; continue; fi
	out=$("$LAB/scripts/regen" "$d" 2>"$BUILD/regen-$run.log"); r=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	case $r in
	0) ok 0 "$run: every figure identical ($(printf '%s\n' "$out" | tail -n 1))" ;;
	3) # Other bytes: say which inputs differ; none differing means the build is not reproducible.
	   changed=$(printf '%s\n' "$out" | sed -n 's/^  \([a-z_ -]*\): .*/\1/p' | paste -sd',')
	   if [ -z "$changed" ]; then
		ok 1 "$run: the same toolchain and sources built other bytes ($(printf '%s\n' "$out" | head -n 1))"
	   else
		skip "the reference must be renewed: $changed changed since $run" "$run regenerates"
	   fi ;;
	1) ok 1 "$run: figures differ on the same bytes ($(printf '%s\n' "$out" | tail -n 1))" ;;
	*) ok 1 "$run: regen ran ($(tail -n 1 "$BUILD/regen-$run.log"))" ;;
	esac
done
done_testing
