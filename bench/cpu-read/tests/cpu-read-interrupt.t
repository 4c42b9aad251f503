#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run interrupted with SIGINT (as a terminal sends it, to the whole process group) leaves no
# results file and no run directory behind, neither from lab-cpuread nor from bench-host.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built"; exit 1; }

# interrupt AFTER CMD...: start CMD in its own process group, SIGINT the group after AFTER s
# (as a terminal's Ctrl-C does), then check that nothing of the group is left: the worker
# processes (argv "lab-worker --worker") stay in it, so pgrep -g sees any that survive.
interrupt() {
	local after=$1 pid rc; shift
	setsid "${SIGINT_DEFAULT[@]}" "$@" >"$t/log" 2>&1 &
	pid=$!
	sleep "$after"
	kill -0 "$pid" 2>/dev/null; ok $? "still running after $after s (mid-run)"
	is "$(pgrep -g "$pid" -f '^lab-worker --worker' | wc -l | awk '{print ($1 > 0)}')" 1 \
		"a worker process is running then (the pattern below can match)"
	kill -INT -- "-$pid"
	wait "$pid"; rc=$?
	ok $((rc == 0)) "interrupted run exits non-zero ($rc)"
	sleep 0.5
	left=$(alive "$pid")
	is "$(printf '%s' "$left" | grep -c .)" 0 "no process of the run left, no worker ($left)"
}
# alive PGID: the processes of that group still running (zombies are dead, awaiting a reaper).
alive() { ps -e -o pgid=,stat=,pid=,args= | awk -v g="$1" '$1 == g && $2 !~ /^Z/' | tr '\n' ' '; }

mkdir -p "$t/out"
interrupt 2 "$bin" --out "$t/out" --duration 500 --reps 5
is "$(ls -A "$t/out")" "" "lab-cpuread: no results file, not even a temporary one"

interrupt 3 env DATA="$t/data" "$LAB/scripts/bench-host" --duration 500 --reps 5
is "$(ls -A "$t/data" 2>/dev/null)" "" "bench-host: data/ has no run directory, complete or not"
done_testing
