#!/bin/sh
# SPDX-License-Identifier: MIT
# lab-hackbench EXPECT REPS GROUPS LOOPS DATASIZE (in the guest, as /lab/bin/lab-hackbench):
# check that glibc's rseq registration is EXPECT (on, off, none) for a program on the same
# libc.so as hackbench, then run Debian's hackbench REPS times in each of process/thread mode
# x pipe/socket, in that order, leaving each run's output in /out/hb-MODE-IPC-REP.out, its
# exit status in .rc and, when the kernel has our rseq counters, the counters before and after
# in .before/.after. Parsing is done on the host (scripts/hackbench-parse).
set -u
[ $# -eq 5 ] || { echo "usage: lab-hackbench EXPECT REPS GROUPS LOOPS DATASIZE" >&2; exit 2; }
expect=$1 reps=$2 groups=$3 loops=$4 size=$5
# hackbench is Debian's dynamic binary: run it through the loader we carried along.
ld="/lab/bin/ld-linux-x86-64.so.2 --library-path /lab/bin"
stats=/sys/kernel/debug/rseq/stats

rs=$($ld /lab/bin/lab-rseq-size "$expect") || exit 3
echo "rseq_size: $rs" > /out/hb-guest.info
echo "glibc_tunables: ${GLIBC_TUNABLES:-}" >> /out/hb-guest.info
[ -r $stats ] && echo "rseq_stats: yes" >> /out/hb-guest.info

rep=1
while [ $rep -le "$reps" ]; do
	for mode in process thread; do
		for ipc in pipe socket; do
			name=/out/hb-$mode-$ipc-$rep
			set -- -g "$groups" -l "$loops" -s "$size"
			[ $mode = thread ] && set -- -T "$@"
			[ $ipc = pipe ] && set -- -p "$@"
			[ -r $stats ] && cat $stats > "$name.before"
			$ld /lab/bin/hackbench.bin "$@" > "$name.out" 2>&1
			echo $? > "$name.rc"
			[ -r $stats ] && cat $stats > "$name.after"
			echo "hackbench $mode $ipc $rep: $(grep '^Time:' "$name.out")"
		done
	done
	rep=$((rep + 1))
done
exit 0
