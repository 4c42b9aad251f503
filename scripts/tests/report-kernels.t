#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make modern's report: from made-up runs of rseq-y (6.1) and rseq-y-6.12 (6.12) the
# "Kernels side by side" section has one column per release with each run's own figures, in
# report.txt within 72 columns; a variant that ran on one kernel only gives no section; and
# two hackbench runs of other kernels (6.1's, 6.12's) each keep their own section, the 6.1
# one not displaced by the newer 6.12 one.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data; mkdir -p "$d"
# cpuread DIR VARIANT RELEASE RSEQ-INSN SYSCALL-INSN; mmcid DIR VARIANT RELEASE NS SLOTS
cpuread() {
	mkdir -p "$d/$1"
	printf 'variant,accel,method,label,threads,status,instructions_per_op,ns_per_op\n' > "$d/$1/cpu-read.csv"
	printf '%s,icount,rseq-own,Read CPU from rseq cpu_id,1,ok,%s,%s\n' "$2" "$4" "$4" >> "$d/$1/cpu-read.csv"
	printf '%s,icount,syscall,getcpu system call,1,ok,%s,%s\n' "$2" "$5" "$5" >> "$d/$1/cpu-read.csv"
	printf 'kernel_release: %s\nhost: test\n' "$3" > "$d/$1/cpu-read.meta"
}
mmcid() {
	mkdir -p "$d/$1"
	printf 'field,area,area_size,status,ns_per_read,value\nmm_cid,own,32,%s,%s,0\n' \
		"$([ "$3" = 6.1.192 ] && echo unavailable || echo ok)" "$4" > "$d/$1/reads.csv"
	printf 'strategy,index,threads,cpus_allowed,status,ns_per_op,slots_touched\ncounter,mm_cid,4,1,ok,%s,%s\n' \
		"$4" "$5" > "$d/$1/strategies.csv"
	# (an older run's meta names the release "kernel:")
	printf 'variant: %s\n%s: %s\naccel: tcg\n' "$2" "${6:-kernel_release}" "$3" > "$d/$1/mm-cid.meta"
}
cpuread 20260101T000000Z-t-rseq-y rseq-y 6.1.192 7.01 186
cpuread 20260101T000100Z-t-rseq-y-6.12 rseq-y-6.12 6.12.118 8.02 231
cpuread 20260101T000200Z-t-rseq-n rseq-n 6.1.192 3 180
mmcid 20260101T000300Z-t-mm-cid-rseq-y rseq-y 6.1.192 12.5 3
mmcid 20260101T000400Z-t-mm-cid-rseq-y-6.12 rseq-y-6.12 6.12.118 13.5 1 kernel
DATA=$d PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
ok $? "the report runs on the made-up runs"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
sec=$(sed -n '/^Kernels side by side/,/^runs:/p' <<< "$txt")
like "$sec" "^rseq-y, icount: instructions per op" "a table for rseq-y under icount"
like "$sec" "^figure +6\.1\.192 +6\.12\.118\$" "  its columns: 6.1.192 then 6.12.118"
like "$sec" "^Read CPU from rseq cpu_id +7\.01 +8\.02\$" "  each kernel's own rseq read"
like "$sec" "^getcpu system call +186\.00 +231\.00\$" "  and getcpu system call"
like "$sec" "^rseq-y, tcg: ns per op" "a table for the mm_cid run under TCG"
like "$sec" "^read mm_cid \(own area\) +unavailable +13\.50\$" "  the mm_cid read: unavailable on 6.1"
like "$sec" "^counter by mm_cid, 4 thr, 1 CPUs +12\.50 /3 +13\.50 /1\$" "  a strategy with its slots"
is "$(grep -c '^rseq-n' <<< "$sec")" 0 "rseq-n ran on one kernel only: no table"
is "$(awk 'length > 72' "$t/plots/report.txt" | wc -l)" 0 "report.txt within 72 columns"

# TCG runs: a run merged over boots shows +-half the range between them; a run of one boot
# (its ns_min and ns_max its reps') shows none.
tcg() {
	mkdir -p "$d/$1"
	printf 'variant,accel,method,label,threads,status,ns_per_op,ns_min,ns_max
%s,tcg,vdso,vDSO getcpu,1,ok,%s
' \
		"$2" "$4" > "$d/$1/cpu-read.csv"
	printf 'kernel_release: %s
host: test
%s' "$3" "$5" > "$d/$1/cpu-read.meta"
}
tcg 20260101T000700Z-t-rseq-n rseq-n 6.1.192 "30.00,27.00,33.00" "guest_units: 5 boots\n"
tcg 20260101T000800Z-t-rseq-n-6.12 rseq-n-6.12 6.12.118 "40.00,20.00,60.00" ""
DATA=$d PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
sec=$(sed -n '/^Kernels side by side/,/^runs:/p' "$t/plots/report.txt")
like "$sec" "^vDSO getcpu +30\.00 ±10% +40\.00\$" \
	"tcg: +-half the boots' range (27-33: ±10%) for a run of boots, none for one boot's reps"

# Two hackbench runs, the newer one of 6.12 kernels: both sections stay.
fx=$LAB/scripts/tests/fixtures/report-data/20260101T000100Z-fixture-hackbench
cp -r "$fx" "$d/20260101T000500Z-t-hackbench"
cp -r "$fx" "$d/20260101T000600Z-t-hackbench"
sed -i 's/^kernel rseq-\([ny]\): 6\.1\.192/kernel rseq-\1-6.12: 6.12.118/' "$d/20260101T000600Z-t-hackbench/hackbench.meta"
sed -i 's/^rseq-\([ny]\)\([,/]\)/rseq-\1-6.12\2/' "$d/20260101T000600Z-t-hackbench/hackbench.csv"
DATA=$d PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" "^hackbench A/B, 6\.1\.192 \(" "hackbench: a section for the 6.1 run"
like "$txt" "^hackbench A/B, 6\.12\.118 \(" "and one for the 6.12 run"
like "$txt" "^run: 20260101T000500Z-t-hackbench on" "the 6.1 section keeps its run"
like "$txt" "^kernels: rseq-n-6\.12 6\.12\.118, rseq-y-6\.12 6\.12\.118\$" "the 6.12 section names its kernels"
like "$txt" "^ +rseq-y-6\.12/unreg +[0-9]+ " "  and its columns by their whole names (rseq-y-6.12/unreg)"
like "$(tr '\n' ' ' <<< "$txt")" "thread, socket: rseq-y-6\.12 \(RSEQ=y\) with glibc registration: [^:]* vs RSEQ=n " \
	"  its sentences call rseq-n-6.12 RSEQ=n"
done_testing
