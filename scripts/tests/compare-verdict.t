#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# FAIL_ABOVE's verdict (scripts/compare-verdict) on a compare.csv written here: a significant
# rise above the bound fails (1), one below it or one lab-ab did not call significant passes
# (0), a figure prefix covers its figures, a name that matches nothing is an error (2).
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
v=$LAB/scripts/compare-verdict
cat > "$t/c.csv" <<'CSV'
figure,unit,accel,base_n,base_mean,base_sd,test_n,test_mean,test_sd,diff,pct,verdict
cpu-read.syscall,insn,icount,3,186,0,3,2187,0,2001,1075.8065,significant
cpu-read.empty,insn,icount,3,3,0,3,3,0,0,0.0000,no difference
hackbench.process-pipe.glibc-on,s,tcg,3,1.0,0.2,3,1.3,0.2,0.3,30.0000,not significant
size.text,bytes,none,1,100,0,1,90,0,-10,-10.0000,significant
CSV
run() { "$v" "$t/c.csv" "$1" 2>"$t/err"; echo $?; }
is "$(run cpu-read.syscall:5)" 1 "a significant +1076 % above 5 %: exit 1"
like "$(cat "$t/err")" "cpu-read.syscall \+1075.8065%" "naming the figure"
is "$(run cpu-read.syscall:2000)" 0 "below the bound: exit 0"
is "$(run hackbench.process-pipe.glibc-on:10)" 0 "+30 % but not significant: exit 0"
is "$(run size.text:0)" 0 "a fall is no regression"
is "$(run cpu-read.:100)" 1 "a prefix covers its figures"
is "$(run cpu-read.empty:0,size.text:0)" 0 "two unchanged figures: exit 0"
is "$(run cpu-read.nope:1)" 2 "an unknown figure: exit 2"
like "$(cat "$t/err")" "no figure 'cpu-read.nope'" "said in one line"
done_testing
