#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A known answer for every bench make compare runs (compare_lib.benches()): two fake kernels
# (fixtures/compare/fake-kernel) whose boots (fixtures/compare/fake-boot, every bench's
# program answering from its templates under fixtures/compare/guest/) differ only in the
# values a template marks, by a known amount. Everything between the boots and the block is
# the lab's own: bench-run or the bench's run, its parse, compare-figures, lab-ab, the block.
# For each bench: exactly the figures that carry the change are in the block with that change,
# every other figure it gave shows no change, every figure reaches the block, and the block
# names the bench's design. A bench the list below lacks fails here: a new bench needs its
# known answer. No kernel, no QEMU.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-compare.sh"
D=7

# bench|base's fake lines|test's fake lines|FIGURE=CHANGE ... (every figure that must change;
# CHANGE exact, or ~CHANGE within a third of it: a timed answer, which other work on the CPUs
# moves: boot-time's is a second and a half, well above a loaded machine's spread)
answers=(
	"alloc|delta: 0|delta: $D|alloc.alloc-rseq.t1=+$D"
	"boot-time|boot_s: 0|boot_s: 1.5|boot-time.boot=~+1.5"
	"cpu-read|delta: 0|delta: $D|cpu-read.syscall=+$D"
	"ctxsw|delta: 0|delta: $D|ctxsw.switch.glibc-on=+$D ctxsw.signal.glibc-on=+$D ctxsw.switch.rseq-cost=+$D ctxsw.signal.rseq-cost=+$D"
	"hackbench|delta: 0|delta: $D|hackbench.process-pipe.glibc-on=+$D hackbench.process-socket.glibc-on=+$D hackbench.thread-pipe.glibc-on=+$D hackbench.thread-socket.glibc-on=+$D hackbench.process-pipe.rseq-cost=+$D hackbench.process-socket.rseq-cost=+$D hackbench.thread-pipe.rseq-cost=+$D hackbench.thread-socket.rseq-cost=+$D"
	"jemalloc|delta: 0|delta: $D|jemalloc.je-tcache-rseq-on=+$D"
	"mm-cid|delta: 0|delta: $D|mm-cid.read.cpu_id.glibc=+$D"
	"percpu|delta: 0|delta: $D|percpu.counter-rseq-cpuid-atomic.t1=+$D"
	"ringbuf|delta: 0|delta: $D|ringbuf.ringbuf-rseq.t1=+$D"
	"size|data: 4096|data: $((4096 + D))|size.data=+$D"
	"urcu-lfht|delta: 0|delta: $D|urcu-lfht.lfht-acct-rseq-on=+$D"
)
benches=$(cd "$LAB/scripts" && python3 -c 'import compare_lib; print(" ".join(compare_lib.benches()))')
listed=$(printf '%s\n' "${answers[@]}" | cut -d'|' -f1 | tr '\n' ' ')
is "$listed" "$benches " "a known answer for every bench make compare runs"

# cell CSV FIGURE COLUMN: one cell of compare.csv ("missing" without the row)
cell() { python3 -c 'import sys; sys.path.insert(0, sys.argv[1] + "/scripts"); import labdata
rows = [r for r in labdata.read_csv(sys.argv[2]) if r["figure"] == sys.argv[3]]
print(rows[0][sys.argv[4]] if rows else "missing")' "$LAB" "$@"; }
figs() { python3 -c 'import sys; sys.path.insert(0, sys.argv[1] + "/scripts"); import labdata, compare_lib
print("\n".join(sorted({compare_lib.qualified(r["bench"], r["figure"]) for r in labdata.read_csv(sys.argv[2])})))' "$LAB" "$1"; }

for a in "${answers[@]}"; do
	IFS='|' read -r b base test want <<< "$a"
	c0=$(commit 186 ok ok "$b base" "$base")
	c1=$(commit 186 ok ok "$b test" "$test")
	rm -rf "$DATA" "$PLOTS"
	out=$(KSRC=$repo BASE=$c0 TEST=$c1 BENCH=$b CTXSW_ROUNDS=3 HB_REPS=2 RUNS=4 WARMUP=0 \
		"$LAB/scripts/compare" 2>&1); r=$?
	is "$r" 0 "$b: compare of the two fake kernels"
	run=$(ls -d "$DATA"/*-compare 2>/dev/null | tail -n 1)
	[ -n "$run" ] || { diag "$(tail -n 15 <<< "$out")"; ok 1 "$b: a compare run"; continue; }
	csv=$run/compare.csv block=$run/compare.txt
	changed=()
	for w in $want; do
		f=${w%%=*} x=${w#*=}
		changed+=("$f")
		d=$(cell "$csv" "$f" diff)
		if [ "${x#\~}" != "$x" ]; then
			x=${x#\~}
			awk -v d="$d" -v x="$x" 'BEGIN { exit !(d != "missing" && 3 * (d - x) <= x && 3 * (x - d) <= x) }'
			ok $? "$b: $f changed by $d (the answer: ${x} within a third)"
		else
			awk -v d="$d" -v x="$x" 'BEGIN { exit !(d != "missing" && d - x < 1e-6 && x - d < 1e-6) }'
			ok $? "$b: $f changed by $d (the answer: exactly $x)"
		fi
		is "$(cell "$csv" "$f" verdict)" significant "$b: $f is called a change"
		grep -qE "^ .*[*=] .* $f( |$)|^  $f:" "$block"
		ok $? "$b: $f has its line in the block"
	done
	# every other figure: not one unit of change, and not called one
	others=$(figs "$run/figures.csv" | grep -vxF -f <(printf '%s\n' "${changed[@]}"))
	moved=$(for f in $others; do
		[ "$(cell "$csv" "$f" diff)" = 0 ] && [ "$(cell "$csv" "$f" verdict)" != significant ] || echo "$f"
	done)
	is "$moved" "" "$b: the $(wc -w <<< "$others") other figures did not move"
	# every figure the bench gave is in the block: changed, unchanged, or listed why not
	missing=$(for f in $(figs "$run/figures.csv"); do grep -qE "(^| )$f( |$|:)" "$block" || echo "$f"; done)
	is "$missing" "" "$b: each of its $(figs "$run/figures.csv" | wc -l) figures is in the block"
	like "$(tr '\n' ' ' < "$block" | tr -s ' ')" "^A/B of $b: .* $b: [^ ]" "$b: the block names its design"
done

# The design of a bench with its own rounds is said, not ROUNDS's.
c0=$(commit 186 ok ok "ctxsw base" "delta: 0"); c1=$(commit 186 ok ok "ctxsw test" "delta: 3")
rm -rf "$DATA" "$PLOTS"
# ROUNDS unset: compare's default, the one compare-check assumes (3, lab-ab's minimum)
(unset ROUNDS; KSRC=$repo BASE=$c0 TEST=$c1 BENCH=cpu-read,ctxsw CTXSW_ROUNDS=4 "$LAB/scripts/compare" > /dev/null 2>&1)
is $? 0 "cpu-read and ctxsw in one comparison, ROUNDS unset"
block=$(ls "$DATA"/*-compare/compare.txt 2>/dev/null | tail -n 1)
like "$(tr '\n' ' ' < "$block" | tr -s ' ')" "3 boots x 1 rep \(cpu-read\), 4 boots x 2 reps \(ctxsw\)" "each bench's units: ROUNDS for cpu-read, ctxsw's own 4"
like "$(tr '\n' ' ' < "$block" | tr -s ' ')" "cpu-read: one boot per kernel per round \(ROUNDS=3\)" "cpu-read's design line"
like "$(tr '\n' ' ' < "$block" | tr -s ' ')" "ctxsw: its own rounds \(CTXSW_ROUNDS\)" "ctxsw's design line"
"$LAB/scripts/compare-verdict" "$(dirname "$block")/compare.csv" ctxsw.switch.glibc-on:0.1 2>/dev/null
is $? 1 "FAIL_ABOVE reaches a figure inside a kernel (ctxsw.switch.glibc-on)"
"$LAB/scripts/compare-verdict" "$(dirname "$block")/compare.csv" ctxsw.switch.glibc-off:0.1 2>/dev/null
is $? 0 "... and passes the unregistered one, which did not move"

# A figure the chain cannot place stops the comparison: a parse that names no kernel.
mkdir -p "$t/boots/round-1/x"
printf 'variant,kernel,rseq_state,accel,metric,round,batch,value,unit\n%s\n' \
	'cmp-base/reg,cmp-base,on,icount,switch,1,1,2000,insn' > "$t/boots/round-1/x/ctxsw.csv"
out=$(cd "$LAB/scripts" && python3 - "$t/boots" <<'EOF' 2>&1
import sys, compare_lib
compare_lib.figures.glibc_states = lambda d: []   # a bench that forgot to say its sides
sys.argv = ["compare-figures", "--benches", "ctxsw", sys.argv[1]]
exec(open("compare-figures").read())
EOF
); r=$?
is "$r" 1 "a figure on a side that is neither kernel: an error"
like "$out" "ctxsw.switch in x is on side 'cmp-base/reg', neither of the comparison's" "  naming the figure and its side"
# ... even beside a figure of the same bench that is placed (a bench that is not missing)
printf '%s\n' 'cmp-base,cmp-base,none,icount,signal,1,1,2900,insn' >> "$t/boots/round-1/x/ctxsw.csv"
out=$(cd "$LAB/scripts" && python3 - "$t/boots" <<'EOF' 2>&1
import sys, compare_lib
compare_lib.figures.glibc_states = lambda d: []
sys.argv = ["compare-figures", "--benches", "ctxsw", sys.argv[1]]
exec(open("compare-figures").read())
EOF
); r=$?
is "$r" 1 "one placed figure does not hide the one that is not"
out=$("$LAB/scripts/compare-figures" --benches ctxsw,cpu-read "$t/boots" 2>&1); r=$?
is "$r" 1 "a named bench without a figure: an error"
like "$out" "no figure of cpu-read in" "  naming the bench"
done_testing
