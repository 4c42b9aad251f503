#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run directory appears whole and never over an earlier one (run_dir_finish in
# scripts/bench-lib.sh): when data/ already has a run of the name this second would give, the
# new run becomes NAME-2 and the earlier one keeps every file; interleave's statuses do not
# land in data/.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
DATA=$t/data
# shellcheck source=../bench-lib.sh
. "$LAB/scripts/bench-lib.sh"
mkdir -p "$DATA"
host=$(hostname -s 2>/dev/null || uname -n)
# Earlier runs under the names of this second and the next 30 (a loaded machine may take
# seconds to get to run_dir_finish), each with its file.
now=$(date +%s)
for s in $(seq 0 30); do
	TZ=UTC printf -v d '%s/%(%Y%m%dT%H%M%SZ)T-%s-x' "$DATA" $((now + s)) "$host"
	mkdir -p "$d"; echo earlier > "$d/result.csv"
done
out=$( (run_dir_begin; echo new > "$RUN_TMP/result.csv"; mkdir -p "$RUN_TMP/.interleave"
	run_dir_finish x) )
like "$out" "-x-2$" "the new run is NAME-2 ($out)"
is "$(cat "$out/result.csv" 2>/dev/null)" new "  with its own files"
ok $([ ! -e "$out/.interleave" ]; echo $?) "  without interleave's statuses"
is "$(cat "$DATA"/*-x/result.csv | sort -u)" earlier "every earlier run keeps its file"
done_testing
