#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lib/results.c's table as a reader meets it: the label column is as wide as the longest
# "- label:" (46 at least), so no label is cut and every row's figure ends in the same column.
. "$(dirname "$0")/../../scripts/tests/bench-tap.sh"
need_bin lab-cpuread
out=$(bounded 60 "$bin" --reps 1 --duration 2 2>/dev/null)
ok $? "lab-cpuread prints its table"
rows=$(grep '^- .*: .* ns ' <<< "$out")
ok $([ "$(grep -c . <<< "$rows")" -ge 10 ]; echo $?) "a row per method ($(grep -c . <<< "$rows"))"
# the column each row's " ns " starts at, and the longest label's width
cols=$(awk '{ print index($0, " ns ") }' <<< "$rows" | sort -u | tr '\n' ' ')
is "$(wc -w <<< "$cols")" 1 "every row's figure ends in one column ($cols)"
longest=$(sed 's/^\(- [^:]*:\).*/\1/' <<< "$rows" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
head=$(grep '^method ' <<< "$out" | head -n 1)
fig=$(awk '{ print index($0, "ns/op") }' <<< "$head")
ok $([ "${cols% }" -gt "$longest" ] && [ "$fig" -gt 46 ]; echo $?) \
	"the label column holds the longest label ($longest) and is 46 wide at least"
done_testing
