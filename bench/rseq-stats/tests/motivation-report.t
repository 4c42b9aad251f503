#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The motivation's report section (bench/rseq-stats/report.py) from a made-up run: exits per
# message and the share of exits doing rseq work come from the counters' columns; the change
# reg - unreg per message and its 95 % interval are lab-ab's; per work event they are divided
# by the work registering added per message (work on - work off). Expected figures are
# computed here from the same CSV with awk and lab-ab, not written in.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
AB=$BUILD/host/bin/lab-ab
[ -x "$AB" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
r=$t/data/20260101T000000Z-t-rseq-motivation-rseq-stats-6.12; mkdir -p "$r"
cat > "$r/motivation.meta" <<'M'
stats_variant: rseq-stats-6.12
base_variant: rseq-y-6.12
release: 6.12.118
rounds: 3
reps_per_boot: 1
hackbench: -g 1 -l 10 -s 100, 4000 messages per run; process and thread, pipe and socket
M
h=release,base_release,round,rep,mode,ipc,messages,exit,signal,slowp,fastp,ids,cs,clear,fixup,idle_stats,exit_off,signal_off,slowp_off,insn_reg,idle_reg,insn_unreg,idle_unreg
echo "$h" > "$r/motivation.csv"
echo "variant,accel,round,rep,mode,ipc,value" > "$r/insn.csv"
for k in 1 2 3; do
	for m in process thread; do
		# thread: 8000 exits, 40+k slowp, 2 signals; process: 9000, 400+k; off: no work
		e=$([ $m = thread ] && echo 8000 || echo 9000) s=$([ $m = thread ] && echo $((40 + k)) || echo $((400 + k)))
		reg=$((4000 * 2000 + 1000 * k * k)) unreg=$((4000 * 2000 - 500 * k))
		echo "6.12.118,6.12.118,$k,1,$m,pipe,4000,$e,2,$s,0,$((s + 2)),0,0,0,0,$e,0,0,$reg,0,$unreg,0" >> "$r/motivation.csv"
		awk -v k=$k -v m=$m -v a=$reg -v b=$unreg 'BEGIN { printf "reg,icount,%d,1,%s,pipe,%.3f\nunreg,icount,%d,1,%s,pipe,%.3f\n", k, m, a / 4000, k, m, b / 4000 }' >> "$r/insn.csv"
	done
done
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
ok $? "the report runs on a made-up motivation run"
sec=$(sed -n '/^rseq work on exit to user/,$p' "$t/plots/report.txt")
like "$sec" "^6\\.12\\.118 \\(rseq-stats-6\\.12; base rseq-y-6\\.12\\), icount" "the run's kernel and variants"
# thread/pipe: exits/msg 2, work/exit (41+42+43)/3 + 2 over 8000.
want=$(awk 'BEGIN { printf "thr/pipe +%.3f +%.2f%% +0\\.00%% +%.3f", 8000 / 4000, 100 * (42 + 2) / 8000, 44 / 44 }')
like "$sec" "^${want}\$" "thread/pipe: exits per message, work per exit on and off, ids per work"
# lab-ab's interval of reg - unreg for thread/pipe, and the same over the work per message.
ab=$("$LAB/scripts/ab-csv" "$AB" --csv "$r/insn.csv" --key mode,ipc --unit round --pair round --base unreg --format tsv | awk -F'\t' '$1 == "thread,pipe" && $2 == "reg"')
read -r d lo hi < <(awk -F'\t' '{ print $12, $19, $20 }' <<< "$ab")
dw=$(awk 'BEGIN { print 44 / 4000 }')
exp_d=$(awk -v d="$d" -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%+.1f [%+.1f, %+.1f]", d, lo, hi }')
exp_w=$(awk -v d="$d" -v lo="$lo" -v hi="$hi" -v w="$dw" 'BEGIN { printf "%+.0f [%+.0f, %+.0f]", d / w, lo / w, hi / w }')
unreg=$("$LAB/scripts/ab-csv" "$AB" --csv "$r/insn.csv" --key mode,ipc --unit round --pair round --base unreg --format tsv | awk -F'\t' '$1 == "thread,pipe" && $2 == "unreg" { printf "%.1f", $5 }')
esc() { sed 's/[][+.]/\\&/g' <<< "$1"; }
like "$sec" "^thr/pipe +$(esc "$unreg") +$(esc "$exp_d") +0\\.0110 +$(esc "$exp_w")\$" \
	"thread/pipe: unreg, lab-ab's reg - unreg [CI], work per message, per work event [CI]"
is "$(awk 'length > 72' "$t/plots/report.txt" | wc -l)" 0 "report.txt within 72 columns"
done_testing
