#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make strategy's runs in the report: from a made-up lab run and a newer strategy run with
# known figures, the per-CPU table still shows the lab's run (a strategy run times a user's
# strategies beside a few rows: never the lab's newest), the headline's per-CPU row too, and
# the strategy run gets its own section: every thread count, the user's row marked, each
# figure with its reps' min-max.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make $BUILD/host/bin/lab-ab)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
lab=$t/data/20260101T000000Z-t-host mine=$t/data/20260102T000000Z-t-host
mkdir -p "$lab" "$mine"
printf '%s\n' "variant: host" "host: t" "lab_commit: 0123456789ab" > "$lab/percpu.meta"
printf '%s\n' "variant: host" "host: t" "lab_commit: 0123456789ab" "accel: none" \
	"strategy: mine.c@0123456789ab" "strategy_rows: counter-mine" > "$mine/percpu.meta"
{ echo "variant,accel,method,label,threads,status,reps,ns_per_op,ns_min,ns_max"
  echo "host,none,counter-getcpu-atomic,getcpu + lock add,1,ok,5,10,8,11"
  echo "host,none,counter-rseq,rseq critical section,1,ok,5,2,1.9,2.3"; } > "$lab/percpu.csv"
{ echo "variant,accel,method,label,threads,status,reps,ns_per_op,ns_min,ns_max"
  echo "host,none,counter-getcpu-atomic,getcpu + lock add,1,ok,5,70,60,80"
  echo "host,none,counter-mine,my counter,1,ok,5,3.5,3.25,3.75"
  echo "host,none,counter-mine,my counter,2,ok,5,4.5,4.25,4.75"; } > "$mine/percpu.csv"
LAB_PLOT_WORK=$t/work DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" >/dev/null 2>"$t/err"
ok $? "the report runs" || diag "$(cat "$t/err")"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" '^- getcpu \+ lock add: +10\.00 ns' "the per-CPU table shows the lab's run, not the newer strategy run"
like "$txt" "^Your strategies: run 20260102T000000Z-t-host \(host, none\)$" "the strategy run has its own section"
like "$txt" '^  counter-mine \* +3\.5 \[3\.25-3\.75\] +4\.5 \[4\.25-4\.75\]$' \
	"... the user's row marked, each thread count with its reps' min-max"
like "$txt" '^  counter-getcpu-atomic +70\.0 \[60\.0-80\.0\] +-$' "... beside the lab's row it ran with"
head=$(DATA=$t/data README=$t/README.md bash -c \
	'printf "%s\n" "<!-- results:begin -->" "<!-- results:end -->" > "$README" && "$0/scripts/readme-results" >/dev/null && cat "$README"' "$LAB")
like "$head" "10(\.0+)? / 2(\.0+)? ns = 5\.0x \| .20260101T000000Z-t-host" "the headline's per-CPU row is the lab's run's"
done_testing
