#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The per-CPU part of the motivation's report section (bench/rseq-stats/report.py) from a
# made-up motivation-percpu run: exits per Mop and the rseq work per exit come from the
# counters' per-Mop columns (mean over rounds), the work registering added is work on - work
# off; reg - unreg per op and its 95 % interval are lab-ab's (key method,threads; the boot the unit, paired by round, as the meta says), and per work
# event they are divided by the work added per op. Expected figures are computed here from
# the same CSV with awk and lab-ab, not written in.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
AB=$BUILD/host/bin/lab-ab
[ -x "$AB" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
r=$t/data/20260101T000000Z-t-rseq-motivation-percpu-rseq-stats; mkdir -p "$r"
cat > "$r/motivation.meta" <<'M'
stats_variant: rseq-stats
base_variant: rseq-y
release: 6.1.192
rounds: 3
percpu: --threads 1,2 --reps 3 --duration 20
M
echo "release,base_release,round,method,strategy,threads,ops,exit_per_mop,signal_per_mop,slowp_per_mop,ids_per_mop,cs_per_mop,clear_per_mop,fixup_per_mop,exit_off_per_mop,signal_off_per_mop,slowp_off_per_mop" > "$r/motivation-percpu.csv"
echo "variant,accel,round,method,threads,rep,value" > "$r/insn.csv"
for k in 1 2 3; do
	# counter-rseq-cpuid-atomic, 2 threads: exits 40+k per Mop, slowp 10+k, signal 1; off: slowp 2
	echo "6.1.192,6.1.192,$k,counter-rseq-cpuid-atomic,counter,2,1000000,$((40 + k)),1,$((10 + k)),$((11 + k)),0,0,0,$((38 + k)),0,2" >> "$r/motivation-percpu.csv"
	echo "6.1.192,6.1.192,$k,list-cas,list,1,1000000,30,0,10,10,0,0,0,30,0,0" >> "$r/motivation-percpu.csv"
	# lock-rseq, 2 threads: 1 work event per Mop added, a change of tenths of an instruction
	echo "6.1.192,6.1.192,$k,lock-rseq,lock,2,1000000,1000,0,3,3,0,0,0,1000,0,2" >> "$r/motivation-percpu.csv"
	for p in 1 2 3; do
		awk -v k=$k -v p=$p 'BEGIN {
			printf "reg,icount,%d,counter-rseq-cpuid-atomic,2,%d,%.4f\n", k, p, 9 + 0.001 * k * p
			printf "unreg,icount,%d,counter-rseq-cpuid-atomic,2,%d,%.4f\n", k, p, 9 - 0.0005 * p
			printf "reg,icount,%d,list-cas,1,%d,81.1\nunreg,icount,%d,list-cas,1,%d,81.1\n", k, p, k, p
			printf "reg,icount,%d,lock-rseq,2,%d,%.4f\n", k, p, 24 + 0.1 * k + 0.05 * p
			printf "unreg,icount,%d,lock-rseq,2,%d,24\n", k, p }' >> "$r/insn.csv"
	done
done
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
ok $? "the report runs on a made-up motivation-percpu run" || diag "$(tail -n 5 "$t/err")"
sec=$(sed -n '/^rseq work on exit to user/,$p' "$t/plots/report.txt")
like "$sec" "^6\\.1\\.192 \\(rseq-stats; base rseq-y\\), icount" "the run's kernel and variants"
like "$sec" "^  3 rounds, lab-percpu --threads 1,2 --reps 3" "the run's rounds and lab-percpu options"
# c-rseq-cpuid/2: exits 42, work (12 + 1) / 42 on, 2 / 41 off, added 13 - 2 per Mop.
want=$(awk 'BEGIN { printf "c-rseq-cpuid/2 +%.1f +%.1f%% +%.1f%% +%.2f", 42, 100 * 13 / 42, 100 * 2 / 40, 11 }')
like "$sec" "^${want}\$" "counter row: exits per Mop, work per exit on and off, work added per Mop"
ab=$("$LAB/scripts/ab-csv" "$AB" --csv "$r/insn.csv" --key method,threads --unit round --pair round --base unreg --format tsv)
read -r d lo hi < <(awk -F'\t' '$1 == "counter-rseq-cpuid-atomic,2" && $2 == "reg" { print $12, $19, $20 }' <<< "$ab")
unreg=$(awk -F'\t' '$1 == "counter-rseq-cpuid-atomic,2" && $2 == "unreg" { printf "%.1f", $5 }' <<< "$ab")
exp_d=$(awk -v d="$d" -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%+.3f [%+.3f, %+.3f]", d, lo, hi }')
exp_w=$(awk -v d="$d" -v lo="$lo" -v hi="$hi" -v w=11e-6 'BEGIN { printf "%+.0f [%+.0f, %+.0f]", d / w, lo / w, hi / w }')
esc() { sed 's/[][+.]/\\&/g' <<< "$1"; }
like "$sec" "^c-rseq-cpuid/2 +$(esc "$unreg") +$(esc "$exp_d") +$(esc "$exp_w")\$" \
	"counter row: unreg, lab-ab's reg - unreg [CI], per work event added [CI]"
like "$sec" "^list-cas/1 +81\\.1 +[-+]0\\.000 \\[[-+]0\\.000, [-+]0\\.000\\] " "list row: the same instructions reg and unreg"
# Per work event beyond 10000 in thousands: lock-rseq/2's change over 1e-6 work events per op.
read -r d lo hi < <(awk -F'\t' '$1 == "lock-rseq,2" && $2 == "reg" { print $12, $19, $20 }' <<< "$ab")
exp_w=$(awk -v d="$d" -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%+.0fk [%+.0fk, %+.0fk]", d * 1e3, lo * 1e3, hi * 1e3 }')
like "$sec" "^lock-rseq/2 .* $(esc "$exp_w")\$" "per work event beyond 10000: in thousands"
is "$(awk 'length > 72' "$t/plots/report.txt" | wc -l)" 0 "report.txt within 72 columns"
done_testing
