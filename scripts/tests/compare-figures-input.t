#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/compare-figures' bad input, from its docstring: each is one error line on stderr and
# exit 1, and a BOOTS_DIR with no runs gives the header alone (no figure made up).
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cf=$LAB/scripts/compare-figures
for args in "" "--benches" "--glibc-sides" "$t/absent" "$t $t" "--benches cpu-read"; do
	# shellcheck disable=SC2086 # the arguments as words
	"$cf" $args > "$t/out" 2> "$t/err"; rc=$?
	is "$rc:$(grep -c . "$t/err")" "1:1" "compare-figures ${args:-(no argument)}: one error line, status 1"
done
like "$(cat "$t/err")" "usage: compare-figures" "--benches with its list but no folder: the usage line"
mkdir -p "$t/empty"
"$cf" "$t/empty" > "$t/out" 2> "$t/err"; rc=$?
is "$rc:$(wc -l < "$t/out"):$(grep -c . "$t/err")" "0:1:0" "a folder of no runs: the header, nothing else"
"$cf" --benches cpu-read "$t/empty" > "$t/out" 2> "$t/err"; rc=$?
is "$rc:$(grep -c . "$t/err")" "1:1" "--benches cpu-read over no runs: a named bench that gave no figure is an error"
like "$(cat "$t/err")" "cpu-read" "  naming it"
done_testing
