#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-percpu --explore, the bounded exploration of a strategy's schedules (explore.h): each
# broken example of a class the boundary check (--interleave) does not name is refused in its
# own words, with the file and line and the schedule; a built-in row is accepted, and the
# result says the bound and what was explored. x86-64 only (the decoder's per-arch part).
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
ex=$LAB/bench/percpu/examples
if [ "$(uname -m)" != x86_64 ] || [ "$(nproc)" -lt 2 ]; then
	skip "the exploration needs x86-64 and two CPUs" "explore"
	done_testing
	exit 0
fi
eval "$(make -s --no-print-directory -C "$LAB" strategy-env)"
build() {
	local f=$1 o=$t/$(basename "$1" .c)
	shift
	$STRATEGY_CC $STRATEGY_CFLAGS "$@" -DLAB_STRATEGY_SYM=lab_strategies_user_1 -c -o "$o.o" "$f" &&
		"$LAB/bench/percpu/strategy-table" $STRATEGY_BUILTIN lab_strategies_user_1 > "$o-table.c" &&
		$STRATEGY_CC $STRATEGY_CFLAGS -o "$o" "$o-table.c" "$o.o" "$STRATEGY_LIB" $STRATEGY_LIBS &&
		echo "$o"
}
# refused FILE NAME REGEX WHAT [CFLAGS]: "not ok" with REGEX, a file:line, a bound line.
refused() {
	local f=$1 name=$2 re=$3 what=$4 b out
	shift 4
	b=$(build "$f" "$@") || { bad "$what: the example builds"; return; }
	out=$(bounded 120 "$b" --explore --method "$name" 2>&1)
	like "$(grep "^not ok" <<<"$out")" "not ok 1 - $name: $re" "$what: refused in its words"
	# a broken invariant at a schedule's end has no one instruction to name: its schedule
	if [ -z "${at_end:-}" ]; then
		like "$(grep "^not ok" <<<"$out")" " at [^ ]*\.c:[0-9]+" "$what: ... with its file and line"
	else
		like "$out" "#   $name: schedule: .*T[0-2] (preempted|migrated|signalled)" "$what: ... with its schedule, its events kept"
		like "$(grep "^not ok" <<<"$out")" " at [^ ]*\.c:[0-9]+ .*\(its operation\)" "$what: ... and where its operation is declared"
	fi
	like "$out" "#   $name: bound 2, threads 3, cpus 2, runs [0-9]+, states [1-9][0-9]*" \
		"$what: ... and the bound and the states explored"
}
refused "$ex/early-store-x86_64.c" counter-early-store "early store: CPU [0-9]+'s slot\[[0-9]+\]\.v is written inside the section before its commit" \
	"an early store before the commit"
refused "$ex/late-commit-x86_64.c" counter-late-commit "the commit is not the section's last instruction" \
	"a commit that is not the section's last instruction"
refused "$ex/range-misses-commit-x86_64.c" counter-range-misses-commit "post-commit range misses the commit" \
	"a range that misses the commit"
# the model's own abort finds it (not the real kernel killing the child later)
refused "$ex/bad-signature-x86_64.c" counter-bad-signature "abort signature 0x0badc0de .* is not the one the thread registered \(0x53053053\): the kernel kills the thread \(SIGSEGV\) at the section's first abort" \
	"a signature mismatch"
refused "$ex/no-retry.c" counter-no-retry "an abort without a retry: T[0-2]'s section aborted" \
	"an abort without a retry"
refused "$ex/own-data-stale-cpu-x86_64.c" counter-own-stale-cpu "ownership: CPU [0-9]+'s own data\[[0-9]+\]\+0 written by a section that ran on CPU [0-9]+" \
	"a migration race on the strategy's own (declared) data"
refused "$ex/own-data-stale-cpu-x86_64.c" counter-own-stale-cpu "ownership: CPU [0-9]+'s data at 0x[0-9a-f]+ written by a section that ran on CPU [0-9]+" \
	"... and on its own data undeclared (the owner inferred)" -DLAB_UNDECLARED
refused "$LAB/bench/percpu/tests/strategies/push-after-section.c" list-push-after-section \
	"ownership: a plain store to CPU [0-9]+'s slot\[[0-9]+\]\.v outside any rseq critical section" \
	"a store after a right section: outside any section, not a range that misses its commit"
at_end=1 refused "$ex/list-aba.c" list-aba "(3 of 4 nodes|a node is in the lists twice)" \
	"ABA in a list pop"
# The schedule names each word by its place in a slot (v, tagged, ptr, word, count, bad, holder)
b=$(build "$ex/lock-ignores-holder.c")
out=$(bounded 120 "$b" --explore --method lock-ignores-holder 2>&1)
like "$out" "#   lock-ignores-holder: schedule: .*load slot\[0\]\.v; .*store slot\[0\]\.holder; .*load slot\[0\]\.ptr; .*load slot\[0\]\.word; .*update slot\[0\]\.count" \
	"a lock that ignores its holder: its schedule names the slot's words (v, holder, ptr, word, count)"
# With no event at all, only the CPUs running in parallel lose an increment of a plain global
# counter: the exploration interleaves them at every shared access, not only at events.
b=$(build "$LAB/bench/percpu/tests/strategies/global-plain.c")
out=$(bounded 60 "$b" --explore --bound 0 --method counter-global-plain 2>&1)
like "$(grep "^not ok" <<<"$out")" "not ok 1 - counter-global-plain: lost update" \
	"two CPUs in parallel: a plain global counter's lost update found with no event (bound 0)"
like "$out" "#   counter-global-plain: schedule: .*T2 cpu[0-9]: load .*T[01] cpu[0-9]: store" \
	"... its schedule interleaves the CPUs' load and store"
# On one CPU nothing runs in parallel and no thread migrates: the lost update needs a
# preemption between the load and the store.
out=$(taskset -c "$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')" "$b" --explore --bound 1 --method counter-global-plain 2>&1)
like "$(grep "^not ok" <<<"$out")" "not ok 1 - counter-global-plain: lost update" \
	"one CPU: the lost update found by a preemption"
like "$out" "#   counter-global-plain: schedule: .*T[0-2] preempted, T[0-2] runs" "... its schedule names it"
# A built-in row: accepted, every schedule of its bound explored.
out=$(bounded 120 "$bin" --explore --method counter-rseq-cpuid-atomic 2>&1); rc=$?
is "$rc" 0 "counter-rseq-cpuid-atomic: accepted"
like "$out" "#   counter-rseq-cpuid-atomic: bound 2, threads 3, cpus 2, runs [1-8], states [1-9][0-9]*, schedules [1-9][0-9]*" \
	"... every schedule with up to 2 events explored, each state once"
# The state cache skips a state seen before with as many events left: everything after it was
# explored then, so the cache loses no end state. Counted with it and without it (every state
# explored as often as it is reached), the end states are the same.
ends() { sed -n "s/^#   $2: bound 2, .*, end states \([0-9]*\),.*/\1/p" <<<"$1"; }
for m in counter-tls counter-rseq; do
	cached=$(bounded 120 "$bin" --explore --method "$m" 2>&1)
	uncached=$(LAB_EX_NOCACHE=1 bounded 120 "$bin" --explore --method "$m" 2>&1)
	like "$(ends "$cached" "$m")" "^[1-9][0-9]*$" "$m: its end states counted"
	is "$(ends "$cached" "$m")" "$(ends "$uncached" "$m")" \
		"$m: as many end states with the state cache as without it"
done
done_testing
