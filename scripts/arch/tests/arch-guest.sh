# SPDX-License-Identifier: MIT
# The guest checks of one ARM architecture (sourced by arch-ARCH.t with ARCH set), in one boot
# of its rseq-y kernel under TCG with 2 vCPUs: the guest is that architecture, lab-check sees
# the kernel, the CPU count and rseq; every CPU-read method returns the pinned CPU on every
# CPU; every per-CPU strategy keeps an exact sum under yield, migration and signals; our ABI
# tests (rseq-abi; rseq-cs and rseq-syscall-cs with this architecture's critical sections) and
# the kernel tree's rseq selftests pass. RSEQ=n as user space sees it, on the same kernel: under
# lab-nosys-rseq (ptrace makes every rseq(2) fail with ENOSYS) rseq-probe sees ENOSYS and the
# suite skips cleanly; no kernel build for that. rseq-n, where make built it for this
# architecture (the main job with ARCHES naming it, or ARM_TEST_VARIANTS), must skip cleanly
# too. Skips when TEST_ARCHES leaves it out.
. "$(dirname "$0")/../../tests/tap.sh"
. "$LAB/scripts/lib.sh"
. "$LAB/scripts/arch/load"
export ARCH
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
case " ${TEST_ARCHES-arm64 arm} " in
*" $ARCH "*) ;;
*) echo "1..0 # SKIP ARCH=$ARCH not in TEST_ARCHES (${TEST_ARCHES-})"; exit 0 ;;
esac
guest_tier "the $ARCH kernel images"
have() { [ -f "$ARCH_IMAGES/$1.$ARCH_IMG" ] && [ -f "$ARCH_INITRAMFS" ]; }
boot() { ACCEL=tcg TIMEOUT=${TIMEOUT:-400} QUIET=1 "$LAB/scripts/boot" "$@" 2>&1; }
# tap_of FILE: "PASSED/TOTAL" of a TAP file (a missing file reads as "0/none").
tap_of() {
	[ -f "$1" ] || { echo "0/none"; return; }
	echo "$(grep -c '^ok ' "$1")/$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$1" | tail -n 1)"
}

# basic_percpu_ops_test takes 3 minutes on 2 emulated CPUs: ARCH_TEST_FULL=1 adds it.
full=; [ "${ARCH_TEST_FULL:-0}" = 1 ] && full=basic_percpu_ops_test
if require_image --part "$ARCH_IMAGES/rseq-y.$ARCH_IMG" "$ARCH_INITRAMFS"; then
	rel=$(kv "$ARCH_IMAGES/rseq-y.info" release)
	# Each step leaves its output and status in /out; the command itself always succeeds.
	OUTDIR=$t/y GUEST_ENV="FULL_ONLY=$full" boot rseq-y -- sh -c "
		uname -m > arch
		GLIBC_TUNABLES=glibc.pthread.rseq=0 lab-check $rel 2 yes > check.tap; echo \$? > check.rc
		lab-cpuread --check > cpuread.tap 2>&1; echo \$? > cpuread.rc
		lab-percpu --check --check-ops 2000 > percpu.tap 2>&1; echo \$? > percpu.rc
		rseq-abi > abi.tap 2>&1; echo \$? > abi.rc
		rseq-cs > cs.tap 2>&1; echo \$? > cs.rc
		rseq-syscall-cs survives > scs.tap 2>&1; echo \$? > scs.rc
		lab-nosys-rseq rseq-probe > nosys-probe.out 2>&1; echo \$? > nosys-probe.rc
		timeout 60 lab-nosys-rseq rseq-suite > nosys-suite.tap 2>&1; echo \$? > nosys-suite.rc
		ld=\$(ls /lab/bin/ld-linux*)
		lab-nosys-rseq \$ld --library-path /lab/bin /lab/bin/lab-rseq-size none > nosys-size.out 2>&1; echo \$? >> nosys-size.out
		GLIBC_TUNABLES=glibc.pthread.rseq=0 \$ld --library-path /lab/bin /lab/bin/lab-rseq-size off > size-off.out 2>&1; echo \$? >> size-off.out
		lab-hackbench on 1 2 10 100 0 > hb.log 2>&1; echo \$? > hb.rc
		for p in basic_test \$FULL_ONLY; do \$p > \$p.log 2>&1; echo \$? > \$p.rc; done
		for ty in s l b m i r; do param_test -T \$ty -r 100 -t 4 > param-\$ty.log 2>&1; echo \$? > param-\$ty.rc; done
		param_test_compare_twice -T l -r 100 -t 4 -7 -1 -m 1 -y > twice.log 2>&1; echo \$? > twice.rc
		true" > "$t/y.log"
	ok $? "$ARCH rseq-y: the guest boots and runs the checks"
	is "$(cat "$t/y/arch" 2>/dev/null)" "$ARCH_UNAME" "$ARCH rseq-y: uname -m in the guest"
	is "$(grep ^arch: "$t/y/lab-boot.info" 2>/dev/null)" "arch: $ARCH" "$ARCH rseq-y: lab-boot.info records the arch"
	is "$(cat "$t/y/check.rc" 2>/dev/null)" 0 "$ARCH rseq-y: lab-check: release $rel, 2 CPUs, rseq registers ($(tap_of "$t/y/check.tap"))"
	[ "$(cat "$t/y/check.rc" 2>/dev/null)" = 0 ] || diag "$(grep -v '^ok' "$t/y/check.tap" 2>/dev/null)"
	is "$(cat "$t/y/cpuread.rc" 2>/dev/null)" 0 "$ARCH rseq-y: lab-cpuread --check exits 0"
	# The methods that exist here must each read the pinned CPU on both CPUs; rseq ones among them.
	pinned=$(grep -c '^ok .* on each of 2 CPUs' "$t/y/cpuread.tap" 2>/dev/null)
	rseqok=$(grep -c '^ok [0-9]* - rseq-own .*on each of 2 CPUs' "$t/y/cpuread.tap" 2>/dev/null)
	ok $([ "${pinned:-0}" -ge 8 ] && [ "$rseqok" = 1 ]; echo $?) \
		"$ARCH rseq-y: $pinned methods read the pinned CPU on each of 2 CPUs, rseq-own among them"
	[ "$(cat "$t/y/cpuread.rc" 2>/dev/null)" = 0 ] || diag "$(grep -v '^ok' "$t/y/cpuread.tap" | tail -n 8)"
	is "$(grep -c '^ok [0-9]* - vdso .*SKIP .*none on '"$ARCH" "$t/y/cpuread.tap" 2>/dev/null)" 1 \
		"$ARCH rseq-y: no vDSO getcpu on this arch, said so"
	is "$(cat "$t/y/percpu.rc" 2>/dev/null)" 0 "$ARCH rseq-y: lab-percpu --check exits 0"
	# Every strategy ran (none skipped) and kept its sum or its nodes exact.
	is "$(grep -c '^ok ' "$t/y/percpu.tap" 2>/dev/null)/$(grep -c 'SKIP' "$t/y/percpu.tap" 2>/dev/null)" \
		"$(sed -n 's/^1\.\.//p' "$t/y/percpu.tap" 2>/dev/null)/0" \
		"$ARCH rseq-y: every strategy exact under yield,migrate,signal, none skipped ($(tap_of "$t/y/percpu.tap"))"
	is "$(grep -c '^ok [0-9]* - counter-rseq:.*exact' "$t/y/percpu.tap" 2>/dev/null)" 1 \
		"$ARCH rseq-y: the rseq counter (selftests rseq-$ARCH.h) among them"
	[ "$(cat "$t/y/percpu.rc" 2>/dev/null)" = 0 ] || diag "$(grep -v '^ok' "$t/y/percpu.tap" | tail -n 8)"
	is "$(cat "$t/y/abi.rc" 2>/dev/null)" 0 "$ARCH rseq-y: our ABI test ($(tap_of "$t/y/abi.tap"))"
	[ "$(cat "$t/y/abi.rc" 2>/dev/null)" = 0 ] || diag "$(grep -v '^ok' "$t/y/abi.tap" | tail -n 8)"
	# The suite under the wrapper stops at its probe; a broken wrapper would run it all (bounded).
	# rseq-cs: 8 cases with 2 CPUs (the migration case needs the second), none skipped.
	is "$(cat "$t/y/cs.rc" 2>/dev/null):$(tap_of "$t/y/cs.tap")" "0:8/8" \
		"$ARCH rseq-y: rseq-cs, the restart rules with lab/rseq-$ARCH.h's critical sections"
	[ "$(cat "$t/y/cs.rc" 2>/dev/null)" = 0 ] || diag "$(grep -v '^ok' "$t/y/cs.tap" | tail -n 8)"
	is "$(cat "$t/y/scs.rc" 2>/dev/null):$(tap_of "$t/y/scs.tap")" "0:1/1" \
		"$ARCH rseq-y: rseq-syscall-cs, a syscall in a critical section survives (no DEBUG_RSEQ)"
	nosys="RSEQ=n as user space sees it (ptrace ENOSYS)"
	is "$(cat "$t/y/nosys-probe.rc" 2>/dev/null):$(cat "$t/y/nosys-probe.out" 2>/dev/null)" \
		"1:rseq: ENOSYS" "$ARCH rseq-y, $nosys: rseq-probe sees ENOSYS"
	is "$(cat "$t/y/nosys-suite.rc" 2>/dev/null):$(head -n 1 "$t/y/nosys-suite.tap" 2>/dev/null):$(grep -c '^ok\|^not ok' "$t/y/nosys-suite.tap" 2>/dev/null)" \
		"0:1..0 # SKIP rseq: ENOSYS:0" "$ARCH rseq-y, $nosys: rseq-suite (ABI tests, upstream selftests) skips cleanly"
	# hackbench (Debian's rt-tests:ARCH on libc6:ARCH, through the loader), as the A/B runs it.
	is "$(cat "$t/y/hb.rc" 2>/dev/null):$("$LAB/bench/hackbench/parse-boot" --dir "$t/y" 2>&1 | wc -l)" "0:4" \
		"$ARCH rseq-y: Debian's hackbench runs in the guest, glibc registered, 4 modes parse"
	[ "$(cat "$t/y/hb.rc" 2>/dev/null)" = 0 ] || diag "$(tail -n 5 "$t/y/hb.log" 2>/dev/null)"
	is "$(tr '\n' ' ' < "$t/y/size-off.out" 2>/dev/null)" "0 0 " \
		"$ARCH rseq-y: glibc.pthread.rseq=0: unregistered on hackbench's libc.so (__rseq_size 0)"
	is "$(tr '\n' ' ' < "$t/y/nosys-size.out" 2>/dev/null)" "0 0 " \
		"$ARCH rseq-y, $nosys: glibc's own registration refused (__rseq_size 0)"
	for p in basic_test $full param-s param-l param-b param-m param-i param-r twice; do
		is "$(cat "$t/y/$p.rc" 2>/dev/null)" 0 "$ARCH rseq-y: upstream selftest $p"
		[ "$(cat "$t/y/$p.rc" 2>/dev/null)" = 0 ] || diag "$(tail -n 5 "$t/y/$p.log" 2>/dev/null)"
	done
	[ -s "$t/y/lab-boot.info" ] || diag "$(tail -n 15 "$t/y.log")"
else
	skip "no $ARCH rseq-y kernel or initramfs (make arch-test-prereqs)" "$ARCH rseq-y guest"
fi

if have rseq-n; then
	OUTDIR=$t/n boot rseq-n -- rseq-suite > "$t/n.log"; rc=$?
	ok $rc "$ARCH rseq-n: rseq-suite exits 0"
	like "$(cat "$t/n/lab-output" 2>/dev/null)" '^1\.\.0 # SKIP rseq: ENOSYS' "$ARCH rseq-n: the suite skips cleanly (ENOSYS)"
else
	skip "no $ARCH rseq-n kernel (ARM_TEST_VARIANTS=\"rseq-y rseq-n\" to build it)" "$ARCH rseq-n skip"
fi
done_testing
