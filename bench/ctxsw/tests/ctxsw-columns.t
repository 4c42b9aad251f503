#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/ctxsw/run end to end on rseq-n and rseq-y: three columns (rseq-n, rseq-y/unreg,
# rseq-y/reg) whose guests ran in the rseq state their label says, every metric in each,
# lab-ab's comparison of both rseq-y columns with rseq-n per metric over boots (rounds
# interleaved, every boot its own seed), and a run directory in DATA; a boot that fails
# leaves nothing there. A variant named twice is an A/A run with labels of its own.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
require_image rseq-y rseq-n "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/data"
DATA=$t/data ACCEL=icount CTXSW_ROUNDS=2 CTXSW_ITERS=500 CTXSW_BATCHES=2 "$LAB/bench/ctxsw/run" rseq-n rseq-y \
	> "$t/out" 2> "$t/err"
ok $? "bench/ctxsw/run rseq-n rseq-y"
dir=$(ls -d "$t"/data/*-ctxsw 2>/dev/null | head -n 1)
ok $([ -f "$dir/ctxsw.csv" ] && [ -f "$dir/ctxsw.meta" ] && [ -f "$dir/ab.txt" ]; echo $?) \
	"a run directory with ctxsw.csv, ctxsw.meta and ab.txt"
csv=$dir/ctxsw.csv
is "$(csv_cols "$csv" variant rseq_state 2>/dev/null | tr '\t' = | sort -u | tr '\n' ' ')" \
	"rseq-n=none rseq-y/reg=on rseq-y/unreg=off " "each column ran in its rseq state"
for v in rseq-n rseq-y/unreg rseq-y/reg; do
	is "$(csv_cols "$csv" metric --where variant="$v" 2>/dev/null | sort -u | tr '\n' ' ')" \
		"pipe_roundtrip pipe_self signal switch " "$v: every metric"
done
is "$(csv_cols "$csv" unit 2>/dev/null | sort -u)" insn "figures in instructions under icount"
is "$(csv_cols "$csv" variant round --where metric=switch --where batch=1 2>/dev/null | tr '\t\n' '= ')" \
	"rseq-n=1 rseq-y/unreg=1 rseq-y/reg=1 rseq-n=2 rseq-y/unreg=2 rseq-y/reg=2 " \
	"two boots per column, one row per boot and batch"
is "$(tr '\n' ' ' < "$dir/order" 2>/dev/null)" "1 1 1 2 1 3 2 1 2 2 2 3 " "boots started round by round, columns in turn"
seeds=$(cat "$dir"/boots/*/ctxsw.out 2>/dev/null | sed -n 's/^seed: //p' | sort -n | tr '\n' ' ')
is "$seeds" "1 2 3 4 5 6 " "every boot its own seed"
like "$(cat "$dir/ctxsw.meta" 2>/dev/null)" "design: 2 boots x 2 batches per column, paired by round" "the meta says the design"
like "$(cat "$dir/ab.txt" 2>/dev/null)" "design: paired by round, 2 units" "lab-ab compared boots, paired by round"
for m in switch signal; do
	for v in rseq-y/unreg rseq-y/reg; do
		like "$(sed -n "/^key $m,/,/^\$/p" "$dir/ab.txt" 2>/dev/null)" "$v vs rseq-n: " \
			"ab.txt compares $v with rseq-n ($m)"
	done
done
# Registration adds work on the signal path (rseq_signal_deliver runs only with an area): the
# registered column's median per signal is not below the unregistered one's.
med() { csv_cols "$csv" value --where variant="$1" --where metric="$2" | sort -g |
	awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
r=$(med rseq-y/reg signal) u=$(med rseq-y/unreg signal)
ok $(awk -v r="$r" -v u="$u" 'BEGIN { exit !(r + 0 >= u + 0 && u + 0 > 0) }'; echo $?) \
	"signal: registered $r >= unregistered $u instructions"

# The same kernel twice, registered only: an A/A pair of columns.
mkdir -p "$t/aa"
DATA=$t/aa ACCEL=icount CTXSW_GLIBC=on CTXSW_ROUNDS=2 CTXSW_ITERS=200 CTXSW_BATCHES=1 \
	"$LAB/bench/ctxsw/run" rseq-y rseq-y >/dev/null 2>"$t/aa.err"
ok $? "rseq-y rseq-y runs (an A/A comparison)"
is "$(sed -n 's/^columns: //p' "$t"/aa/*-ctxsw/ctxsw.meta 2>/dev/null)" "rseq-y/reg rseq-y#2/reg " \
	"  its columns: rseq-y/reg and rseq-y#2/reg"

# A guest that ran in another rseq state than its column's (a stand-in boot whose lab-ctxsw
# always reports "off"): the run refuses it, nothing in DATA.
cat > "$t/off-boot" <<'B'
#!/usr/bin/env bash
mkdir -p "$OUTDIR"
printf '%s\n' "seed: 1" "rseq_state: off" "iters: 10" "pipe_self 1 1.0" "pipe_roundtrip 1 4.0" \
	"switch 1 1.0" "signal 1 2.0" > "$OUTDIR/ctxsw.out"
echo "cpus: 1" > "$OUTDIR/lab-boot.info"
B
chmod +x "$t/off-boot"
mkdir -p "$t/data3"
DATA=$t/data3 ACCEL=icount CTXSW_BOOT=$t/off-boot CTXSW_ROUNDS=1 "$LAB/bench/ctxsw/run" rseq-n rseq-y \
	>/dev/null 2>"$t/err3"
ok $([ $? -ne 0 ]; echo $?) "a guest in the wrong rseq state fails the run"
like "$(cat "$t/err3")" "rseq-n: the guest ran with rseq off, not none" "  naming the column and the states"
is "$(ls -A "$t/data3")" "" "  and leaves nothing in DATA"

# A boot command that fails: nothing in DATA.
mkdir -p "$t/data2"
DATA=$t/data2 ACCEL=icount CTXSW_BOOT=false CTXSW_ITERS=10 CTXSW_BATCHES=1 \
	"$LAB/bench/ctxsw/run" rseq-n rseq-y >/dev/null 2>"$t/err2"
ok $([ $? -ne 0 ]; echo $?) "a failed boot fails the run"
is "$(ls -A "$t/data2")" "" "and leaves nothing in DATA"
done_testing
