#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make size: size(1) of every built variant into a new data/ run directory, with the deltas in
# the seed's terms; an unknown variant is one line and writes nothing.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export DATA=$t/data
require_image rseq-y rseq-n
out=$("$LAB/bench/size/run" rseq-n rseq-y 2>&1); ok $? "kernel-size rseq-n rseq-y runs"
d=$(ls -d "$DATA"/*-size 2>/dev/null | head -n 1)
ok $([ -s "$d/sizes.csv" ] && [ -s "$d/deltas.csv" ] && [ -s "$d/report.txt" ]; echo $?) \
	"it writes sizes.csv, deltas.csv and report.txt into one run directory"
want=$(size "$BUILD/images/rseq-y.vmlinux" | awk 'NR == 2 { print $1 }')
is "$(csv_cols "$d/sizes.csv" text --where variant=rseq-y)" "$want" "rseq-y's text is size(1)'s"
tn=$(size "$BUILD/images/rseq-n.vmlinux" | awk 'NR == 2 { print $1 }')
like "$out" "rseq-n -> rseq-y: RSEQ adds $((want - tn)) bytes text" "the delta is in the seed's terms"
like "$out" "seed commit d7822b1e24f2.*567 bytes text, 5696 bytes data" "beside the seed's figures"
n=$(ls "$DATA" | wc -l)
out=$("$LAB/bench/size/run" no-such-variant 2>&1); r=$?
ok $((r == 0)) "an unknown variant fails"
is "$(printf '%s\n' "$out" | wc -l)" 1 "in one line ($out)"
is "$(ls -A "$DATA" | wc -l)" "$n" "and leaves nothing in data/"
done_testing
