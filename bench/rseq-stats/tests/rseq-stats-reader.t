#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lib/kstats.c, the lab's reader of /sys/kernel/debug/rseq/stats, against fixtures in upstream's
# format (Linux 6.19 and its variants) and in our old format (which must fail loudly, on stderr).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cc=${CC:-gcc}
$cc -O2 -Wall -Wextra -Werror -I"$LAB/lib/include" -o "$t/kstats-test" \
	"$LAB/bench/rseq-stats/kstats-test.c" "$LAB/lib/kstats.c" 2> "$t/cc.err"
ok $? "the reader test builds" || sed 's/^/#   /' "$t/cc.err"
out=$("$t/kstats-test" "$LAB/bench/rseq-stats/tests/fixtures" 2> "$t/err"); r=$?
printf '%s\n' "$out" | sed 's/^/#   | /'
ok $r "kstats-test passes against the fixtures"
like "$(cat "$t/err")" "pre-upstream-lab.txt: none of the expected counters" \
	"the old format is named on stderr"
is "$(grep -c . "$t/err")" 1 "in one line"
done_testing
