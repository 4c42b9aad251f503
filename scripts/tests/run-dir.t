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

# A script's own exit hook and the run's both run, whichever was set first, and the script's
# status stands: an unfinished run leaves neither its folder nor the script's temporary file.
hooks() { # hooks FINISH STATUS: a script with its own scratch file and a run
	DATA=$DATA bash -c 'set -euo pipefail; . "$1/scripts/bench-lib.sh"; s=$(mktemp "$2/scratch.XXXXXX"); at_exit "rm -f \"$s\""
		run_dir_begin; echo r > "$RUN_TMP/r.csv"; [ "$3" = 0 ] || run_dir_finish hooks > /dev/null; exit "$4"' \
		_ "$LAB" "$t" "$1" "$2"
}
hooks 1 3; r=$?
is "$r" 3 "exit hooks keep the script's status"
is "$(ls -A "$t" | grep -c scratch)" 0 "  the script's own temporary file is gone after a finished run"
ok $(ls -d "$DATA"/*-hooks > /dev/null 2>&1; echo $?) "  and the finished run stays"
hooks 0 4; r=$?
is "$r" 4 "an unfinished run: the status stands"
is "$(ls -A "$t" | grep -c scratch)" 0 "  the script's temporary file is gone"
is "$(ls -A "$DATA" | grep -c '^\.run\.')" 0 "  and so is the run's hidden folder"
done_testing
