#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/boot's BOOT_SEED: the guest finds /lab/seed of the size the seed decides (a hash of
# it, 0 to 256 KiB), other seeds other sizes, none without a seed; a seed that is not a number
# is one error line before any boot.
. "$(dirname "$0")/tap.sh"
require_image rseq-n "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
size() { echo $(( ($1 * 2654435761) % 4294967296 / 16384 )); }
for seed in 1 2; do
	BOOT_SEED=$seed ACCEL=icount OUTDIR=$t/$seed QUIET=1 TIMEOUT=120 "$LAB/scripts/boot" rseq-n -- \
		sh -c 'wc -c < /lab/seed > /out/size' > /dev/null 2>&1
	ok $? "a boot with BOOT_SEED=$seed"
	is "$(tr -d ' ' < "$t/$seed/size" 2>/dev/null)" "$(size $seed)" "  /lab/seed has the seed's size"
done
ACCEL=icount OUTDIR=$t/none QUIET=1 TIMEOUT=120 "$LAB/scripts/boot" rseq-n -- \
	sh -c 'test -e /lab/seed; echo $? > /out/absent' > /dev/null 2>&1
is "$(cat "$t/none/absent" 2>/dev/null)" 1 "no seed, no file"
BOOT_SEED=1x "$LAB/scripts/boot" rseq-n -- true > /dev/null 2> "$t/err"
ok $([ $? -ne 0 ] && [ "$(grep -c . "$t/err")" = 1 ]; echo $?) "BOOT_SEED=1x: one error line"
done_testing
