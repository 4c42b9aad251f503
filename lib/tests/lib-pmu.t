#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hardware counters per operation: the counting code on fixed inputs (C unit test), and on this
# machine the path it has. Without a PMU (these VMs, TCG guests) the cycles/instructions
# columns are empty, never 0, the metadata says why, and the table says "no PMU" once; where
# perf stat counts, the columns hold positive figures. perf stat, when installed, must agree.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

unit=$BUILD/guest/tests/lab-count-test
if [ -x "$unit" ]; then
	out=$("$unit"); rc=$?
	printf '%s\n' "$out" | sed 's/^/# unit: /'
	ok $rc "counting unit test ($(printf '%s\n' "$out" | grep -c '^ok') checks)"
else
	skip "not built (make lib-tests)" "counting unit test"
fi

bin=$BUILD/guest/bin/lab-cpuread
if [ ! -x "$bin" ]; then skip "no lab-cpuread" "no-PMU path"; done_testing; exit; fi
mkdir "$t/out"
"$bin" --method empty,syscall --reps 1 --duration 5 --out "$t/out" > "$t/log" 2>&1
ok $? "a short host run"
csv=$t/out/cpu-read.csv
col() { csv_cols "$csv" "$1"; } # col NAME: that column of every data row
pmu=$(sed -n 's/^pmu: //p' "$t/out/cpu-read.meta")
if [[ $pmu == "no PMU"* ]]; then
	diag "this machine: $pmu"
	is "$(col pmu_cycles_per_op | tr -d '\n')" "" "no PMU: pmu_cycles_per_op is empty on every row"
	is "$(col instructions_per_op | tr -d '\n')" "" "no PMU: instructions_per_op is empty on every row"
	is "$(grep -c 'no PMU' "$t/log")" 1 "the table says 'no PMU' once"
	if command -v perf >/dev/null && perf stat -x, -e cycles,instructions true >/dev/null 2>"$t/perf"; then
		like "$(cat "$t/perf")" "^<not (supported|counted)>,,cycles" "perf stat agrees: no cycles counter"
	else
		skip "perf not installed or not runnable" "perf stat agrees"
	fi
else
	diag "this machine has a PMU: $pmu"
	bad=$(paste -d' ' <(col pmu_cycles_per_op) <(col instructions_per_op) |
		awk '!($1 > 0 && $2 > 0)')
	is "$bad" "" "every row has positive cycles/op and instructions/op"
	is "$(col instructions_source | sort -u)" pmu "from the PMU"
	is "$(grep -c 'no PMU' "$t/log")" 0 "and no 'no PMU' line"
fi
done_testing
