#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A job written by lava/make-jobs runs through Debian's LAVA dispatcher (lava-run, with the
# device configuration lava/device-qemu writes) on this machine under icount, and the rows of
# its CSV equal, column for column where icount makes them exact, the local harness's rows for
# the same boot (ACCEL=icount scripts/boot rseq-y -- lab-cpuread --out /out). Its LAVA test
# cases carry the same figures, and the merge puts the same CSV into a data/ run.
# Installs nothing: skipped when lava-run is missing.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
v=rseq-y
require_image "$v" "$BUILD/initramfs/lab.cpio"
if ! command -v lava-run >/dev/null; then
	skip "lava-run is not installed (apt-get install --no-install-recommends lava-dispatcher)" "dispatcher run"
	done_testing; exit
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

LAVA_OUT=$tmp/lava LAVA_VARIANTS=$v LAVA_BENCH=cpu-read LAVA_REPS=1 LAVA_ACCEL=icount \
	LAVA_DEVICE_TYPE=qemu LAVA_ARTIFACTS_URL= "$LAB/lava/make-jobs" >/dev/null
job=$tmp/lava/jobs/$v-cpu-read-icount-r1.yaml
ok $? "make-jobs writes the job"

t0=$(date +%s.%N)
out=$("$LAB/lava/run-local" "$job" "$tmp/results" 2>&1); r=$?
wall=$(echo "$(date +%s.%N) - $t0" | bc)
ok $r "lava-run completes the job (health Complete)"
[ $r -eq 0 ] || printf '%s\n' "$out" | tail -n 5 | sed 's/^/#   /'
diag "lava-run: ${wall%??????} s for the job (download, boot, run, log)"
res=$tmp/results/local-$v-cpu-read-icount-r1
"$LAB/lava/log-extract" "$res/log.yaml" "$tmp/x" 2>&1 | sed 's/^/#   /'
ok "${PIPESTATUS[0]}" "the job log holds the guest's files"

OUTDIR=$tmp/ref QUIET=1 ACCEL=icount "$LAB/scripts/boot" "$v" -- lab-cpuread --out /out >/dev/null 2>&1
ok $? "the local harness runs the same boot"

# rows CSV: the icount-exact columns of every row, by header name (scripts/csv).
rows() {
	csv_cols "$1" variant accel method threads status iters reps instructions_per_op \
		instructions_source ratio_to_empty ops_total | tr '\t' ' '
}
lava_rows=$(rows "$tmp/x/out/cpu-read.csv" 2>/dev/null)
ref_rows=$(rows "$tmp/ref/cpu-read.csv" 2>/dev/null)
n=$(printf '%s\n' "$ref_rows" | grep -c ' icount ')
ok $(( n >= 5 ? 0 : 1 )) "the local run has icount rows ($n)"
is "$lava_rows" "$ref_rows" "the dispatched run's rows equal the local harness's (method, status, instructions/op, ratio, iterations)"
diag "$(printf '%s\n' "$lava_rows" | awk '{ print $3 "=" $8 }' | tr '\n' ' ')"

# LAVA's test cases: one per row, the figure as the measurement.
cases=$tmp/x/cases.tsv
own=$(awk -F'\t' '$2 == "cpu_read_rseq_own" { print $3 " " $4 " " $5 }' "$cases")
want=$(printf '%s\n' "$ref_rows" | awk '$3 == "rseq-own" { print "pass " $8 " insn" }')
is "$own" "$want" "LAVA recorded the rseq-own row as a passing test case with its instructions/op"
is "$(awk -F'\t' '$2 == "command" { print $3 }' "$cases")" pass "and the command's exit status as a test case"

DATA=$tmp/data "$LAB/lava/merge" "$res" >/dev/null 2>&1
ok $? "the merge takes the job"
run=$(ls -d "$tmp"/data/*-lava-*-"$v" 2>/dev/null | head -n 1)
cmp -s "$run/cpu-read.csv" "$tmp/x/out/cpu-read.csv"
ok $? "its data/ run holds the dispatched CSV"
like "$(cat "$run/cpu-read.meta" 2>/dev/null)" "lava_job_id: local-$v-cpu-read-icount-r1" "and names the LAVA job"
done_testing
