#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every CPU-read method returns the CPU it is pinned to, on every online CPU: on the host, and
# in a guest of each test variant whose kernel is built (rseq rows say ENOSYS on rseq-n). The
# dependent rows are checked through their timed chain, the gs rows through their GS base,
# set once and then carried by the kernel across the migrations of the check.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# check_tap WHERE FILE RC: the --check TAP of one place, judged here.
check_tap() {
	local where=$1 out=$2 rc=$3 n
	ok "$rc" "$where: lab-cpuread --check exits 0"
	n=$(grep -c '^not ok' "$out")
	is "$n" 0 "$where: no method reads a wrong CPU"
	grep '^not ok' "$out" | sed 's/^/#   /'
	n=$(grep -cE '^(not )?ok [0-9]+ - [^ ]+ \(glibc rseq [a-z]+\)' "$out")
	is "$n" "$nmethods" "$where: every method verified or skipped with a reason"
	like "$(cat "$out")" "on each of $4 CPUs" "$where: verified on all $4 online CPUs"
	grep -E '# SKIP' "$out" | sed 's/^/#   skipped: /'
}

[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built"; exit 1; }
nmethods=$("$bin" --list | wc -l)
"$bin" --check > "$t/host.tap" 2>&1; rc=$?
check_tap host "$t/host.tap" $rc "$(nproc)"
like "$(cat "$t/host.tap")" '^ok [0-9]+ - rseq-own \(glibc rseq off\) reads' \
	"host: own registration checked (in the worker with glibc's rseq off)"
like "$(cat "$t/host.tap")" '^ok [0-9]+ - rseq-glibc \(glibc rseq on\) reads' \
	"host: glibc's registration checked"
# new_rows WHERE FILE: the dependent rows and the gs read each read the pinned CPU there.
new_rows() {
	local m
	for m in $("$bin" --list | awk '$1 ~ /-dep$/ && $1 != "empty-dep" {print $1}') gs-rseq; do
		like "$(cat "$2")" "^ok [0-9]+ - $m \(glibc rseq [a-z]+\) reads the pinned CPU" \
			"$1: $m reads the pinned CPU on every CPU"
	done
	like "$(cat "$2")" '^ok [0-9]+ - gs-dummy \(glibc rseq [a-z]+\) runs pinned' \
		"$1: gs-dummy (cost only) runs on every CPU"
}
new_rows host "$t/host.tap"

# The same through the boot harness, when the kernels exist.
for v in $TEST_VARIANTS; do
	if ! require_image --part "$v"; then skip "no $v kernel image" "$v guest"; continue; fi
	if [ "$BUILD/initramfs/lab.cpio" -ot "$bin" ]; then
		skip "initramfs older than lab-cpuread (make initramfs)" "$v guest"; continue
	fi
	mkdir -p "$t/$v"
	OUTDIR=$t/$v QUIET=1 CPUS=2 TIMEOUT=${TIMEOUT:-180} "$LAB/scripts/boot" "$v" -- \
		lab-cpuread --check >"$t/$v.log" 2>&1; rc=$?
	[ $rc -eq 0 ] || sed 's/^/#   /' "$t/$v.log" | tail -n 5
	check_tap "$v guest" "$t/$v/lab-output" $rc 2
	case $v in
	rseq-n) like "$(cat "$t/$v/lab-output")" 'rseq-own .*# SKIP ENOSYS' "$v guest: rseq rows say ENOSYS"
		like "$(cat "$t/$v/lab-output")" 'gs-rseq .*# SKIP ENOSYS' "$v guest: gs-rseq says ENOSYS"
		like "$(cat "$t/$v/lab-output")" '^ok [0-9]+ - gs-dummy \(glibc rseq [a-z]+\) runs pinned' \
			"$v guest: gs-dummy runs (a GS base needs no rseq)" ;;
	*) like "$(cat "$t/$v/lab-output")" '^ok [0-9]+ - rseq-lazy \(glibc rseq off\) reads' \
		"$v guest: lazy registration checked"
		new_rows "$v guest" "$t/$v/lab-output" ;;
	esac
done
done_testing
