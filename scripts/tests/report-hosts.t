#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Host identity in the report: runs are grouped by host CPU + microcode + host kernel, not by
# hostname. Two runs of one lab commit under one hostname on different CPUs are 2 hosts
# (the "runs come from N hosts" note fires for a host mix alone); a run whose record agrees
# with another's (older, fewer fields) or has only that hostname is the same host.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make $BUILD/host/bin/lab-ab)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/report-data
commit=35052918d138ac54fbb2ca96126997f869d482d0
mkdir -p "$t/data/20260101T000100Z-t-turner-2015"
# The host's cpu-read run: AMD EPYC, kernel 6.18.44-fc-v1098, hostname vm.
cp -r "$fx/20260101T000000Z-fixture-host" "$t/data/20260101T000000Z-t-host"
sed -i "s/^lab_commit: .*/lab_commit: $commit/" "$t/data/20260101T000000Z-t-host/cpu-read.meta"
tr=$t/data/20260101T000100Z-t-turner-2015
printf '%s\n' "table,method,abi,iters,reps,per_op_median,per_op_min,status,accel,unit" \
	"cpu-read,read CPU from rseq cpu_id,rseq,1000,1,4.00,4.00,ok,icount,insn" > "$tr/turner-2015.csv"
# meta LINES...: the turner run's metadata, one commit with the host run's.
meta() { printf '%s\n' "lab_commit: $commit" "lab_dirty: no" "$@" > "$tr/turner-2015.meta"; }
note() {
	DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" >/dev/null 2>"$t/err" || cat "$t/err"
	sed -n '/^NOTE: these runs come from/,/^qemu\|^guest/p' "$t/plots/report.txt"
}

meta "host: vm" "host_cpu: Intel(R) Xeon(R) Platinum 8480+" "host_microcode: 0x2b000590" \
	"host_kernel: 6.1.0-28-amd64"
out=$(note)
like "$out" '^NOTE: these runs come from 2 hosts and 1 lab commit;' "one hostname, two CPUs, one commit: the note says 2 hosts"
like "$(tr '\n' ' ' <<< "$out")" '  host: Intel\(R\) Xeon\(R\) Platinum 8480\+, microcode 0x2b000590, +kernel 6\.1\.0-28-amd64 \(vm\) ' \
	"  naming the Xeon by CPU, microcode and kernel"
like "$out" '^  host: AMD EPYC, kernel 6\.18\.44-fc-v1098 \(vm\)$' "  and the EPYC by what its run recorded"

meta "host: vm" "host_cpu: AMD EPYC" "host_microcode: 0xa0011d1" "host_kernel: 6.18.44-fc-v1098"
is "$(note)" "" "the same CPU and kernel (the older run without microcode): one host, no note"
meta "host: vm" "host_cpu: AMD EPYC" "host_microcode: 0xa0011d1" "host_kernel: 6.19.0"
like "$(note)" '^NOTE: these runs come from 2 hosts' "the same CPU under another host kernel: 2 hosts"
meta "host: vm"
is "$(note)" "" "a run with only the same hostname: no note"
meta "host: elsewhere"
like "$(note)" '^  host: elsewhere \(CPU not recorded\)$' "a run with only another hostname: a host of its own"
done_testing
