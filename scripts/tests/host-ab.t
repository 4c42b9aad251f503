#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/host-ab: two programs compared over fresh processes on this machine. Rounds of one
# process of A then one of B (the order recorded), each process's CSV through the bench's
# parse, the figures side A/B with the round as the unit, lab-ab paired by round; a process
# that fails, or bad options, leave nothing in DATA.
. "$(dirname "$0")/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - lab-cpuread is built (make guest-bins)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/data"
DATA=$t/data bounded 120 "$LAB/scripts/host-ab" --procs 3 --labels one,two cpu-read "$bin" "$bin" -- \
	--reps 1 --duration 5 --method vdso > "$t/out" 2> "$t/err"
ok $? "host-ab --procs 3 cpu-read runs"
run=$(ls -d "$t"/data/*-host-ab 2>/dev/null | head -n 1)
f=$run/figures.csv
is "$(csv_cols "$f" side boot --where figure=vdso 2>/dev/null | tr '\t\n' '= ')" \
	"one=1 two=1 one=2 two=2 one=3 two=3 " "figures per process: sides one and two, boots the rounds"
is "$(tr '\n' ' ' < "$run/order" 2>/dev/null)" "1 1 1 2 2 1 2 2 3 1 3 2 " "A then B in every round"
is "$(ls "$run/procs" 2>/dev/null | tr '\n' ' ')" "01-one 01-two 02-one 02-two 03-one 03-two " "a directory per process"
like "$(cat "$run/ab.txt" 2>/dev/null)" "design: paired by round, 3 units" "lab-ab compared 3 processes a side, paired"
like "$(cat "$run/host-ab.meta" 2>/dev/null)" "design: 3 processes per side, interleaved" "the meta says the design"
like "$(cat "$run/host-ab.meta" 2>/dev/null)" "side one: .*lab-cpuread sha256 [0-9a-f]{64}" "  and which binary each side ran"

mkdir -p "$t/bad"
for args in "--procs 1 cpu-read $bin $bin" "--labels a,a cpu-read $bin $bin" "cpu-read $bin /nonexistent" \
	"nosuch $bin $bin" "cpu-read $bin"; do
	# shellcheck disable=SC2086
	DATA=$t/bad "$LAB/scripts/host-ab" $args > /dev/null 2> "$t/err"; rc=$?
	ok $([ $rc = 1 ] && [ "$(wc -l < "$t/err")" = 1 ]; echo $?) "host-ab $args: one error line (exit $rc)"
done
DATA=$t/bad bounded 60 "$LAB/scripts/host-ab" --procs 2 cpu-read "$bin" /bin/false -- --reps 1 --duration 5 \
	--method vdso > /dev/null 2> "$t/err"
ok $([ $? = 1 ]; echo $?) "a side whose process fails fails the run"
like "$(tail -n 1 "$t/err")" "^error: B, round 1: the process failed; nothing written" "  naming side and round"
is "$(ls -A "$t/bad")" "" "nothing in DATA"
done_testing
