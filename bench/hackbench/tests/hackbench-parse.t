#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The hackbench parse step (bench/hackbench/parse-boot) on captured real output of Debian's
# hackbench in a guest, and on broken output: no Time: line, cut short, malformed, failed run.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
p=$LAB/bench/hackbench/parse-boot
fx=$LAB/bench/hackbench/tests/fixtures
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

rows=$("$p" --dir "$fx"); ok $? "the captured boot parses"
# rows COLUMN... [--where COLUMN=VALUE]...: columns of --dir's rows, through scripts/csv.
cols() { csv_rows rep,mode,ipc,groups,fds,loops,datasize,time,notify_resume,cpu_id_updates,vtime_ns,idle_ticks "$@" <<< "$rows" | tr '\t' ,; }
is "$(printf '%s\n' "$rows" | wc -l)" 4 "four runs: process/thread x pipe/socket"
is "$(cols rep mode ipc | tr '\n' ' ')" \
	"1,process,pipe 1,process,socket 1,thread,pipe 1,thread,socket " "in the order the guest ran them"
want=$(sed -n 's/^Time: //p' "$fx/hb-thread-socket-1.out")
is "$(cols time --where mode=thread --where ipc=socket)" "$want" \
	"thread/socket Time: taken from its file ($want)"
is "$(cols groups fds loops datasize | head -n 1)" "4,40,100,100" \
	"groups, fds, loops and message size from hackbench's header"

one=$("$p" "$fx/hb-process-pipe-1.out"); ok $? "a single file parses"
like "$one" '^process,4,40,100,100,[0-9.]+$' "single-file row: mode,groups,fds,loops,size,time"

# Broken outputs: each must fail with one line naming the file.
grep -v '^Time:' "$fx/hb-process-pipe-1.out" > "$t/notime.out"
head -n 1 "$fx/hb-process-pipe-1.out" > "$t/cut.out"
sed 's/^Time: .*/Time: soon/' "$fx/hb-process-pipe-1.out" > "$t/bad.out"
grep '^Time:' "$fx/hb-process-pipe-1.out" > "$t/nohead.out"
: > "$t/empty.out"
for f in notime cut bad nohead empty; do
	err=$("$p" "$t/$f.out" 2>&1 >/dev/null); rc=$?
	ok $([ $rc -ne 0 ]; echo $?) "$f: a failure, not a figure (exit $rc)"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$f: one-line error ($err)"
done
like "$("$p" "$t/notime.out" 2>&1)" 'no Time: line' "no Time: says so"

# A run directory with a failed run (non-zero status) or a run without Time: is refused.
cp "$fx"/hb-* "$t/"; echo 1 > "$t/hb-thread-pipe-1.rc"
err=$("$p" --dir "$t" 2>&1 >/dev/null); rc=$?
ok $([ $rc -ne 0 ]; echo $?) "a run that exited 1 fails the directory"
like "$err" 'exited with status 1' "and says which run"
cp "$fx"/hb-* "$t/"; cp "$t/notime.out" "$t/hb-process-socket-1.out"
"$p" --dir "$t" >/dev/null 2>&1; ok $([ $? -ne 0 ]; echo $?) "a run without Time: fails the directory"
mkdir -p "$t/none"
"$p" --dir "$t/none" >/dev/null 2>&1; ok $([ $? -ne 0 ]; echo $?) "an empty directory is a failure"

# The guest clock (.vt, ns) and idle ticks (.idle) of a run become its last two columns;
# runs without them leave the columns empty; a malformed one fails the directory.
rows=$("$p" --dir "$fx")
is "$(cols vtime_ns idle_ticks --where mode=process --where ipc=pipe)" \
	"$(sed -n 's/^vtime_ns: //p' "$fx/hb-process-pipe-1.vt"),$(cat "$fx/hb-process-pipe-1.idle")" \
	"vtime_ns and idle_ticks from hb-process-pipe-1.vt/.idle"
is "$(cols vtime_ns idle_ticks --where mode=thread --where ipc=socket)" "," \
	"a run without them: both empty"
cp "$fx"/hb-* "$t/"; echo "vtime_ns: soon" > "$t/hb-process-pipe-1.vt"
err=$("$p" --dir "$t" 2>&1 >/dev/null); ok $([ $? -ne 0 ]; echo $?) "a malformed .vt fails the directory"
like "$err" 'hb-process-pipe-1.vt: no vtime_ns' "  naming the file"
cp "$fx"/hb-* "$t/"; echo "-1" > "$t/hb-thread-pipe-1.idle"
"$p" --dir "$t" >/dev/null 2>&1; ok $([ $? -ne 0 ]; echo $?) "a malformed .idle fails the directory"
done_testing
