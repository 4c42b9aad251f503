#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make strategy-compare A=old.c B=new.c: a strategy against itself reports no change, on the
# host and under icount; against a copy whose operation has K added nops it reports +K
# instructions per op under icount (compare.csv's diff), the block make compare prints (at
# most 72 columns), and FAIL_ABOVE on that figure says bad (status 1), on a bound above the
# change good (status 0).
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
env=$(make -s --no-print-directory -C "$LAB" strategy-env)
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || make -s --no-print-directory -C "$LAB" "$ab" >/dev/null
a=$LAB/bench/percpu/examples/mm-cid-counter.c
K=3
# The same strategy with K nops at the start of its operation.
sed "/^static inline void cid_add/,/^{/ s/^{/{\n\t__asm__ volatile(\"$(printf 'nop\\\\n\\\\t%.0s' $(seq $K))\");/" \
	"$a" > "$t/nops.c"
is "$(grep -o 'nop' "$t/nops.c" | wc -l)" "$K" "the copy has $K nops"

# compare NAME B ENV...: strategy-compare A=$a B=B, its block in $t/NAME.txt, status in $rc.
compare() {
	local name=$1 b=$2
	shift 2
	# the exactness check's long pass shortened: strategy.t tests the check, this the compare
	(cd "$LAB" && eval "DATA=$t/$name PLOTS=$t/plots AB=$ab CHECK_LONG_MS=100 $* $env bench/percpu/strategy-compare $a $b") \
		> "$t/$name.txt" 2> "$t/$name.log"; rc=$?
	d=$(ls -d "$t/$name"/*-strategy-compare 2>/dev/null | head -n 1)
}
fig=percpu.counter-mm-cid-atomic.t1
diff_of() { "$LAB/scripts/csv" "$d/compare.csv" diff --where "figure=$fig"; }

compare self-host "$a" STRATEGY_ARGS="'--threads 1 --reps 3 --duration 10'" ROUNDS=3
ok $rc "host: A against itself exits 0"
[ $rc -eq 0 ] || diag "$(tail -n 3 "$t/self-host.log")"
# (Whether host timings of one strategy twice differ is chance: an A/A is flagged 1 time in
# 20 by design, more on a loaded machine; under icount below no change is exact.) The verdict
# comes with its interval, which holds the change it was computed from (Fieller's: unbounded,
# nan, when the base's mean is not clearly above 0 over 3 noisy rounds).
is "$("$LAB/scripts/csv" "$d/compare.csv" pct pct_lo pct_hi verdict --where "figure=$fig" |
	awk -F'\t' '$2 ~ /^-?nan$/ || $3 ~ /^-?nan$/ { print "ok"; next }
	$2 + 0 <= $1 + 0 && $1 + 0 <= $3 + 0 && $2 < $3 {
		print ($4 == "not significant") == ($2 <= 0 && 0 <= $3) ? "ok" : "verdict " $4 " for " $2 ", " $3; next }
	{ print "change " $1 " outside [" $2 ", " $3 "]" }')" \
	ok "host: a verdict with its interval, significant where 0 is outside it"
like "$(cat "$t/self-host.txt")" "$fig" "host: the block names the figure"
is "$(awk 'length > 72' "$t/self-host.txt" | wc -l)" 0 "host: the block is at most 72 columns"
like "$(head -n 1 "$t/self-host.txt")" "^A/B of percpu: 3 processes x 1 rep per strategy; paired by round" \
	"host: its design line"
like "$(cat "$t/self-host.txt")" "^guest: none \(both sides ran on the host, no QEMU\)$" \
	"host: the block says no guest ran"
is "$(head -n 1 "$d/ab-input.csv")" "figure,variant,accel,process,round,rep,value" \
	"host: the unit is the process, the pair the round"
cmp -s "$d/compare.txt" "$t/plots/compare-$(basename "$d").txt"
ok $? "host: the block is in plots/ too, as make compare's"
is "$(grep -c 'unknown' "$t/self-host.txt")" "$(grep -c 'microcode unknown' "$t/self-host.txt")" \
	"host: nothing else it prints is unknown"

if require_image --part rseq-y; then
	compare self-icount "$a" ACCEL=icount VARIANT=rseq-y ROUNDS=3 \
		STRATEGY_ARGS="'--threads 1 --reps 1 --duration 5'"
	ok $rc "icount: A against itself exits 0"
	[ $rc -eq 0 ] || diag "$(tail -n 3 "$t/self-icount.log")"
	like "$(cat "$t/self-icount.txt")" "no significant change \(1\): $fig" "icount: no change"
	is "$(printf '%.0f' "$(diff_of)")" 0 "icount: +0 insn per op"
	is "$(head -n 1 "$d/ab-input.csv")" "figure,variant,accel,boot,round,rep,value" \
		"icount: the unit is the boot (a boot a side a round), the pair the round"
	is "$(ls -d "$d"/boots/round-*/base/lab-boot.info | wc -l)" 3 "icount: 3 boots of A"

	compare nops "$t/nops.c" ACCEL=icount VARIANT=rseq-y ROUNDS=3 \
		STRATEGY_ARGS="'--threads 1 --reps 1 --duration 5'" FAIL_ABOVE=$fig:1
	is "$rc" 1 "icount: FAIL_ABOVE=$fig:1 says bad (status 1) for B = A + $K nops"
	# The figure's line (its name on a line of its own when too long), then its numbers.
	like "$(grep -A1 -- "$fig" "$t/nops.txt" | head -n 2)" "^ +[0-9.]+ +\+[0-9.]+%[*=] +[0-9.]+" \
		"icount: the block shows the change"
	is "$(printf '%.0f' "$(diff_of)")" "$K" "icount: +$K insn per op"
	diag "$(grep -A1 "$fig" "$t/nops.txt" | head -n 2)"
	is "$(awk 'length > 72' "$t/nops.txt" | wc -l)" 0 "icount: the block is at most 72 columns"
	"$LAB/scripts/compare-verdict" "$d/compare.csv" "$fig:1000" 2>/dev/null
	ok $? "icount: FAIL_ABOVE=$fig:1000 says good (status 0)"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11; do skip "no rseq-y image" "icount $i"; done
fi
done_testing
