#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot each test variant and check, in the guest, that it is the kernel and machine that were
# asked for and that rseq is there (rseq-y) or answers ENOSYS (rseq-n). The guest program's
# exit status must come back as the harness's own, and its files must come back too.
. "$(dirname "$0")/tap.sh"
guest_tier "kernel images ($TEST_VARIANTS)"
boot=$LAB/scripts/boot
for v in $TEST_VARIANTS; do
	if ! require_image --part "$v"; then skip "no image for $v" "boot $v"; continue; fi
	rel=$(sed -n 's/^release: //p' "$BUILD/images/$v.info")
	rseq=$(grep -q '^CONFIG_RSEQ=y' "$BUILD/images/$v.config" && echo yes || echo no)
	for cpus in 2 1; do
		out=$(CPUS=$cpus QUIET=0 GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=0 \
			"$boot" "$v" -- lab-check "$rel" "$cpus" "$rseq" 2>&1); r=$?
		ok $r "$v boots with $cpus vCPU and lab-check passes (release $rel, rseq $rseq)"
		[ $r -eq 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
	done
	# A check that must fail: ask for a CPU count the guest does not have.
	out=$(CPUS=2 GUEST_ENV=GLIBC_TUNABLES=glibc.pthread.rseq=0 "$boot" "$v" -- lab-check "$rel" 3 "$rseq" 2>&1); r=$?
	is "$r" 1 "$v: a failing guest program's status (1) comes back"
	like "$out" "not ok 2 - 3 CPUs online \(got 2\)" "$v: with its output"
done

v=$(for v in $TEST_VARIANTS; do have_image "$v" && echo "$v" && break; done)
if [ -n "$v" ]; then
	"$boot" "$v" -- sh -c 'exit 7' >/dev/null 2>&1
	is "$?" 7 "$v: the command's own exit status is returned"
	d=$(mktemp -d)
	OUTDIR=$d QUIET=1 "$boot" "$v" -- sh -c 'echo result > r.txt; mkdir sub; echo deep > sub/x' 2>/dev/null
	is "$(cat "$d/r.txt" 2>/dev/null)/$(cat "$d/sub/x" 2>/dev/null)" "result/deep" "$v: files the guest leaves in /out come back"
	like "$(cat "$d/lab-boot.info")" "^accel: (kvm|tcg)" "$v: the accelerator is recorded with the result"
	rm -rf "$d"
	out=$(ACCEL=bogus "$boot" "$v" -- true 2>&1); r=$?
	ok $((r == 0)) "an unknown ACCEL is refused"
	is "$out" "error: ACCEL must be auto, kvm, tcg or icount, not 'bogus'" "in one line"
	out=$(TCG_THREAD=bogus "$boot" "$v" -- true 2>&1); r=$?
	ok $((r == 0)) "an unknown TCG_THREAD is refused"
	is "$out" "error: TCG_THREAD must be multi or single, not 'bogus'" "in one line"
	out=$("$boot" no-such-variant -- true 2>&1); r=$?
	like "$out" "^error: no kernel image for variant 'no-such-variant'" "an unknown variant is one line"
fi
done_testing
