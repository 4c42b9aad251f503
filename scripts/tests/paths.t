#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A build directory or output path with a space or a comma stops every script at once, in one
# line (check_path in scripts/lib.sh), instead of failing late inside Kbuild or a cpio list.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for bad in "$t/with space" "$t/with,comma"; do
	for s in boot kernel-source make-initramfs build-kernel kvm-probe; do
		err=$(BUILD=$bad "$LAB/scripts/$s" rseq-y -- true 2>&1 >/dev/null); rc=$?
		is "$rc/$(printf '%s\n' "$err" | wc -l)" "1/1" "$s with BUILD='${bad#$t/}': fails in one line"
		like "$err" "^error: BUILD '.*' contains a space or a comma" "  saying what is wrong"
	done
	ok $([ ! -e "$bad" ]; echo $?) "nothing was created at '${bad#$t/}'"
done
err=$("$LAB/scripts/make-initramfs" "$t/a,b.cpio" /bin/true 2>&1); rc=$?
is "$rc" 1 "make-initramfs to an output path with a comma fails"
like "$err" "^error: initramfs '.*a,b.cpio' contains a space or a comma" "in one line"
err=$(OUTDIR="$t/o o" "$LAB/scripts/boot" rseq-y -- true 2>&1); rc=$?
if require_image --part rseq-y; then
	like "$err" "^error: OUTDIR '.*o o' contains a space or a comma" "boot: an OUTDIR with a space, in one line"
else
	skip "no rseq-y image" "boot OUTDIR check"
fi
done_testing
