#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# icount figures (instructions) are never compared with ns figures: icount-table refuses a CSV
# that is not from an icount run, and the A/B code (lab-ab) refuses samples from different
# accelerators, each with a one-line reason. Fixtures: a real icount CSV (rseq-y guest) and a
# real host CSV (ns).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/bench/cpu-read/tests/fixtures
ic=$fx/cpu-read-icount.csv ns=$fx/cpu-read-ns.csv

out=$("$LAB/bench/cpu-read/icount-table" "$ic" "$ic" 2>&1); rc=$?
is "$rc" 0 "icount-table compares two icount CSVs"
like "$out" "getcpu system call +186 +186 +\+0$" "with instructions/op (whole counts) and the difference"
like "$out" "Instructions per operation" "and says the figures are instructions"
if printf '%s\n' "$out" | grep -qi 'ns/op\|nanosec'; then r=1; else r=0; fi
ok $r "and never calls them ns"
for pair in "$ic $ns" "$ns $ic"; do
	# shellcheck disable=SC2086 # two file names
	out=$("$LAB/bench/cpu-read/icount-table" $pair 2>&1); rc=$?
	is "$rc" 2 "icount-table refuses icount vs ns ($(basename ${pair% *}) first)"
	is "$(printf '%s\n' "$out" | wc -l)" 1 "with one line"
	like "$out" "refusing to compare: figures from accel 'none' are not icount" "that says why"
done
out=$("$LAB/bench/cpu-read/icount-table" "$ic" "$t/missing.csv" 2>&1)
like "$out" "^icount-table: cannot read" "a missing file is a one-line error"

ab=$BUILD/host/bin/lab-ab
if [ ! -x "$ab" ]; then
	skip "no lab-ab (make lib-tests)" "lab-ab refuses mixed accelerators"
	done_testing; exit
fi
# The same rows as the A/B code's samples: syscall instructions/op vs ns/op, three each.
printf '# accel: icount\n186\n186\n186\n' > "$t/icount.txt"
printf '# accel: none\n150.56\n148.20\n151.02\n' > "$t/ns.txt"
out=$("$ab" "$t/icount.txt" "$t/ns.txt" 2>&1); rc=$?
is "$rc" 2 "lab-ab refuses icount instructions vs ns (exit 2)"
is "$(printf '%s\n' "$out" | wc -l)" 1 "with one line"
like "$out" "different accelerators" "that says why"
printf '# accel: icount\n43\n43\n43\n' > "$t/icount-n.txt"
"$ab" "$t/icount.txt" "$t/icount-n.txt" > "$t/ok" 2>&1
ok $? "lab-ab compares two icount samples"
done_testing
