#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# interleave (scripts/bench-lib.sh), the one order benches run their units in: round by round,
# every column in turn; at most JOBS calls at once (one: never two overlapping, as host
# timings need); every call's status kept for interleave_ok, a failure not stopping the rest
# unless asked (stop: a bench's boots and processes).
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# shellcheck source=../bench-lib.sh
. "$LAB/scripts/bench-lib.sh"
RUN_TMP=$t/run
mkdir -p "$RUN_TMP"
# unit R I: log its start and end around a short sleep; column 2 of round 2 fails.
unit() {
	echo "start $1.$2" >> "$t/log"
	sleep 0.2
	echo "end $1.$2" >> "$t/log"
	[ "$1.$2" != 2.2 ]
}
interleave 3 1 2 unit
is "$(tr '\n' ' ' < "$RUN_TMP/order")" "1 1 1 2 2 1 2 2 3 1 3 2 " "round by round, the columns in turn"
is "$(awk '{ print $1 }' "$t/log" | paste -sd' ' | sed 's/start end/x/g')" "x x x x x x" \
	"one at a time: every call ends before the next starts"
ok $(interleave_ok 1 1 && interleave_ok 3 2; echo $?) "the calls that succeeded say so"
ok $(! interleave_ok 2 2; echo $?) "the one that failed says so, and the rest still ran"
is "$(interleave_failed)" "2 2" "interleave_failed names it"
# With "stop" (a bench's boots or processes): nothing starts after a failure.
: > "$t/log"
interleave 3 1 2 unit stop
is "$(tr '\n' ' ' < "$RUN_TMP/order")" "1 1 1 2 2 1 2 2 " "with stop, no call starts after the failed one"
is "$(interleave_failed)" "2 2" "and interleave_failed names it"
interleave 1 1 1 true stop
ok $(! interleave_failed > /dev/null; echo $?) "none failed: interleave_failed says nothing (status 1)"
# paired R I: wait (up to 5 s) for the round's other column to start too: "together" when it
# does (two at once), "alone" when it does not come.
paired() {
	local other=$((3 - $2)) i
	touch "$t/started.$1.$2"
	for i in $(seq 50); do
		[ -e "$t/started.$1.$other" ] && { echo together >> "$t/pairs"; return 0; }
		sleep 0.1
	done
	echo alone >> "$t/pairs"
}
interleave 1 2 2 paired
is "$(sort "$t/pairs" | tr '\n' ' ')" "together together " "two at once with JOBS=2"
# Calls that end together (two boots of equal length): a status read while it is written is
# no failure, so with stop every call still starts. A status file written in place made about
# 1 run in 15 of these start fewer calls than asked, and the bench went on with what it had.
together() { sleep 0.04; }
short=0
for k in $(seq 1 25); do
	rm -rf "$RUN_TMP/.interleave"
	interleave 16 2 1 together stop
	[ "$(wc -l < "$RUN_TMP/order")" = 16 ] || short=$((short + 1))
done
is "$short" 0 "calls ending together, two at once, with stop: all 16 start, in 25 runs of 16"
done_testing
