#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# readme-results: the README's headline table comes from data/ (labreport.headline) and goes
# between the results markers, each row naming its run; the rest of the README is kept; a
# README without the markers is refused in one line and left as it was.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/report-data
printf 'before\n<!-- results:begin -->\nstale line\n<!-- results:end -->\nafter\n' > "$t/README.md"
DATA=$fx README=$t/README.md "$LAB/scripts/readme-results" > "$t/out" 2>&1
is "$?" 0 "readme-results runs on the fixture data"
txt=$(cat "$t/README.md")
like "$txt" "^before$" "the text before the markers is kept"
like "$txt" "^after$" "and the text after them"
ok $(grep -q "stale line" <<< "$txt"; echo $((!$?))) "the old table is replaced"
like "$txt" '^\| `getcpu` system call \| host: AMD EPYC, 1 process \(range: its reps\) \| 156\.36 ns \(152\.76-162\.37\) \| `20260101T000000Z-fixture-host` \|$' \
	"a host row: its CPU, its unit (a run from before processes were: one), the median with its range, its run"
like "$txt" '^\| hackbench thread/socket, glibc registering: RSEQ=y vs n \| icount, paired by round, 4 boots x 1 reps \| \+2\.9[0-9] % \[\+[0-9.]+, \+[0-9.]+\], significant \|' \
	"a hackbench row: the design, the change and its interval over boots"
like "$txt" '^\| CONFIG_RSEQ=y: vmlinux text, data \| size\(1\) \| \+404 / \+128 bytes \|' "the size row"
printf 'no markers\n' > "$t/plain.md"
err=$(DATA=$fx README=$t/plain.md "$LAB/scripts/readme-results" 2>&1); r=$?
is "$r/$(wc -l <<< "$err")" "1/1" "a README without the markers: exit 1, one line"
is "$(cat "$t/plain.md")" "no markers" "and it is left as it was"
# A newer hackbench run with fewer boots (2 of the 4 rounds) does not replace the larger one.
cp -r "$fx" "$t/data"
n=$t/data/20260102T000000Z-fixture-hackbench
cp -r "$fx/20260101T000100Z-fixture-hackbench" "$n"
sed -i 's/^rounds: 4$/rounds: 2/' "$n/hackbench.meta"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "round") c = i; print; next } $c <= 2' \
	"$fx/20260101T000100Z-fixture-hackbench/hackbench.csv" > "$n/hackbench.csv"
printf '<!-- results:begin -->\n<!-- results:end -->\n' > "$t/R2.md"
DATA=$t/data README=$t/R2.md "$LAB/scripts/readme-results" > /dev/null 2>&1
like "$(grep hackbench "$t/R2.md")" "20260101T000100Z-fixture-hackbench" "the hackbench rows come from the run with the most boots"
ok $(! grep -q 20260102T000000Z-fixture-hackbench "$t/R2.md"; echo $?) "  not from a newer, smaller one"
# An older run of other kernels (another configuration), with more boots, does not answer
# for the newest run's kernels.
o=$t/data/20251231T000000Z-fixture-hackbench
cp -r "$fx/20260101T000100Z-fixture-hackbench" "$o"
sed -i 's/^rounds: 4$/rounds: 9/; s/config_sha256 [0-9a-f]*/config_sha256 0000/' "$o/hackbench.meta"
printf '<!-- results:begin -->\n<!-- results:end -->\n' > "$t/R3.md"
DATA=$t/data README=$t/R3.md "$LAB/scripts/readme-results" > /dev/null 2>&1
like "$(grep hackbench "$t/R3.md")" "20260101T000100Z-fixture-hackbench" "a run of other kernels with more boots is not used"
done_testing
