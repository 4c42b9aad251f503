#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# percpu-collect (motivation-percpu's tables) on made-up boots: the stats boot's counters per
# Mop with the statsoff boot's exit, signal and slowp of the same row beside them; one insn.csv
# line per repetition of reg and unreg, ns per op over the thread count; rows that did not run
# (ENOSYS) left out; a boot whose glibc registration is not the one asked for, a stats boot
# without counters or a statsoff boot without the row: one error line and no file.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
C=$LAB/bench/rseq-stats/percpu-collect
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
H=method,strategy,threads,status,glibc_rseq,ops_total,ns_reps,k_exit_per_mop,k_signal_per_mop,k_slowp_per_mop,k_fastp_per_mop,k_ids_per_mop,k_cs_per_mop,k_clear_per_mop,k_fixup_per_mop
# boot DIR ROUND NAME GLIBC SCALE [KS]: a percpu.csv of three rows, ns per op scaled by
# SCALE, the counters' columns KS (default made from SCALE and ROUND: k = 10 SCALE + ROUND).
boot() {
	local d=$1/boots/$2-$3 g=$4 sc=$5 ks=${6:-} k m s th
	k=$((sc * 10 + $2))
	[ -n "$ks" ] || ks="$k,1,$((k / 2)),0,$((k / 2 + 1)),3,1,2"
	mkdir -p "$d"
	echo "$H" > "$d/percpu.csv"
	for row in "counter-rseq counter 2" "list-cas list 1" "lock-rseq lock 1"; do
		read -r m s th <<< "$row"
		echo "$m,$s,$th,ok,$g,1000000,$((14 * sc * th)).5;$((15 * sc * th));$((16 * sc * th)),$ks" >> "$d/percpu.csv"
	done
}
# make_boots DIR: two rounds of four boots.
make_boots() {
	for r in 1 2; do
		boot "$1" $r stats on $r
		boot "$1" $r statsoff off $((r + 2))
		boot "$1" $r reg on 1
		boot "$1" $r unreg off 2
	done
}
d=$t/ok; make_boots "$d"
"$C" "$d" 2 6.1.192 6.1.192 2> "$t/err"
ok $? "made-up boots are collected" || diag "$(cat "$t/err")"
is "$(wc -l < "$d/motivation-percpu.csv")" 7 "a header and a line per round and row"
# round 2, counter-rseq (2 threads): stats k = 2*10+2 = 22: 22,1,11,0,12,3,1,2; statsoff k = 4*10+2 = 42: 42,1,21
is "$(grep '^6.1.192,6.1.192,2,counter-rseq,' "$d/motivation-percpu.csv")" \
	"6.1.192,6.1.192,2,counter-rseq,counter,2,1000000,22,1,11,12,3,1,2,42,1,21" \
	"the stats row's counters (fastp left out), then statsoff's exit, signal, slowp"
# reg (scale 1), counter-rseq, 2 threads: ns 28.5;30;32 per thread -> 14.25, 15, 16 per op
is "$(csv_cols "$d/insn.csv" rep value --where variant=reg --where accel=icount --where round=1 \
	--where method=counter-rseq --where threads=2 | tr '\t\n' ', ')" \
	"1,14.2500 2,15.0000 3,16.0000 " "reg's repetitions, instructions per op over the 2 threads"
is "$(grep -c '^unreg,icount,2,list-cas,1,' "$d/insn.csv")" 3 "unreg: a line per repetition"
d=$t/enosys; make_boots "$d"
for n in stats statsoff reg unreg; do
	sed -i 's/^lock-rseq,lock,1,ok,/lock-rseq,lock,1,ENOSYS,/' "$d/boots/1-$n/percpu.csv"
done
"$C" "$d" 1 6.1.192 6.1.192 2> "$t/err"
ok $? "a row that did not run is no error"
is "$(grep -c lock-rseq "$d/motivation-percpu.csv" "$d/insn.csv" | cut -d: -f2 | tr '\n' ' ')" "0 0 " \
	"an ENOSYS row is left out"
# fails CASE DIR WANT: percpu-collect on DIR fails with one error line matching WANT, no file.
fails() {
	local rc=0
	"$C" "$2" 2 6.1.192 6.1.192 2> "$t/err" || rc=$?
	is "$rc:$(grep -c '^error: ' "$t/err")" "1:1" "$1: an error, one line"
	like "$(cat "$t/err")" "$3" "$1: the error says why"
	is "$(ls "$2" | tr '\n' ' ')" "boots " "$1: no file written"
}
d=$t/mode; make_boots "$d"; boot "$d" 2 unreg on 2
fails "unreg boot registered by glibc" "$d" "round 2, unreg: glibc's registration is not 'off'"
d=$t/nostats; make_boots "$d"; boot "$d" 1 stats on 1 ",,,,,,,"
fails "no counters in the stats boot" "$d" "round 1, stats: no counter deltas for counter-rseq"
d=$t/norow; make_boots "$d"; sed -i '/^list-cas,/d' "$d/boots/2-statsoff/percpu.csv"
fails "a row missing from statsoff" "$d" "round 2, statsoff: no counter deltas for list-cas \\(1 threads\\)"
d=$t/noboot; make_boots "$d"; rm -r "$d/boots/1-reg"
fails "a boot without its CSV" "$d" "round 1, reg: no "
done_testing
