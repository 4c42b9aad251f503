#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The rseq counter deltas of bench/hackbench/parse-boot --dir, on counters with known before and
# after values (the rseq/stats layout guest-run copies: "name: value" lines): notify_resume is
# the slow-path and signal deliveries during the run (after - before, both counted),
# cpu_id_updates the ids written; the other counters move by other amounts so that reading a
# wrong one shows.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
p=$LAB/bench/hackbench/parse-boot
fx=$LAB/bench/hackbench/tests/fixtures
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cp "$fx"/hb-* "$t/"
stats() { # stats FILE exit signal slowp fastp ids cs clear fixup
	local f=$1; shift
	printf 'exit: %s\nsignal: %s\nslowp: %s\nfastp: %s\nids: %s\ncs: %s\nclear: %s\nfixup: %s\n' "$@" > "$f"
}
# process/pipe: slowp +60, signal +12, ids +31 (exit +900, fastp +4000, cs +400, ...).
stats "$t/hb-process-pipe-1.before" 1000 7 100 5000 50 300 20 2
stats "$t/hb-process-pipe-1.after" 1900 19 160 9000 81 700 26 3
# thread/socket: signals only (slowp unchanged), no ids.
stats "$t/hb-thread-socket-1.before" 40 3 500 700 90 10 1 0
stats "$t/hb-thread-socket-1.after" 95 8 500 800 90 11 1 0

rows=$("$p" --dir "$t"); ok $? "the directory with counters parses"
# Columns 9 and 10 of --dir's rows: notify_resume, cpu_id_updates.
counters() { csv_rows rep,mode,ipc,groups,fds,loops,datasize,time,notify_resume,cpu_id_updates,vtime_ns,idle_ticks notify_resume cpu_id_updates --where rep=1 --where mode="$1" \
	--where ipc="$2" <<< "$rows" | tr '\t' ,; }
is "$(counters process pipe)" "72,31" "process/pipe: notify_resume 60 + 12 = 72 (slowp and signal), cpu_id_updates 31"
is "$(counters thread socket)" "5,0" "thread/socket: notify_resume 5 (signals alone), cpu_id_updates 0"
is "$(counters process socket)" "," "a run without .before/.after: both empty, not zero"
done_testing
