#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fleet path against a real LAVA server on this machine (lava/local-server: Debian's
# lava-server, PostgreSQL, scheduler and worker on loopback; packages through
# `scripts/install-deps lava`). Three generated jobs on three qemu devices: one completes and
# its merged rows equal a local icount run of the same image; one panics (Incomplete, a FAILED
# cell, the other still merges); one is cancelled while it runs. Then the failures that need no
# boot: an unreachable server, a wrong token, jobs the scheduler cannot place; fetch
# interrupted with Ctrl-C and rerun, merged twice: no duplicate. The stop leaves no process
# and no port. The token appears in no output and no log.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
. "$LAB/scripts/lib.sh"
v=rseq-y
require_image "$v" "$BUILD/initramfs/lab.cpio"
python3 -c 'import yaml' 2>/dev/null || { ok 1 "python3-yaml is installed"; done_testing; exit; }
t0=$SECONDS
"$LAB/scripts/install-deps" lava >/dev/null; r=$?
ok $r "install-deps lava: lava-server, PostgreSQL, lava-dispatcher and lavacli are installed"
[ $r -eq 0 ] || { done_testing; exit; }
diag "install-deps lava: $((SECONDS - t0)) s"
# A short path: PostgreSQL's socket lives in it. The postgres user must reach it.
tmp=$(mktemp -d /tmp/lava-srv.XXXXXX); chmod 755 "$tmp"
export LAVA_LOCAL=$tmp/srv LAVA_LOCAL_DEVICES=3 DATA=$tmp/data LAVA_POLL=3
srv=$LAB/lava/local-server
trap '"$srv" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
[ -z "${KEEP:-}" ] || trap '"$srv" stop >/dev/null 2>&1' EXIT

t0=$SECONDS
out=$("$srv" start 2>&1); r=$?
ok $r "lava-local starts the server, scheduler and worker"
[ $r -eq 0 ] || { printf '%s\n' "$out" | sed 's/^/#   /'; done_testing; exit; }
diag "server start: $((SECONDS - t0)) s"
url=$(kv "$LAVA_LOCAL/server.env" LAVA_URL) port=$(cat "$LAVA_LOCAL/port")
like "$url" '^http://127\.0\.0\.1:[0-9]+$' "bound to loopback ($url)"
ok $(ss -ltnH "sport = :$port" | grep -qv '127\.0\.0\.1:'; [ $? -ne 0 ]; echo $?) "the web port listens on 127.0.0.1 only"
ok $(ss -lxH | grep -q "$LAVA_LOCAL/pg/"; echo $?) "PostgreSQL listens on a socket in LAVA_LOCAL (no TCP port)"
token=$(cat "$LAVA_LOCAL/token")
is "$(stat -c %a "$LAVA_LOCAL/token")" 600 "the token file is private"

# Three jobs: r1 as generated, r2 a guest that panics (no init: rdinit names nothing), r3 to cancel
# (a guest that only sleeps).
LAVA_OUT=$tmp/lava LAVA_VARIANTS=$v LAVA_BENCH=cpu-read LAVA_REPS=3 LAVA_ACCEL=icount \
	LAVA_DEVICE_TYPE=qemu LAVA_ARTIFACTS_URL= "$LAB/lava/make-jobs" >/dev/null 2>&1
ok $? "make-jobs writes three jobs"
jobs=$tmp/lava/jobs
sed -i "s|loglevel=5'|loglevel=5 rdinit=/no-such-init'|" "$jobs/$v-cpu-read-icount-r2.yaml"
# r3's guest sleeps instead of running the bench (the words the kernel does not know go to
# init), so that it is still running however late the cancel comes: a loaded machine once
# saw it finish first.
sed -i "s|loglevel=5'|loglevel=5 rdinit=/bin/busybox sleep 900'|" "$jobs/$v-cpu-read-icount-r3.yaml"
t0=$SECONDS
out=$("$LAB/lava/local-env" "$LAB/lava/submit" "$jobs" 2>&1); r=$?
ok $r "submit: the server accepts the three jobs"
sub=$tmp/lava/submitted.tsv
is "$(tail -n +2 "$sub" | wc -l)" 3 "their ids are in submitted.tsv"
id1=$(sed -n 2p "$sub" | cut -f2) id2=$(sed -n 3p "$sub" | cut -f2) id3=$(sed -n 4p "$sub" | cut -f2)

# lavacli as the lab calls it (the token in the environment, not on a line of this test).
cli() { LAVA_URL=$url LAVA_USER=lab LAVA_TOKEN=$token bash -c '. "$0/scripts/lib.sh"; . "$0/lava/lavacli-args"; "${LAVACLI[@]}" "$@"' "$LAB" "$@"; }
state() { cli jobs show "$1" --yaml 2>/dev/null | sed -n 's/^state: //p'; }
for _ in $(seq 1 60); do [ "$(state "$id3")" = Running ] && break; sleep 2; done
is "$(state "$id3")" Running "the scheduler assigns job $id3 to a device and the worker runs it"
sleep 3
cli jobs cancel "$id3" >/dev/null 2>&1
ok $? "job $id3 cancelled while it runs"

# fetch, interrupted with Ctrl-C while it waits, then rerun to the end.
setsid "${SIGINT_DEFAULT[@]}" "$LAB/lava/local-env" "$LAB/lava/fetch" "$sub" > "$tmp/fetch1.out" 2>&1 &
fp=$!
sleep 4
kill -INT -- "-$fp" 2>/dev/null; wait $fp; r=$?
ok $([ $r -ne 0 ]; echo $?) "fetch interrupted with Ctrl-C stops (status $r)"
ok $(ls -A "$tmp/lava/results" 2>/dev/null | grep -q '^\.job'; [ $? -ne 0 ]; echo $?) "and leaves no half-stored job"
LAVA_WAIT=600 "$LAB/lava/local-env" "$LAB/lava/fetch" "$sub" > "$tmp/fetch2.out" 2>&1
ok $? "fetch rerun waits for the three jobs and stores them"
diag "submit to all fetched: $((SECONDS - t0)) s"
res=$tmp/lava/results
is "$(kv "$res/$id1/info.txt" health)" Complete "job $id1: Complete"
is "$(kv "$res/$id2/info.txt" health)" Incomplete "job $id2 (the guest panics): Incomplete"
is "$(kv "$res/$id3/info.txt" health)" Canceled "job $id3: Canceled"
like "$(kv "$res/$id1/info.txt" device)" '^qemu-0[123]$' "on one of the worker's devices"

out=$("$LAB/lava/merge" --submitted "$sub" "$res"/*/ 2>&1); r=$?
is "$r" 1 "the merge exits 1: not every cell merged"
like "$out" "lava job $id1 .*merged into $DATA/" "the complete job is merged"
like "$out" "FAILED: lava job $id2 .*health Incomplete" "the panicking job is a FAILED line"
like "$out" "FAILED: lava job $id3 .*health Canceled" "the cancelled one too"
fleet=$(cat "$DATA"/*-lava-fleet/fleet.tsv 2>/dev/null)
like "$fleet" "FAILED: Incomplete" "the fleet table marks the failed cell"
runs() { ls -d "$DATA"/*-lava-qemu-* 2>/dev/null | wc -l; }
is "$(runs)" 1 "one run in data/"
"$LAB/lava/merge" --submitted "$sub" "$res"/*/ >/dev/null 2>&1
is "$(runs)" 1 "merged again: still one (no duplicate)"

# The merged rows against the local harness's run of the same boot (icount: exact).
run=$(ls -d "$DATA"/*-lava-qemu-* | head -n 1)
OUTDIR=$tmp/ref QUIET=1 ACCEL=icount "$LAB/scripts/boot" "$v" -- lab-cpuread --out /out >/dev/null 2>&1
ok $? "the local harness runs the same boot under icount"
rows() { "$LAB/scripts/csv" "$1" method status iters instructions_per_op ratio_to_empty ops_total 2>/dev/null; }
n=$(rows "$tmp/ref/cpu-read.csv" | grep -c .)
ok $(( n >= 5 ? 0 : 1 )) "the local run has rows ($n)"
is "$(rows "$run/cpu-read.csv")" "$(rows "$tmp/ref/cpu-read.csv")" \
	"the server's job rows equal the local run's (method, status, iterations, instructions/op, ratio, ops)"
diag "$(rows "$run/cpu-read.csv" | cut -f1,4 | tr '\t\n' '= ')"
like "$(cat "$run/cpu-read.meta")" "^lava_url: $url$" "the run names the server"

# Failures with no boot: each one line, submitted.tsv kept.
cp "$sub" "$tmp/sub.keep"
e=$(LAVA_URL=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') \
	LAVA_USER=lab LAVA_TOKEN=$token "$LAB/lava/submit" "$jobs" 2>&1); r=$?
ok $([ $r -ne 0 ]; echo $?) "an unreachable server: submit fails"
like "$(printf '%s\n' "$e" | head -n 1)" "^FAILED: .*: not submitted: Unable to connect" "one line per job: cannot connect"
cmp -s "$sub" "$tmp/sub.keep"; ok $? "and the ids of the earlier submission are kept"
e=$(LAVA_URL=$url LAVA_USER=lab LAVA_TOKEN=wrong-$RANDOM "$LAB/lava/submit" "$jobs" 2>&1); r=$?
ok $([ $r -ne 0 ]; echo $?) "a wrong token: submit fails"
like "$(printf '%s\n' "$e" | head -n 1)" "^FAILED: .*401 Client Error: Unauthorized" "one line per job: 401"
ok $(printf '%s' "$e" | grep -q 'wrong-'; [ $? -ne 0 ]; echo $?) "and the wrong token is not printed"
mkdir -p "$tmp/bad/jobs"
printf 'job\tvariant\tbench\taccel\trep\tdevice_type\n' > "$tmp/bad/jobs/manifest.tsv"
sed 's/^device_type: qemu/device_type: no-such-type/' "$jobs/$v-cpu-read-icount-r1.yaml" > "$tmp/bad/jobs/type.yaml"
sed 's/^device_type: qemu/device_type: qemu\ntags: [no-such-tag]/' "$jobs/$v-cpu-read-icount-r1.yaml" > "$tmp/bad/jobs/tag.yaml"
printf 'type.yaml\t%s\tcpu-read\ticount\t1\tno-such-type\ntag.yaml\t%s\tcpu-read\ticount\t1\tqemu\n' "$v" "$v" >> "$tmp/bad/jobs/manifest.tsv"
e=$("$LAB/lava/local-env" "$LAB/lava/submit" "$tmp/bad/jobs" 2>&1); r=$?
ok $([ $r -ne 0 ]; echo $?) "jobs the scheduler cannot place: refused"
like "$e" "^FAILED: type.yaml: not submitted: .*Device type 'no-such-type' is unavailable" "a device type nobody has: one line"
like "$e" "FAILED: tag.yaml: not submitted: .*Device tag 'no-such-tag' does not exist" "a tag nobody has: one line"

# The token never reached an output or a log.
ok $(cat "$tmp"/*.out "$LAVA_LOCAL"/log/* "$tmp/lava/submitted.tsv" 2>/dev/null | grep -qF "$token"; [ $? -ne 0 ]; echo $?) \
	"the token is in no log, output or submitted.tsv"

t0=$SECONDS
out=$("$srv" stop 2>&1); r=$?
ok $r "lava-local-stop stops it"
diag "stop: $((SECONDS - t0)) s"
left=$(pgrep -f "$LAVA_LOCAL" | tr '\n' ' ')
is "$left" "" "no process of the instance is left"
ok $(ss -ltnH "sport = :$port" | grep -q .; [ $? -ne 0 ]; echo $?) "the port is free"
done_testing
