#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# boot-time's parse and report steps on a fixture (hyperfine --export-json of a real boot-time
# run here): one CSV row per variant with hyperfine's own mean and sd, min/max/relative/runs
# from its times, broken input refused in one line, a report row per variant and an A/B
# verdict from lab-ab; build-times refuses a variant with no recorded build time.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/bench/boot-time/tests/fixtures/hyperfine.json
parse=$LAB/bench/boot-time/parse-json

"$parse" tcg "$fx" > "$t/boot-time.csv"
ok $? "the fixture parses"
is "$(head -n 1 "$t/boot-time.csv")" \
	"variant,accel,runs,mean_s,sd_s,median_s,min_s,max_s,relative,times_s" "CSV header"
want=$(python3 -c 'import json, sys
for r in json.load(sys.stdin)["results"]:
    print("%s,%.6f,%.6f,%d" % (r["command"], r["mean"], r["stddev"], len(r["times"])))' < "$fx")
got=$(csv_cols "$t/boot-time.csv" variant mean_s sd_s runs | tr '\t' ,)
is "$got" "$want" "one row per variant with hyperfine's mean, sd and number of runs"
is "$(csv_cols "$t/boot-time.csv" variant runs times_s | awk -F'\t' '{ n = split($3, v, ";"); if (n != $2) print $1 }')" "" \
	"every run's time is kept"
is "$(csv_cols "$t/boot-time.csv" variant --where relative=1.0000 | wc -l)" 1 \
	"exactly one variant is the fastest (relative 1.0000)"
bad=$(csv_cols "$t/boot-time.csv" variant min_s max_s times_s | awk -F'\t' '{ n = split($4, v, ";"); mn = v[1]; mx = v[1]
	for (i = 2; i <= n; i++) { if (v[i] < mn) mn = v[i]; if (v[i] > mx) mx = v[i] }
	if (sprintf("%.6f", mn) != $2 || sprintf("%.6f", mx) != $3) print $1 }')
is "$bad" "" "min and max are those of the runs"

echo '{"results": [' > "$t/trunc.json"
out=$("$parse" tcg "$t/trunc.json" 2>&1); rc=$?
ok $((rc == 0)) "truncated JSON is refused"
is "$(printf '%s\n' "$out" | wc -l)" 1 "in one line ($out)"
echo '{"results": [{"command": "x", "mean": 1, "times": []}]}' > "$t/empty.json"
like "$("$parse" tcg "$t/empty.json" 2>&1)" "command 'x' has no timings" "a command without timings is refused"
like "$("$parse" tcg "$t/nothing.json" 2>&1)" "^boot-time-parse: cannot read" "a missing file is one line"
for bad in '"x"' true '"1;2"'; do
	echo '{"results": [{"command": "y", "mean": 1, "times": [1.0, '"$bad"']}]}' > "$t/bad.json"
	out=$("$parse" tcg "$t/bad.json" 2>&1); rc=$?
	is "$rc:$(printf '%s\n' "$out" | wc -l)" "1:1" "a time that is not a number ($bad): one line, status 1"
	like "$out" "command 'y': bad time" "  naming the command"
done
echo '{"results": [{"command": "z", "mean": 2, "times": [3.0, 1.0, 2.0]}]}' > "$t/odd.json"
like "$("$parse" icount "$t/odd.json")" '^z,icount,3,2\.000000,1\.000000,2\.000000,1\.000000,3\.000000,1\.0000,3\.000000;1\.000000;2\.000000$' \
	"three runs 3 1 2: mean 2, sd 1 (n - 1), median the middle one, times in run order"

report=$("$LAB/bench/boot-time/report" "$t" 2>&1)
ok $? "the report runs from the CSV alone"
for v in $(csv_cols "$t/boot-time.csv" variant); do
	like "$report" "^  $v +[0-9.]+ s ± +[0-9.]+ +min +[0-9.]+ +max +[0-9.]+ +x[0-9.]+ +\(n=[0-9]+\)" \
		"the report has a row for $v"
done
if [ -x "$BUILD/host/bin/lab-ab" ]; then
	like "$report" "vs .*(significant|no difference)" "and an A/B verdict from lab-ab"
else
	skip "no lab-ab (make lib-tests)" "A/B verdict"
fi
# Interleaved rounds: one hyperfine file per round, each command's times joined in order.
for r in 1 2; do
	printf '{"results":[{"command":"a","mean":%s,"stddev":null,"times":[%s]},{"command":"b","mean":%s,"stddev":null,"times":[%s]}]}' \
		"$((r * 2 - 1))" "$((r * 2 - 1))" "$((r * 2))" "$((r * 2))" > "$t/round-$r.json"
done
rows=$("$parse" icount "$t/round-1.json" "$t/round-2.json")
like "$rows" '^a,icount,2,2\.000000,1\.414214,2\.000000,1\.000000,3\.000000,1\.0000,1\.000000;3\.000000$' \
	"rounds: a's times from both files in order, mean and sd (n - 1) over them"
like "$rows" '^b,icount,2,3\.000000,1\.414214,3\.000000,2\.000000,4\.000000,1\.5000,' "  and b's"
mkdir -p "$t/build/images"
printf 'variant: x\nrelease: 6.1\n' > "$t/build/images/x.info"
out=$(BUILD=$t/build "$LAB/scripts/build-times" x 2>&1); rc=$?
ok $((rc == 0)) "build-times refuses a variant without build_seconds"
like "$out" "records no build_seconds" "and says so"
printf 'build_seconds: 42\nbuild_kind: seeded\nccache: 5 hits, 9 misses\nbzimage_bytes: 7\n' >> "$t/build/images/x.info"
printf 'seeded_from: rseq-y (0123)\nobjects_compiled: 31\nbzimage_sha256: abc\n' >> "$t/build/images/x.info"
like "$(BUILD=$t/build "$LAB/scripts/build-times" x)" '^x,42,seeded,"5 hits, 9 misses",7,6\.1,.*,"rseq-y \(0123\)",31,abc$' \
	"and reports a recorded one, with its kind, ccache hits, seed, objects compiled and image hash"
DATA=$t/data BUILD=$t/build "$LAB/scripts/build-times" --data x > /dev/null 2>&1
ok $? "make build-times (--data) runs"
d=$(ls -d "$t"/data/*-build-times 2>/dev/null | head -n 1)
like "$(cat "$d/build-times.csv" 2>/dev/null)" '^x,42,seeded,' "and collects the table into a data/ run"
like "$(cat "$d/build-times.meta" 2>/dev/null)" 'lab_dirty: ' "with the run's provenance"
rm -rf "$t/data"
DATA=$t/data BUILD=$t/build "$LAB/scripts/build-times" --data nosuch > /dev/null 2>&1
ok $([ $? -ne 0 ] && [ -z "$(ls -A "$t/data" 2>/dev/null)" ]; echo $?) "an unknown variant writes no run"
done_testing
