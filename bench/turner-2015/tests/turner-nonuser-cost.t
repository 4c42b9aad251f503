#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a task that never registers a 2015 region pays for the series: bench/ctxsw under icount
# on turner-2015 and rseq-y-jl (the same configuration without the series; both with
# CONFIG_JUMP_LABEL and KVM), glibc's rseq off and on, 5 batches paired by batch (lab-ab).
# Each hook a non-user passes is a static key that no thread switched on: a NOP in the text.
#   - signal delivery passes one hook: the difference is that NOP, the upper end of its 95 %
#     interval at most NOPS_MAX (1.5); without CONFIG_JUMP_LABEL (a load, a test and a branch)
#     it was +3.0 [+2.95, +3.11] and this fails;
#   - a pipe write and read in one task (system calls only) passes none: its interval holds 0;
#   - a context switch passes one or two (two with glibc's rseq on, when the notify-resume
#     pass runs too), but the switch figure of two different kernels also carries a few
#     instructions of trajectory noise (one kernel's batches differ by up to 13): it is shown,
#     not bounded.
# NONUSER_BASE and NONUSER_TEST name other variants (the check of this test itself).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
base=${NONUSER_BASE:-rseq-y-jl} test=${NONUSER_TEST:-turner-2015}
require_image "$test" "$base" "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
NOPS_MAX=${NOPS_MAX:-1.5}

out=$(cd "$LAB" && ACCEL=icount DATA=$t/data QUIET=1 CTXSW_ROUNDS=5 bench/ctxsw/run "$base" "$test" 2>&1)
ok $? "ctxsw under icount on $base and $test" || diag "$(tail -n 5 <<< "$out")"
run=$(ls -d "$t"/data/*-ctxsw 2>/dev/null | head -n 1)
[ -n "$run" ] || { echo "Bail out! no ctxsw run"; exit 1; }
# Each of the test kernel's columns against the base's with glibc's rseq in the same state: the mean
# of the per-batch differences and its 95 % interval (lab-ab, paired by batch).
diffs=$(PYTHONPATH=$LAB/scripts python3 - "$run/ctxsw.csv" "$test" <<'EOF'
import csv, sys
import labdata
from labreport import stats
rows = labdata.read_csv(sys.argv[1])
for state in ("unreg", "reg"):
    path = "%s.%s" % (sys.argv[1], state)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(r for r in rows if r["variant"].endswith("/" + state)
                    and r["metric"] in ("switch", "signal", "pipe_self"))
    for r in stats.compare(stats.lab_ab_path(), path, key="metric", bench="ctxsw"):
        if r.get("variant", "").startswith(sys.argv[2] + "/"):
            print(state, r["key"], r["diff"], r["diff_lo"], r["diff_hi"])
EOF
)
while read -r state m d lo hi; do
	what="$m, glibc's rseq $state: $test minus $base $d instructions [$lo, $hi]"
	case $m in
	signal) ok "$(awk -v hi="$hi" -v max="$NOPS_MAX" 'BEGIN { print !(hi <= max) }')" "$what, at most $NOPS_MAX" ;;
	pipe_self) ok "$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { print !(lo <= 0 && 0 <= hi) }')" "$what, 0 inside" ;;
	*) diag "$what" ;;
	esac
done <<< "$diffs"
is "$(grep -c . <<< "$diffs")" 6 "lab-ab compared all three figures in both states"
done_testing
