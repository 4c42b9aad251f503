#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/host-ab: two sides of one bench over fresh processes on this machine, through make
# compare's road (compare-lib.sh). Two builds (A base, B test) or one build under two glibc
# settings; rounds of one process a side, base first in odd rounds and test first in even ones;
# each process's CSV through the bench's parse, lab-ab with the process as the unit paired by
# round, the block; a process that fails, or bad input, leave nothing in DATA.
. "$(dirname "$0")/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - lab-cpuread is built (make guest-bins)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/data"
export PLOTS=$t/plots
# the run a host-ab call wrote, as it said (two runs in one second: the second's name ends -2)
printed_run() { sed -n 's/^>> results in \(.*\); mail block: .*/\1/p' "$t/err"; }
DATA=$t/data bounded 120 "$LAB/scripts/host-ab" --procs 2 cpu-read "$bin" "$bin" -- \
	--reps 1 --duration 5 --method vdso > "$t/out" 2> "$t/err"
ok $? "host-ab --procs 2 cpu-read BIN BIN runs"
run=$(printed_run)
f=$run/figures.csv
is "$(csv_cols "$f" side boot --where figure=vdso 2>/dev/null | sort -k2 | tr '\t\n' '= ')" \
	"cmp-base=1 cmp-test=1 cmp-base=2 cmp-test=2 " \
	"figures per process: sides base and test, boots the rounds"
is "$(tr '\n' ' ' < "$run/sides.order" 2>/dev/null)" "1 base 1 test 2 test 2 base " \
	"base first in odd rounds, test first in even ones"
is "$(cd "$run/boots" 2>/dev/null && ls -d round-*/* | tr '\n' ' ')" \
	"round-1/base round-1/test round-2/base round-2/test " "a folder per process"
is "$(csv_cols "$run/ab-input.csv" process round --where figure=cpu-read.vdso --where variant=test 2>/dev/null |
	tr '\t\n' '= ')" "1=1 2=2 " "lab-ab's input: the process is the unit, the round the pair"
like "$(cat "$run/compare.txt" 2>/dev/null)" "2 processes x 1 rep per binary; paired by round" \
	"the block says the design"
like "$(cat "$run/compare.txt" 2>/dev/null)" "guest: none \\(both sides ran on the host" "  and that no guest ran"
unlike "$(cat "$run/compare.txt" 2>/dev/null)" "qemu:" "  with no QEMU line"
like "$(cat "$run/compare.meta" 2>/dev/null)" "base_describe: .*lab-cpuread \\(sha256 [0-9a-f]{12}\\)" \
	"the meta says which binary each side ran"
ok $([ -f "$PLOTS/compare-$(basename "$run").txt" ]; echo $?) "the block is also in PLOTS"

# glibc's settings: one build, the test side's processes with glibc's rseq registration off
DATA=$t/data bounded 120 "$LAB/scripts/host-ab" --procs 2 --glibc cpu-read -- \
	--reps 1 --duration 5 --method vdso > "$t/out" 2> "$t/err"
ok $? "host-ab --glibc cpu-read runs"
run=$(printed_run)
ok $([ -d "$run" ] && [ "$(ls -d "$t"/data/*-host-ab* | wc -l)" = 2 ]; echo $?) "  a run of its own beside the first"
is "$(csv_cols "$run/boots/round-1/base/cpu-read.csv" glibc_rseq --where method=vdso 2>/dev/null)/$(
	csv_cols "$run/boots/round-1/test/cpu-read.csv" glibc_rseq --where method=vdso 2>/dev/null)" "on/off" \
	"base runs with glibc's rseq on, test with it off"
is "$(csv_cols "$run/figures.csv" figure --where side=cmp-test 2>/dev/null | sort -u | tr '\n' ' ')" \
	"empty vdso " "  and a figure keeps its name on both sides"
like "$(cat "$run/compare.txt" 2>/dev/null)" "per glibc setting" "  the block names the sides"

mkdir -p "$t/bad"
for args in "--procs 1 cpu-read $bin $bin" "cpu-read $bin /nonexistent" "nosuch $bin $bin" "cpu-read $bin" \
	"--glibc cpu-read $bin $bin" "cpu-read $bin $bin -- --no-such-option" "lttng-ust $bin $bin"; do
	# shellcheck disable=SC2086
	DATA=$t/bad "$LAB/scripts/host-ab" $args > /dev/null 2> "$t/err"; rc=$?
	ok $([ $rc = 1 ] && [ "$(wc -l < "$t/err")" = 1 ]; echo $?) "host-ab $args: one error line (exit $rc)"
done
DATA=$t/bad bounded 60 "$LAB/scripts/host-ab" --procs 2 cpu-read "$bin" /bin/false -- --reps 1 --duration 5 \
	--method vdso > /dev/null 2> "$t/err"
ok $([ $? = 1 ]; echo $?) "a side whose process fails fails the run"
like "$(tail -n 1 "$t/err")" "^error: test, round 1: the process failed; nothing written" "  naming side and round"
is "$(ls -A "$t/bad")" "" "nothing in DATA"
done_testing
