#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No false sharing in lab-percpu: what a thread writes on every operation (its state, its list
# node) and each CPU's slot start on a 128-byte boundary (a pair of 64-byte lines, the unit the
# adjacent-line prefetcher moves) and fill it, so no two of them share a line. Read from the
# addresses a real run uses (--layout), for several thread counts and strategies.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-percpu
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
line=128

for n in 2 5; do
	out=$("$bin" --check --layout --check-threads $n --check-ops 1000 --disturb none \
		--method list-rseq,list-cas,lock-cmpxchg,counter-tls 2>&1)
	ok $? "$n threads: the runs pass"
	# kind address size, for every thread state, node and slot of every run
	recs=$(sed -n 's/^# layout \([a-z-]*\): thread [0-9]* state \(0x[0-9a-f]*\) size \([0-9]*\) node \(0x[0-9a-f]*\) size \([0-9]*\)$/\1 state \2 \3\n\1 node \4 \5/p;
		s/^# layout \([a-z-]*\): slot [0-9]* \(0x[0-9a-f]*\) size \([0-9]*\)$/\1 slot \2 \3/p' <<<"$out")
	nrec=$(grep -c . <<<"$recs")
	ok $([ "$nrec" -ge $((4 * (2 * n + 1))) ]; echo $?) "$n threads: every state, node and slot reported ($nrec)"
	bad=$(perl -ane 'BEGIN { $L = '$line' } my ($run, $kind, $a, $size) = @F; $a = hex $a;
		print "$run $kind $F[2] not on a $L-byte boundary\n" if $a % $L;
		print "$run $kind size $size is not a multiple of $L\n" if $size % $L;' <<<"$recs")
	is "$bad" "" "$n threads: every state, node and slot starts a $line-byte line and fills whole lines"
	# Within one run, no two written objects share a 128-byte line.
	shared=$(perl -ane 'BEGIN { $L = '$line' } my ($run, $kind, $a, $size) = @F; $a = hex $a;
		for (my $l = int($a / $L); $l * $L < $a + $size; $l++) {
			print "$run: $kind $F[2] shares a line with $seen{$run}{$l}\n" if $seen{$run}{$l};
			$seen{$run}{$l} = "$kind $F[2]";
		}' <<<"$recs")
	is "$shared" "" "$n threads: no two of them share a line"
	first=$(grep -m1 ' state ' <<<"$recs" | awk '{print $3}')
	second=$(grep ' state ' <<<"$recs" | sed -n 2p | awk '{print $3}')
	diag "e.g. thread 0 state at $first, thread 1 at $second ($(( second - first )) bytes apart)"
	ok $([ $(( second - first )) -ge $line ]; echo $?) "$n threads: neighbouring thread states are >= $line bytes apart"
done
done_testing
