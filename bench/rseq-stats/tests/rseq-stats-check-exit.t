#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rseq-stats-check's exit checks, on the host against a fixed stats file (STATS_FILE at build
# time): a file whose exit never moves (arm64 before its own exit path counted it) fails
# "exit counts every return to user mode"; one that says "exit: n/a" (arm, where nothing
# counts it) skips that check and is not taken for a missing counter. The file never moves,
# so the other checks fail here: only the exit lines are asserted. The program writes to its
# file (the no-reset check), so it gets copies.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/bench/rseq-stats/tests/fixtures
cc=${CC:-gcc}
for f in backport-6.1 backport-arm-na; do
	cp "$fx/$f.txt" "$t/$f.txt"
	$cc -O2 -Wall -Wextra -I"$LAB/lib/include" -DSTATS_FILE="\"$t/$f.txt\"" \
		-o "$t/$f" "$LAB/bench/rseq-stats/rseq-stats-check.c" -lpthread 2> "$t/cc.err"
	ok $? "rseq-stats-check builds against $f.txt" || sed 's/^/#   /' "$t/cc.err"
done
# Without rseq on the host the program skips before reading the file: nothing to check.
if ! "$t/backport-6.1" 2>/dev/null | grep -q "exit counts every return"; then
	skip "rseq-stats-check did not get to its checks on this host (no rseq?)" "the exit checks"
	done_testing; exit
fi
out=$("$t/backport-6.1" 2>&1)
like "$out" "^not ok [0-9]+ - exit counts every return to user mode \\(0 >= [0-9]+\\)" \
	"an exit that stays 0 fails the check"
out=$("$t/backport-arm-na" 2>&1)
like "$out" "^ok [0-9]+ - exit counts every return to user mode # SKIP exit: n/a" \
	"exit: n/a skips it"
grep -q "missing counter exit" <<< "$out"; ok $([ $? -ne 0 ]; echo $?) "and is not a missing counter"
like "$out" "^ok [0-9]+ - exit >= signal # SKIP" "nor divided into the signal check"
done_testing
