#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The accelerators are one list (scripts/accels): lib.sh's check and default vCPUs, compare's
# knob check and LAVA's jobs take them from it, and each has its QEMU arguments in scripts/boot.
. "$(dirname "$0")/tap.sh"
names=$(sed -n 's/^\([a-z0-9_]\{1,\}\)[[:space:]].*/\1/p' "$LAB/scripts/accels" | paste -sd' ')
is "$names" "kvm tcg icount" "scripts/accels lists kvm, tcg and icount"
lib() { bash -c '. "$1/scripts/lib.sh"; shift; "$@"' _ "$LAB" "$@" 2>&1; }
is "$(lib accel_list)" "kvm, tcg or icount" "lib.sh names them from the list"
is "$(lib accel_field icount 2):$(lib accel_field tcg 2)" "1:2" "and takes each one's default vCPUs from it"
is "$(ACCEL=foo lib accel_check)" "error: ACCEL must be auto, kvm, tcg or icount, not 'foo'" "an unknown ACCEL: one line naming them"
is "$(bash -c 'unset CPUS; . "$1/scripts/lib.sh"; accel_apply icount; echo $CPUS' _ "$LAB" 2>&1)" "1" "accel_apply: icount's vCPUs from the list"
out=$(env -i PATH="$PATH" BASE=a TEST=b ACCEL=foo "$LAB/scripts/compare-check" 2>&1)
like "$out" "ACCEL=foo: one of auto, kvm, tcg, icount" "compare's check names the same list"
for a in $names; do
	ok $(grep -qE "^$a\) qaccel=" "$LAB/scripts/boot"; echo $?) "scripts/boot has $a's QEMU arguments"
done
done_testing
