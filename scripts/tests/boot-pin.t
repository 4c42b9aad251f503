#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# PIN= pins QEMU (every thread: the vCPUs and the rest) to the given host CPUs, and
# lab-boot.info records it; the affinity read from the running QEMU's threads must match the
# recorded value. A bad PIN is one line.
. "$(dirname "$0")/tap.sh"
v=$(for v in $TEST_VARIANTS; do have_image "$v" && echo "$v" && break; done)
require_image "${v:-${TEST_VARIANTS%% *}}"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
last=$(( $(nproc) - 1 ))
pin=$last   # one host CPU: the last one (on a 1-CPU host, CPU 0)
PIN=$pin OUTDIR=$t/o "$LAB/scripts/boot" "$v" -- sleep 6 >/dev/null 2>"$t/err" &
pid=$!
q=''
for i in $(seq 1 120); do
	sleep 0.5
	tp=$(ps -e -o pid=,ppid=,comm= | awk -v p="$pid" '$2 == p && $3 == "timeout" { print $1 }')
	[ -n "$tp" ] && q=$(ps -e -o pid=,ppid=,comm= | awk -v p="$tp" '$2 == p { print $1 }')
	[ -n "$q" ] && [ "$(ls "/proc/$q/task" 2>/dev/null | wc -l)" -gt 2 ] && break
done
ok $([ -n "$q" ]; echo $?) "QEMU is running (pid ${q:-none})"
sleep 1
# Every thread's allowed CPU list, as the kernel reports it.
lists=$(for task in /proc/"$q"/task/*; do sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$task/status" 2>/dev/null; done | sort -u)
nthreads=$(ls "/proc/$q/task" 2>/dev/null | wc -l)
wait "$pid"; rc=$?
ok $rc "the pinned boot works"
rec=$(sed -n 's/^pin: //p' "$t/o/lab-boot.info")
is "$rec" "$pin" "lab-boot.info records pin: $pin"
is "$lists" "$rec" "all $nthreads QEMU threads may run on exactly the recorded CPUs"
like "$(cat "$t/err")" "pinned to host CPU $pin" "the summary line says so"
PIN= OUTDIR=$t/u "$LAB/scripts/boot" "$v" -- true >/dev/null 2>&1
is "$(sed -n 's/^pin: //p' "$t/u/lab-boot.info")" none "unpinned: pin: none"
err=$(PIN=abc "$LAB/scripts/boot" "$v" -- true 2>&1); rc=$?
is "$rc/$(printf '%s\n' "$err" | wc -l)" "1/1" "PIN=abc: fails in one line"
like "$err" "^error: PIN must be a CPU list" "saying what PIN takes"
err=$(PIN=4096 "$LAB/scripts/boot" "$v" -- true 2>&1); rc=$?
like "$rc: $err" "^1: error: PIN=4096: no such host CPU" "a CPU the host does not have: one line"
done_testing
