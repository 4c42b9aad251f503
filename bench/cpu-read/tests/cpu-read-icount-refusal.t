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
# B - A from the docstring: B a variant whose getcpu costs 14 more, which lacks rseq-own
# (A's alone) and times the lazy one only (no counted figure), and has a method of its own.
python3 - "$ic" "$t/b.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = []
for r in rows:
    r["variant"] = "rseq-b"
    if r["method"] == "rseq-own":
        continue
    if r["method"] == "syscall":
        r["instructions_per_op"] = "%.4f" % (float(r["instructions_per_op"]) + 14)
    if r["method"] == "rseq-lazy":
        r["instructions_per_op"], r["ns_per_op"] = "", "7.0"
    out.append(r)
extra = dict(rows[-1], variant="rseq-b", method="b-only", label="B's own method", instructions_per_op="9.0000")
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader(); w.writerows(out + [extra])
PY
out=$("$LAB/bench/cpu-read/icount-table" "$ic" "$t/b.csv" 2>&1)
like "$out" "getcpu system call +186 +200 +\+14$" "B - A: B's 14 more instructions are +14"
like "$out" "Read CPU from rseq cpu_id +4 +- *$" "a method only A has: '-' in B's column, no difference"
like "$out" "B's own method +- +9 *$" "a method only B has: listed, '-' in A's column"
like "$out" "\(lazy register\) +6 +ok *$" "a row B timed but did not count: no count, no difference"
like "$out" "rseq-y +rseq-b +diff$" "the columns A, B, diff"
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
