#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real liburcu in guests under icount, RSEQ=y against RSEQ=n: on rseq-y, glibc's rseq on
# makes an add+del with the split count cheaper than with it off (two sched_getcpu calls read
# the rseq area instead of calling the vDSO); on rseq-n glibc cannot register, both rows run
# with glibc's rseq "enosys" and cost the same; the control without the count costs exactly
# the same instructions on and off, on both kernels. The split-count rows are virtual ns
# (their path changes with n), the control counted instructions.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
require_image rseq-y rseq-n
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# fig VARIANT FIGURE: the figure's value and unit in VARIANT's run ("value unit").
fig() { run_fig "$t/data/*-urcu-lfht-$1" "$2"; }
for v in rseq-y rseq-n; do
	DATA=$t/data ACCEL=icount GUEST_BOOTS=2 "$LAB/bench/urcu-lfht/run" $v > "$t/$v.log" 2>&1
	ok $? "$v: two boots under icount"
	[ $? -eq 0 ] || diag "$(tail -n 5 "$t/$v.log")"
	for f in lfht-acct-rseq-on lfht-acct-rseq-off; do
		like "$(fig $v $f)" "^[0-9.]+ vns$" "$v: $f in virtual ns"
	done
	on=$(fig $v lfht-plain-rseq-on) off=$(fig $v lfht-plain-rseq-off)
	like "$on" "^[0-9.]+ insn$" "$v: the control is counted"
	is "$off" "$on" "$v: the control costs the same instructions with glibc's rseq on and off"
done
read -r on _ <<<"$(fig rseq-y lfht-acct-rseq-on)"
read -r off _ <<<"$(fig rseq-y lfht-acct-rseq-off)"
diag "rseq-y: split count, glibc rseq on $on, off $off vns"
ok "$(awk -v a="$on" -v b="$off" 'BEGIN { print !(b - a >= 20) }')" \
	"rseq-y: glibc's rseq on saves at least 20 vns an add+del ($on vs $off)"
d=$(ls -d "$t/data/"*-urcu-lfht-rseq-n)
is "$("$LAB/scripts/csv" "$d/urcu-lfht.csv" glibc_rseq --where method=lfht-acct-rseq-on)" enosys \
	"rseq-n: glibc could not register"
read -r on _ <<<"$(fig rseq-n lfht-acct-rseq-on)"
read -r off _ <<<"$(fig rseq-n lfht-acct-rseq-off)"
diag "rseq-n: split count, glibc rseq on $on, off $off vns"
ok "$(awk -v a="$on" -v b="$off" 'BEGIN { d = a - b; if (d < 0) d = -d; print !(d <= 0.01 * b) }')" \
	"rseq-n: on and off within 1 % ($on vs $off)"
done_testing
