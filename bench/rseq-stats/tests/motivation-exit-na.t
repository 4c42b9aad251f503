#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where the kernel does not count exit (arm's "exit: n/a", read as no value, or an exit that
# stayed 0), the motivation's report section prints n/a for exits and the work per exit and
# never divides by it; the comparability marks (= with 6.19, ~ this kernel only) head the
# columns. A made-up run of one mode, the same made-up data as motivation-report.t.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
AB=$BUILD/host/bin/lab-ab
[ -x "$AB" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
r=$t/data/20260101T000000Z-t-rseq-motivation-rseq-stats; mkdir -p "$r"
cat > "$r/motivation.meta" <<'M'
stats_variant: rseq-stats
base_variant: rseq-y
release: 6.1.192
rounds: 2
reps_per_boot: 1
hackbench: -g 1 -l 10 -s 100, 4000 messages per run; process and thread, pipe and socket
M
echo "release,base_release,round,rep,mode,ipc,messages,exit,signal,slowp,fastp,ids,cs,clear,fixup,idle_stats,exit_off,signal_off,slowp_off,insn_reg,idle_reg,insn_unreg,idle_unreg" > "$r/motivation.csv"
echo "variant,accel,round,rep,mode,ipc,value" > "$r/insn.csv"
for k in 1 2; do
	# exit not counted: 0 with glibc registering, empty without
	echo "6.1.192,6.1.192,$k,1,thread,pipe,4000,0,2,$((40 + k)),0,$((42 + k)),0,0,0,0,,0,0,$((8000000 + k)),0,8000000,0" >> "$r/motivation.csv"
	printf 'reg,icount,%d,1,thread,pipe,%d\nunreg,icount,%d,1,thread,pipe,2000\n' $k $((2000 + k)) $k >> "$r/insn.csv"
done
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"; r2=$?
ok $r2 "the report runs on a run whose kernel did not count exit"
[ $r2 -eq 0 ] || sed 's/^/#   /' "$t/err"
sec=$(sed -n '/^rseq work on exit to user/,$p' "$t/plots/report.txt")
like "$sec" "^thr/pipe +n/a +n/a +n/a +1\\.000\$" "exits per message and work per exit read n/a; ids per work stays"
like "$sec" "^mode/ipc +exits/msg= +work/exit on~ +work/exit off~ +ids/work~\$" \
	"the headers say which columns compare with 6.19 (=) and which are this kernel's (~)"
like "$sec" "^= compares with 6\\.19" "and a legend says what the marks mean"
done_testing
