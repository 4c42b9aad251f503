#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's centre names no bench: the README headline's rows are each bench's (a
# report.py's headline(runs, ab)), in the report's order, a bench folder without the hook
# brings none; the headline and the two axes (kernel releases: KERNEL_AXIS, kernel_rows;
# architectures: ARCH_CSV, ARCH_ROWS) name no bench, CSV or meta of one.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bench/zeta" "$t/bench/alpha" "$t/bench/quiet" "$t/data"
printf 'ORDER = 5\n\ndef tables(runs):\n    return []\n\n\ndef headline(runs, ab):\n    return [("zeta row", "how", "1 ns", "run-z")]\n' > "$t/bench/zeta/report.py"
printf 'def tables(runs):\n    return []\n\n\ndef headline(runs, ab):\n    return [("alpha row", "how", "2 ns", "run-a")]\n' > "$t/bench/alpha/report.py"
printf 'def tables(runs):\n    return []\n' > "$t/bench/quiet/report.py"
out=$(LAB_BENCH_DIR=$t/bench python3 -c '
import sys; sys.path.insert(0, sys.argv[1] + "/scripts")
from labreport import headline
print("\n".join(headline.markdown([], "lab-ab")))' "$LAB" 2>&1)
is "$(tail -n +3 <<<"$out")" '| zeta row | how | 1 ns | `run-z` |
| alpha row | how | 2 ns | `run-a` |' "each hook's rows, in the report's order (ORDER 5 before the default)"
for f in headline axis_kernels axis_arch; do
	is "$(grep -cE "cpu-read|percpu|mm-cid|ctxsw|hackbench|sizes|deltas|[a-z_]+\.(csv|meta)\"" "$LAB/scripts/labreport/$f.py")" 0 \
		"$f.py names no bench, CSV or meta"
done
done_testing
