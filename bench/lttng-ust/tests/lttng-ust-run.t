#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real LTTng-UST on the host (rseq_sides_host: one run, both rows measured with glibc's rseq
# on and off as named, figures, the report's off - on with its interval, bad options refused)
# inside a session the bench starts and stops: the tracer asks sched_getcpu() once an event, its
# getcpu plugin row calls the system call,
# babeltrace2 read back every event of the count check, the session was a snapshot one under
# an unprivileged daemon, and nothing of it is left: no lttng process, no session folder, also
# after an interrupt, which writes nothing to data/; the README headline's row. A daemon that
# does not start and a guest run: one line, nothing written.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
bin=$BUILD/host/bin/lab-lttng-ust
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
# lttng_left: the lab's lttng processes and session folders still there (none expected).
lttng_left() {
	{ pgrep -x lttng-sessiond || true; pgrep -f 'lab-lttng\.' || true
	  ls -d /tmp/lab-lttng.* 2>/dev/null || true; } | wc -l
}
before=$(lttng_left)
rseq_sides_host lttng-ust lttng-event
trap 'rm -rf "$t"' EXIT
m=$(cat "$d/lttng-ust.meta")
like "$m" "^getcpu_calls_per_op: lttng-event 1\.000 " "sched_getcpu counted: once an event"
like "$(csv "$d/lttng-ust.csv" lttng-event-syscall path)" "getcpu plugin: the getcpu system call" \
	"the syscall row ran with LTTng's getcpu plugin loaded"
# each row's fastest rep (a rep the host's load slowed is not its fastest): about 14x apart
ok "$(awk -v s="$(csv "$d/lttng-ust.csv" lttng-event-syscall ns_min)" \
	-v v="$(csv "$d/lttng-ust.csv" lttng-event-rseq-off ns_min)" 'BEGIN { print !(s > 2 * v) }')" \
	"... and the system call costs more than twice the vDSO row (fastest reps)"
like "$m" "^lttng_events_written: 100000 " "the count check wrote 100000 events"
like "$m" "^lttng_events_read: 100000 \(babeltrace2\)" "... and babeltrace2 read 100000"
like "$m" "^lttng_session: snapshot \(overwrite mode\), lttng-sessiond --no-kernel as [a-z]" \
	"the timed runs wrote into a snapshot session under the lab's own daemon"
like "$(cat "$t/plots/report.txt")" "events counted by babeltrace2: 100000 of 100000 written" \
	"the report gives the count"
is "$(lttng_left)" "$before" "no lttng process or session folder left after the run"
printf '<!-- results:begin -->\n<!-- results:end -->\n' > "$t/README.md"
DATA=$t/data README=$t/README.md "$LAB/scripts/readme-results" > /dev/null 2>&1
like "$(cat "$t/README.md")" "^\| LTTng-UST 2\.13 event \(the real tracer\): glibc rseq off / on \| host: .* \| [0-9.]+ / [0-9.]+ ns; off - on [-+][0-9.]+ ns \[[-+][0-9.]+, [-+][0-9.]+\] \(seed's own tracer 117\.4 / 98\.0\) \| " \
	"the README's headline has the real tracer's row, its interval and the seed's"

# An interrupt in the middle: nothing in data/, nothing left running.
(cd "$LAB" && DATA=$t/int HOST_PROCS=3 exec setsid bench/lttng-ust/run host --reps 3 --duration 100) \
	> "$t/int.log" 2>&1 &
pid=$!
# once the first process in the session has begun its rows
for _ in $(seq 100); do
	grep -qs 'glibc rseq on here' "$t"/int/.run.*/procs/01/lttng-ust.log && break
	sleep 0.1
done
like "$(cat "$t"/int/.run.*/procs/01/lttng-ust.log 2>/dev/null)" "glibc rseq on here" \
	"a process was running in the session when interrupted"
kill -INT -- "-$pid" 2>/dev/null
wait "$pid"
is "$(ls -A "$t/int" 2>/dev/null | wc -l)" 0 "interrupted: nothing in data/"
is "$(lttng_left)" "$before" "interrupted: no lttng process or session folder left"

# A daemon that does not start: one line, nothing in data/, nothing left.
mkdir -p "$t/fake" && chmod 755 "$t" "$t/fake"
printf '#!/bin/sh\necho "fake: no daemon today" >&2\nexit 1\n' > "$t/fake/lttng-sessiond"
chmod 755 "$t/fake/lttng-sessiond"
err=$(cd "$LAB" && PATH=$t/fake:$PATH DATA=$t/nod HOST_PROCS=2 bench/lttng-ust/run host 2>&1 >/dev/null); rc=$?
is "$([ $rc -ne 0 ] && echo failed):$(wc -l <<<"$err")" "failed:1" "no daemon: the run fails with one line"
like "$err" "^error: lttng-sessiond did not start \(fake: no daemon today\)$" "... saying why"
is "$(ls -A "$t/nod" 2>/dev/null | grep -v '^\.run' | wc -l):$(ls -A "$t"/nod/.run.* 2>/dev/null | wc -l)" "0:0" \
	"... and nothing in data/"
is "$(lttng_left)" "$before" "... nor any lttng process or session folder"

run_refuses "$LAB/bench/lttng-ust/run" rseq-y
done_testing
