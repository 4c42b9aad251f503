#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The glibc-registration axis reaches the guest: Debian's hackbench and a probe on the same
# libc.so run there through the loader carried in the initramfs; with
# GLIBC_TUNABLES=glibc.pthread.rseq=0 glibc leaves rseq unregistered (__rseq_size 0), with =1
# it registers (> 0) on RSEQ=y, and on RSEQ=n it cannot (0). Asserted in the guest.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
guest_tier "kernel images (rseq-y, rseq-n)"
[ -f "$BUILD/initramfs/lab.cpio" ] || { echo "1..0 # SKIP no initramfs (make initramfs)"; exit 0; }
grep -aq 'lab/bin/lab-hackbench' "$BUILD/initramfs/lab.cpio" ||
	{ echo "1..1"; echo "not ok 1 - the initramfs carries hackbench (make initramfs)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# boot_probe VARIANT TUNABLE EXPECT: the probe's exit and output in the guest.
probe() {
	GUEST_ENV=${2:+GLIBC_TUNABLES=$2} QUIET=1 TIMEOUT=120 OUTDIR=$t/$1-$3 "$LAB/scripts/boot" "$1" -- \
		sh -c "/lab/bin/ld-linux-x86-64.so.2 --library-path /lab/bin /lab/bin/lab-rseq-size $3 > /out/size" 2>/dev/null
}
if require_image --part rseq-y; then
	probe rseq-y glibc.pthread.rseq=0 off; ok $? "rseq-y, tunable rseq=0: the guest asserts 'off'"
	is "$(cat "$t/rseq-y-off/size" 2>/dev/null)" 0 "  __rseq_size 0"
	probe rseq-y glibc.pthread.rseq=1 on; ok $? "rseq-y, tunable rseq=1: the guest asserts 'on'"
	like "$(cat "$t/rseq-y-on/size" 2>/dev/null)" '^[1-9][0-9]*$' "  __rseq_size > 0"
	probe rseq-y glibc.pthread.rseq=0 on
	ok $([ $? -ne 0 ]; echo $?) "the assertion can fail: 'on' under rseq=0 is refused in the guest"
	# A whole short guest run: every hackbench run parses.
	OUTDIR=$t/run QUIET=1 TIMEOUT=180 GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=1 \
		"$LAB/scripts/boot" rseq-y -- lab-hackbench on 1 2 10 100 >/dev/null 2>&1
	ok $? "lab-hackbench runs Debian's hackbench in the guest"
	is "$("$LAB/bench/hackbench/parse-boot" --dir "$t/run" | wc -l)" 4 "  four runs, all with a Time: line"
else
	skip "no rseq-y image" "rseq-y guest"
fi
if require_image --part rseq-n; then
	probe rseq-n "" none; ok $? "rseq-n: glibc cannot register ('none' asserted in the guest)"
	is "$(cat "$t/rseq-n-none/size" 2>/dev/null)" 0 "  __rseq_size 0"
else
	skip "no rseq-n image" "rseq-n guest"
fi
done_testing
