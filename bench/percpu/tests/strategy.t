#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make strategy with a correct strategy file (the batching counter example): it passes the
# exactness check, and gets rows beside the lab's counter rows in an ordinary run on the host
# (percpu.csv, figures.csv, percpu.meta naming the file and its rows) and, in an rseq-y guest
# under icount, instructions per op; the report section marks it.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
env=$(make -s --no-print-directory -C "$LAB" strategy-env)
ex=$LAB/bench/percpu/examples/batch-counter.c

# strategy DATA ENV...: bench/percpu/strategy on the example, as make strategy runs it.
strategy() {
	local data=$1
	shift
	(cd "$LAB" && eval "DATA=$data HOST_PROCS=2 $* $env STRATEGY_ARGS='--threads 1,2 --reps 2 --duration 20' \
		bench/percpu/strategy $ex") > "$t/log" 2>&1
}

strategy "$t/data"
ok $? "make strategy on the batching counter exits 0"
[ -s "$t/data" ] || diag "$(tail -n 5 "$t/log")"
like "$(cat "$t/log")" "^>> counter-batch16: exact \(12 threads|^>> counter-batch16: exact \([0-9]+ threads" \
	"its exactness check passed first"
d=$(ls -d "$t"/data/*-host 2>/dev/null | head -n 1)
for m in counter-batch16 counter-getcpu-atomic counter-rseq counter-global-atomic counter-mutex; do
	is "$(csv "$d/percpu.csv" "$m" status)" ok "host: a $m row, measured"
done
like "$(csv "$d/percpu.csv" counter-batch16 ns_per_op)" '^[0-9]+\.[0-9]+$' "host: its ns per op"
is "$("$LAB/scripts/csv" "$d/percpu.csv" method | grep -c '^list-\|^lock-')" 0 \
	"only the lab's rows of its shape (counter) beside it"
like "$(cat "$d/percpu.meta" 2>/dev/null)" "strategy: batch-counter.c@[0-9a-f]{12}" "percpu.meta names the file"
like "$(cat "$d/percpu.meta" 2>/dev/null)" "strategy_rows: counter-batch16" "... and its rows"
like "$(cat "$d/figures.csv" 2>/dev/null)" "^percpu,counter-batch16.t1,host,none,ns," \
	"figures.csv (long format) has its figure"
like "$(cat "$t/log")" "counter-batch16 \* +[0-9.]+ \[[0-9.]+-[0-9.]+\]" "the report section marks it, with the reps' range"
# The interleaving check's coverage: in the metadata and the report, for its row and the
# lab's rows beside it; its speed against its .versus.
like "$(cat "$d/percpu.meta" 2>/dev/null)" "strategy_interleaved: .*counter-batch16=[1-9][0-9]*/[1-9][0-9]*/0/0/[23]" \
	"percpu.meta: the interleaving check's coverage of it"
like "$(cat "$t/log")" "counter-batch16 \*: [1-9][0-9]* x [23], [1-9][0-9]*, 0$" "the report: its coverage"
like "$(cat "$t/log")" "^    [0-9.]+ aborts/Mop timed$" "... and the aborts it declares, per Mop"
like "$(cat "$t/log")" "  counter-rseq: [1-9][0-9]* x [23], [1-9][0-9]*, [1-9][0-9]*$" \
	"... and the lab's rows' (counter-rseq aborted where interrupted)"
like "$(cat "$t/log")" "[0-9.]+x as fast as counter-getcpu-atomic at 1 thr" "... and its speed against .versus"
# The schedule exploration ran first: its bound and what it explored, in the log, the
# metadata and the report.
like "$(cat "$t/log")" "^>> counter-batch16: every schedule explored \(bound 2: [1-9][0-9]* states, [1-9][0-9]* schedules" \
	"the schedule exploration accepted it before timing"
like "$(cat "$d/percpu.meta" 2>/dev/null)" "strategy_explored: counter-batch16=2/[1-9][0-9]*/[1-9][0-9]*/[0-9.]+" \
	"percpu.meta: the exploration's bound, states, schedules, seconds"
like "$(cat "$t/log")" "    schedules explored \(up to 2 preemptions, signals, migrations\): [1-9][0-9]* states" \
	"the report: the exploration's coverage of it"

if require_image --part rseq-y; then
	[ -f "$BUILD/initramfs/lab.cpio" ] || diag "no initramfs: make initramfs"
	strategy "$t/guest" STRATEGY_VARIANTS=rseq-y ACCEL=icount
	ok $? "make strategy VARIANTS=rseq-y ACCEL=icount exits 0"
	g=$(ls -d "$t"/guest/*-rseq-y 2>/dev/null | head -n 1)
	[ -n "$g" ] || diag "$(tail -n 5 "$t/log")"
	is "$(csv "$g/percpu.csv" counter-batch16 status)" ok "rseq-y guest: a counter-batch16 row"
	is "$(csv "$g/percpu.csv" counter-batch16 accel)" icount "... under icount"
	like "$(csv "$g/percpu.csv" counter-batch16 ns_per_op)" '^[0-9]+\.[0-9]+$' "... its instructions per op"
	like "$(cat "$g/percpu.meta" 2>/dev/null)" "strategy: batch-counter.c@" "... and the guest's meta names the file"
else
	for i in 1 2 3 4 5; do skip "no rseq-y image" "rseq-y guest $i"; done
fi
done_testing
