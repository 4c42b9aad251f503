#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real liburcu on the host: bench/urcu-lfht/run (called as make calls it, by a relative
# path) makes one run of its own, every row measured, the split count's rows with glibc's
# rseq on and off each read the CPU the way they say, liburcu 0.13 asks sched_getcpu() twice
# an add+del with its split count and never without, figures for every row, and the report
# gives off - on with its interval over the processes. Bad options: one line, nothing written.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-urcu-lfht
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

(cd "$LAB" && DATA=$t/data HOST_PROCS=3 bench/urcu-lfht/run host --reps 2 --duration 10) \
	> "$t/log" 2>&1
ok $? "bench/urcu-lfht/run host runs"
[ $? -eq 0 ] || diag "$(tail -n 5 "$t/log")"
is "$(ls "$t/data")" "$(ls "$t/data" | grep -- '-urcu-lfht-host$')" "its run is named ...-urcu-lfht-host"
d=$(ls -d "$t"/data/*-urcu-lfht-host 2>/dev/null | head -n 1)
is "$(ls "$d" | grep -c '^cpu-read\|^percpu')" 0 "it ran urcu-lfht alone"
names=$("$bin" --list | awk '{print $1}' | sort | tr '\n' ' ')
is "$(csv_cols "$d/urcu-lfht.csv" method | sort | tr '\n' ' ')" "$names" "one row per case"
is "$(csv_cols "$d/urcu-lfht.csv" status | sort -u)" ok "every row measured"
for s in on off; do
	is "$(csv_cols "$d/urcu-lfht.csv" glibc_rseq --where method=lfht-acct-rseq-$s)" $s \
		"lfht-acct-rseq-$s ran with glibc's rseq $s"
done
like "$(csv_cols "$d/urcu-lfht.csv" path --where method=lfht-acct-rseq-on)" "rseq cpu_id" \
	"with rseq on sched_getcpu reads the rseq area"
like "$(csv_cols "$d/urcu-lfht.csv" path --where method=lfht-acct-rseq-off)" "vDSO" \
	"with rseq off it calls the vDSO"
like "$(cat "$d/urcu-lfht.meta")" "^getcpu_calls_per_op: lfht-acct 2\.000, lfht-plain 0\.000 " \
	"sched_getcpu counted: 2 an add+del with the split count, none without"
is "$(csv_cols "$d/figures.csv" figure unit | sort | tr '\t\n' ': ')" \
	"empty:ns lfht-acct-rseq-off:ns lfht-acct-rseq-on:ns lfht-plain-rseq-off:ns lfht-plain-rseq-on:ns " \
	"figures.csv: every case in ns"
is "$(ls "$d/procs")" "$(printf "01\n02\n03")" "one folder per process"

rep=$(RUNS="*-urcu-lfht-*" DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" 2>&1 >/dev/null; cat "$t/plots/report.txt" 2>/dev/null)
like "$rep" "split count \(sched_getcpu each add, each del\):" "the report has the section"
like "$rep" "off - on: [-+][0-9.]+ ns \[[-+][0-9.]+, [-+][0-9.]+\], [a-z ]+ \(3 processes\)" \
	"off - on with its interval over the 3 processes"

run_refuses "$LAB/bench/urcu-lfht/run" host --reps 0
run_refuses "$LAB/bench/urcu-lfht/run" host --method nosuch
done_testing
