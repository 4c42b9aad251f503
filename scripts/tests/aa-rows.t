#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/aa-rows, one A/A repeat's comparisons, held to its header: a figure is flagged when
# its raw p is under 0.05, not its Holm-adjusted p (aa-summary counts repeats after Holm apart);
# the base's rows are not comparisons; no comparison at all is one error line.
. "$(dirname "$0")/tap.sh"
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# five figures over 8 processes paired by round; f1's differences lean one way (raw p ~0.01,
# Holm's over five ~0.06), the others' scatter around zero
python3 - > "$t/aa.csv" <<'PY'
d = {"f1": [1.0, 0.2, 1.5, -0.3, 0.9, 1.1, 0.4, 0.6],
     "f2": [0.3, -0.5, 0.2, -0.1, 0.4, -0.6, 0.1, 0.0],
     "f3": [-0.2, 0.1, 0.3, -0.4, 0.2, 0.0, -0.1, 0.1],
     "f4": [0.5, -0.3, -0.2, 0.1, -0.4, 0.3, 0.2, -0.1],
     "f5": [0.0, 0.2, -0.2, 0.3, -0.3, 0.1, -0.1, 0.05]}
print("figure,side,process,round,value")
for f, diffs in d.items():
    for r, x in enumerate(diffs, 1):
        base = 50 + 3 * r
        print("%s,a,%d,%d,%.2f" % (f, 2 * r - 1, r, base))
        print("%s,b,%d,%d,%.2f" % (f, 2 * r, r, base + x))
PY
out=$("$LAB/scripts/aa-rows" cpu-read-host 1 "$ab" run1 figure side process round "$t/aa.csv"); rc=$?
is "$rc" 0 "aa-rows runs"
is "$(grep -c . <<<"$out")" 5 "one row per figure compared, none for the base"
f1=$(grep '^cpu-read-host,1,f1,' <<<"$out")
IFS=, read -r _ _ _ _ _ _ p holm flagged <<<"$f1"
ok $(python3 -c "import sys; sys.exit(0 if $p < 0.05 < $holm else 1)"; echo $?) \
	"f1: raw p $p under 0.05, Holm's $holm over it (the case that tells them apart)"
is "$flagged" 1 "... flagged: by the raw p"
is "$(grep -v '^cpu-read-host,1,f1,' <<<"$out" | cut -d, -f9 | sort -u)" 0 "the others not flagged"
out=$("$LAB/scripts/aa-rows" cpu-read-host 1 "$ab" run1 figure side process round /dev/null 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:1" "no comparison: one error line, status 1"
done_testing
