#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's signs and values, not its format: on a run whose every process measured
# NAME-rseq-off a known amount slower than NAME-rseq-on, the real libraries' section says
# off - on is that amount, positive, its interval around it; reversed, negative.
. "$(dirname "$0")/tap.sh"
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# run DIR SHIFT: six processes, each with on ~ 100 ns and off = on + SHIFT (+- 0.1 ns)
run() {
	for u in 1 2 3 4 5 6; do
		mkdir -p "$1/procs/0$u"
		python3 - "$1/procs/0$u/x.csv" "$2" "$u" <<'PY'
import sys
path, shift, u = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
on = 100 + u * 0.7
off = on + shift + (0.1 if u % 2 else -0.1)
with open(path, "w") as f:
    f.write("variant,accel,method,status,threads,ns_per_op\n")
    f.write("host,none,foo-rseq-on,ok,1,%.3f\nhost,none,foo-rseq-off,ok,1,%.3f\n" % (on, off))
PY
	done
}
run "$t/slower" 5
run "$t/faster" -3
out=$(PYTHONPATH=$LAB/scripts python3 - "$t" "$ab" <<'PY'
import sys, labdata
from labreport import rseq_sides, stats
stats.lab_ab_path = lambda: sys.argv[2]
for name in ("slower", "faster"):
    run = labdata.Run(sys.argv[1] + "/" + name)
    p = stats.paired_methods(sys.argv[2], run, "x.csv", "foo-rseq-off", "foo-rseq-on")
    print(name, "diff", "%.2f" % float(p["diff"]), "lo", "%.2f" % float(p["diff_lo"]),
          "hi", "%.2f" % float(p["diff_hi"]))
    print(name, "line", rseq_sides.change(run, "x.csv", "foo", "ns", "processes")[0].strip())
PY
)
like "$out" "^slower diff 5\.00 lo 4\.[89][0-9] hi 5\.[01][0-9]$" "off slower by 5 ns: off - on is +5.00, its interval around it"
like "$out" "^slower line off - on: \+5\.00 ns \[\+4\.[89][0-9], \+5\.[01][0-9]\]$" "... and the report's line says +5.00 ns"
like "$out" "^faster diff -3\.00 lo -3\.[01][0-9] hi -2\.[89][0-9]$" "off faster by 3 ns: -3.00"
like "$out" "^faster line off - on: -3\.00 ns \[-3\.[01][0-9], -2\.[89][0-9]\]$" "... and the report's line says -3.00 ns"
done_testing
