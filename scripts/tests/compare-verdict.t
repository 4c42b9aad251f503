#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# FAIL_ABOVE's verdict (scripts/compare-verdict) on a compare.csv written here: a significant
# rise above the bound fails (1), one exactly at the bound or below it, or one lab-ab did not
# call significant, passes (0); a figure prefix covers the figures that start with it, and only
# those; a name that matches nothing, or a bad argument, is no verdict (128).
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
v=$LAB/scripts/compare-verdict
cat > "$t/c.csv" <<'CSV'
figure,unit,accel,base_n,base_mean,base_sd,test_n,test_mean,test_sd,diff,pct,verdict,pct_lo,pct_hi,design
cpu-read.syscall,insn,icount,3,186,0,3,2187,0,2001,1075.8065,significant,1075.8,1075.8,paired by round
cpu-read.empty,insn,icount,3,3,0,3,3,0,0,0.0000,no difference,0,0,paired by round
cpu-read.empty-dep,insn,icount,3,7,0,3,9,0,2,28.5714,significant,28.6,28.6,paired by round
cpu-read.vdso,insn,icount,3,40,0,3,42,0,2,5.0000,significant,5.0,5.0,paired by round
percpu.cpu-read.t1,ns,tcg,3,10,0.1,3,130,0.1,120,1200.0000,significant,1190,1210,paired by round
hackbench.process-pipe.glibc-on,s,tcg,3,1.0,0.2,3,1.3,0.2,0.3,30.0000,not significant,-5,65,paired by round
size.text,bytes,none,1,100,0,1,90,0,-10,-10.0000,significant,,,exact
CSV
run() { "$v" "$t/c.csv" "$1" 2>"$t/err"; echo $?; }
is "$(run cpu-read.syscall:5)" 1 "a significant +1076 % above 5 %: exit 1"
like "$(cat "$t/err")" "cpu-read.syscall \+1075.8065%" "naming the figure"
is "$(run cpu-read.syscall:2000)" 0 "below the bound: exit 0"
is "$(run cpu-read.vdso:5)" 0 "exactly at the bound (+5 % against 5): exit 0"
is "$(run cpu-read.vdso:4.99)" 1 "just over the bound: exit 1"
is "$(run hackbench.process-pipe.glibc-on:10)" 0 "+30 % but not significant: exit 0"
is "$(run size.text:0)" 0 "a fall is no regression"
is "$(run cpu-read.:100)" 1 "a prefix covers its figures"
is "$(run cpu-read.:1100)" 0 "a prefix matches at the start of a name only (percpu.cpu-read.t1's +1200 % is not cpu-read's)"
is "$(run read.:1)" 128 "a prefix found only inside names matches nothing: exit 128"
is "$(run cpu-read.empty:0,size.text:0)" 0 "two unchanged figures: exit 0"
is "$(run cpu-read.empty:5)" 0 "a whole name is no prefix: cpu-read.empty-dep's +28.6 % is not cpu-read.empty's"
is "$(run cpu-read.emp:5)" 128 "nor is a name's beginning without its '.': exit 128"
is "$(run cpu-read.nope:1)" 128 "an unknown figure: exit 128 (no verdict)"
like "$(cat "$t/err")" "^error: FAIL_ABOVE: no figure 'cpu-read.nope'" "said in one line"
is "$(wc -l < "$t/err")" 1 "one line"
is "$(run cpu-read.syscall)" 128 "FIGURE without :PCT: exit 128"
done_testing
