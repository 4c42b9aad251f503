#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The lab's rows as strategy files (bench/percpu/strategies/) cost what the compiled-in rows
# cost before: under icount in an rseq-y guest, every row's instructions per op (1 thread)
# equal, to the instruction, those of the committed run made before the rewrite.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
require_image rseq-y
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
ref=$LAB/data/20261203T152611Z-vm-arch-x86_64-rseq-y-icount/percpu.csv
[ -f "$ref" ] || { echo "1..1"; echo "not ok 1 - the reference run $ref is there"; exit 1; }

# The reference's settings (3 reps x 20 ms), so that the per-run overhead spread over the ops
# is alike: the figures are instructions per op plus a fraction.
out=$(OUTDIR=$t/y ACCEL=icount BOOT_TIMEOUT=300 boot rseq-y -- \
	lab-percpu --threads 1 --reps 3 --duration 20 --out /out); rc=$?
ok $rc "rseq-y (icount): lab-percpu exits 0"
[ $rc -eq 0 ] || diag "$(tail -n 5 <<<"$out")"
n=0
while IFS=$'\t' read -r m v; do
	n=$((n + 1))
	got=$("$LAB/scripts/csv" "$t/y/percpu.csv" ns_per_op --where "method=$m" --where threads=1 2>&1)
	is "$(printf '%.0f' "$got" 2>/dev/null || echo "$got")" "$(printf '%.0f' "$v")" \
		"$m: $(printf '%.0f' "$v") instructions per op, as before the rewrite ($got, was $v)"
done < <("$LAB/scripts/csv" "$ref" method ns_per_op --where threads=1 --where status=ok)
is "$n" 11 "the reference has the 11 rows"
done_testing
