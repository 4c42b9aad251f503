#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-percpu --interleave, the deterministic interleaving check. Every built-in strategy passes
# with every boundary of its operation interrupted once in each pass (interleavings =
# instructions x passes), and the rows with rseq sections see the kernel abort some. Each
# broken example is refused on every run, naming the invariant and the instruction the thread
# was stopped at: a commit that is not the section's last instruction (counted twice, at the
# nop), a section that never compares the CPU (ownership, after a move), a lock that ignores
# its holder (mutual exclusion), a plain load-add-store (lost update). The rseq examples in
# assembler are x86-64's; elsewhere the test says so.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
ex=$LAB/bench/percpu/examples
cpus=$(nproc)
passes=$((cpus > 1 ? 3 : 2))

out=$(bounded 300 "$bin" --interleave 2>&1); rc=$?
is "$rc" 0 "every built-in strategy passes the interleaving check"
while read -r name; do
	cov=$(sed -n "s/^#   $name: instructions \([0-9]*\), passes \([0-9]*\), interleavings \([0-9]*\), aborts \([0-9]*\), .*/\1 \2 \3 \4/p" <<<"$out")
	read -r insn p inter aborts <<<"$cov"
	like "$(grep "^ok [0-9]* - $name:" <<<"$out")" "every boundary interleaved" "$name: ok"
	is "$p:$inter" "$passes:$((${insn:-0} * passes))" "$name: each of its ${insn:-?} instructions interleaved in each pass"
	case $name in counter-rseq|list-rseq|lock-rseq)
		ok "$([ "${aborts:-0}" -gt 0 ]; echo $?)" "$name: its section aborted where it was interrupted ($aborts times)" ;;
	esac
done < <("$bin" --list | awk '{print $1}')

# A strategy file built as make strategy builds it (its flags, the lab's archive).
eval "$(make -s --no-print-directory -C "$LAB" strategy-env)"
build() {
	local f=$1 o=$t/$(basename "$1" .c)
	$STRATEGY_CC $STRATEGY_CFLAGS -DLAB_STRATEGY_SYM=lab_strategies_user_1 -c -o "$o.o" "$f" &&
		"$LAB/bench/percpu/strategy-table" $STRATEGY_BUILTIN lab_strategies_user_1 > "$o-table.c" &&
		$STRATEGY_CC $STRATEGY_CFLAGS -o "$o" "$o-table.c" "$o.o" "$STRATEGY_LIB" ${STRATEGY_LIBS:--lcapstone -lpthread -ldl -lm} &&
		echo "$o"
}
# refused FILE NAME REGEX WHAT: N runs of the check, each "not ok" with the same line matching
# REGEX (CPU numbers aside: a run starts on the CPU it finds itself on).
runs=${INTERLEAVE_RUNS:-3}
refused() {
	local b lines
	b=$(build "$1") || { bad "$4: the example builds"; return; }
	lines=$(for _ in $(seq "$runs"); do
		bounded 120 "$b" --interleave --method "$2" 2>&1 | grep "^not ok\|^ok" |
		sed 's/CPU [0-9][0-9]*/CPU N/g'; done | sort | uniq -c)
	is "$(wc -l <<<"$lines"):$(awk '{print $1}' <<<"$lines")" "1:$runs" "$4: the same verdict in $runs of $runs runs"
	like "$lines" "not ok 1 - $2: $3" "... refused: $3"
}
refused "$ex/broken-counter.c" counter-broken-lms \
	"lost update: preempted at op\+0x[0-9a-f]+ \(.*\), outside any rseq critical section; .*\(sum 1, want 2\)$" \
	"a plain load-add-store after reading the CPU"
refused "$ex/lock-ignores-holder.c" lock-ignores-holder \
	"mutual exclusion broken: a thread got CPU N's lock while another held it" \
	"a lock that ignores its holder"
if [ "$(uname -m)" = x86_64 ]; then
	refused "$ex/late-commit-x86_64.c" counter-late-commit \
		"counted twice: preempted at op\+0x[0-9a-f]+ \(.nop.\), inside an rseq critical section, which aborted; .*\(sum 3, want 2\)$" \
		"a commit that is not the section's last instruction"
	if [ "$cpus" -gt 1 ]; then
		refused "$ex/stale-cpu-x86_64.c" counter-stale-cpu \
			"ownership: CPU N's slot changed by a commit at op\+0x[0-9a-f]+ \(.add.*\) that ran on CPU N \(after being moved at op\+0x[0-9a-f]+ .*\)$" \
			"a section that never compares the CPU"
	else
		skip "one CPU: no migration pass" "a section that never compares the CPU"
	fi
else
	skip "the examples in assembler are x86-64's" "a late commit, a CPU never compared"
fi
done_testing
