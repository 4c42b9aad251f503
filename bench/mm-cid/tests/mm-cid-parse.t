#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mm-cid's parse: a run's reads and strategies as figures, in virtual ns under icount (timed,
# never counted) and ns elsewhere (from the run's accelerator), a row that did not run left out.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for accel in icount tcg; do
	d=$t/$accel
	mkdir -p "$d"
	printf '%s\n' "variant: rseq-y" "accel: $accel" > "$d/mm-cid.meta"
	printf '%s\n' "field,area,status,ns_per_read" "cpu_id,rseq,ok,4.0" "mm_cid,rseq,ENOSYS," > "$d/reads.csv"
	printf '%s\n' "strategy,index,threads,cpus_allowed,cpus_possible,status,ns_per_op" \
		"counter,mm_cid,2,2,2,ok,14.0" "counter,cpu,1,1,2,ok,13.0" > "$d/strategies.csv"
	out=$("$LAB/bench/mm-cid/parse" "$d"); ok $? "$accel: the run parses"
	unit=ns; [ $accel = icount ] && unit=vns
	is "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f2,4,5,8 | tr '\n' ' ')" \
		"read.cpu_id.rseq,$accel,$unit,4.0 counter.mm_cid.t2,$accel,$unit,14.0 counter.cpu.t1.cpus1,$accel,$unit,13.0 " \
		"$accel: figures in $unit, the restricted run marked, the row that did not run left out"
done
done_testing
