#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README headline names no bench: its rows are each bench's (a report.py's headline(runs,
# ab)), in the report's order; a bench folder that brings a headline hook brings its rows,
# one without brings none, and scripts/labreport/headline.py reads no bench's files.
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
is "$(grep -cE "cpu-read|percpu|ctxsw|hackbench|sizes|deltas|[a-z_]+\.(csv|meta)\"" "$LAB/scripts/labreport/headline.py")" 0 \
	"headline.py names no bench, CSV or meta"
done_testing
