#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real jemalloc in guests under icount: every row timed (virtual ns: jemalloc's periodic
# work makes counts non-linear); on rseq-y glibc's rseq on and off cost the same within 1 %
# (no sched_getcpu an operation), through the thread cache and straight to the arena; on rseq-n
# glibc cannot register (enosys) and the thread cache's two rows still agree.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
require_image rseq-y rseq-n
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# fig VARIANT FIGURE: the figure's value and unit in VARIANT's run ("value unit").
fig() { run_fig "$t/data/*-jemalloc-$1" "$2"; }
# same VARIANT OPERATION: its rseq-on and -off figures agree within 1 % (one test).
same() {
	local on off
	read -r on _ <<<"$(fig "$1" "$2-rseq-on")"
	read -r off _ <<<"$(fig "$1" "$2-rseq-off")"
	ok "$(awk -v a="$on" -v b="$off" 'BEGIN { d = a - b; if (d < 0) d = -d; print !(b > 0 && d <= 0.01 * b) }')" \
		"$1: $2 with glibc's rseq on and off within 1 % ($on vs $off vns)"
}
for v in rseq-y rseq-n; do
	DATA=$t/data ACCEL=icount GUEST_BOOTS=2 "$LAB/bench/jemalloc/run" $v > "$t/$v.log" 2>&1
	ok $? "$v: two boots under icount"
	[ $? -eq 0 ] || diag "$(tail -n 5 "$t/$v.log")"
	is "$("$LAB/scripts/csv" "$(ls -d "$t/data/"*-jemalloc-$v)/figures.csv" unit --where figure=je-tcache-rseq-on)" \
		vns "$v: timed, in virtual ns"
	same $v je-tcache
done
same rseq-y je-arena
d=$(ls -d "$t/data/"*-jemalloc-rseq-n)
is "$("$LAB/scripts/csv" "$d/jemalloc.csv" glibc_rseq --where method=je-tcache-rseq-on)" enosys \
	"rseq-n: glibc could not register"
done_testing
