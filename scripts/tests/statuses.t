#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Exit statuses as a table: every compare class of scripts/statuses is made to happen (kernels
# faked through compare's LAB_COMPARE_FAKE seam, fixtures/compare/fake-kernel, as in
# compare-bisect.t; the statistics and verdicts are the real ones) and its status must be the
# table's. A class in the table that this test cannot make happen fails it, and so does a
# status the code takes by a name the table lacks.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-compare.sh"
base=$(commit 186 ok ok) same=$(commit 186 ok ok) slower=$(commit 250 ok ok)
nobuild=$(commit 186 ok fail) crash=$(commit 186 crash ok) infra=$(commit 186 infra ok)
g checkout -q -b b0 "$base"; nobase=$(commit 186 ok fail)

# cmp BASE TEST [ENV...]: scripts/compare's status
cmp() { local b=$1 c=$2; shift 2; env KSRC="$repo" BASE="$b" TEST="$c" "$@" "$LAB/scripts/compare" > "$t/$c.$*.out" 2>&1; echo $?; }
# The classes, each made to happen.
declare -A got=(
	[compare:good]=$(cmp "$base" "$same" FAIL_ABOVE=cpu-read.syscall:5)
	[compare:fail-above-first]=$(cmp "$base" "$slower" FAIL_ABOVE=cpu-read.syscall:5,cpu-read.empty:5)
	[compare:fail-above-last]=$(cmp "$base" "$slower" FAIL_ABOVE=cpu-read.empty:5,cpu-read.syscall:5)
	[compare:crash-counted]=$(cmp "$base" "$crash" FAIL_ON_CRASH=1)
	[compare:test-unbuildable]=$(cmp "$base" "$nobuild")
	[compare:bad-knob]=$(cmp "$base" "$same" ROUNDS=2x)
	[compare:base-unbuildable]=$(cmp "$nobase" "$same")
	[compare:boot-failed]=$(cmp "$base" "$infra" FAIL_ON_CRASH=1)
	[compare:crash-uncounted]=$(cmp "$base" "$crash")
	[compare:unknown-figure]=$(cmp "$base" "$same" FAIL_ABOVE=cpu-read.nothing:5)
)
while read -r class status name _; do
	case $class in '#'*|'') continue ;; compare:*) ;; *) continue ;; esac
	if [ -z "${got[$class]:-}" ]; then
		ok 1 "$class ($name, $status): the test makes it happen"
		continue
	fi
	is "${got[$class]}" "$status" "$class: exit $status ($name)"
	unset "got[$class]"
done < "$LAB/scripts/statuses"
is "${!got[*]}" "" "every class the test makes happen is in the table"
[ "$_failed" -eq 0 ] || for f in "$t"/*.out; do echo "# $f"; tail -n 3 "$f" | sed "s/^/#   /"; done
# Every name the code asks for is a row's.
names=$(grep -ohE 'lab_status [a-z-]+|status\("[a-z-]+"\)' "$LAB"/scripts/compare "$LAB"/scripts/compare-verdict \
	"$LAB"/bench/percpu/strategy* | sed -E 's/lab_status //; s/status\("([a-z-]+)"\)/\1/' | sort -u)
for n in $names; do
	grep -qE "^[a-z:-]+[[:space:]]+[0-9]+[[:space:]]+$n[[:space:]]" "$LAB/scripts/statuses"
	ok $? "the code's status '$n' is in the table"
done
is "$(bash -c '. "$1/scripts/lib.sh"; lab_status no-such 2>/dev/null' _ "$LAB")" 128 "an unknown name is no verdict"
done_testing
