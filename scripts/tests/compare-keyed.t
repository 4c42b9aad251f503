#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare's figures come from each bench's own parse, run --by-kernel (scripts/compare_lib.py
# reads no bench's CSV): the side is the kernel and a row's glibc state other than the bench's
# default goes into the figure's name, before its thread count; a percpu run under icount,
# whose rows carry virtual ns and no instruction count, gives its figures in vns, cpu-read's
# exact counts stay insn; hackbench's side is its kernel column; the names compare accepts in
# FAIL_ABOVE are the ones the parse gives.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/run"
printf 'variant,accel,method,glibc_rseq,threads,status,ns_per_op,instructions_per_op\n%s\n%s\n%s\n' \
	'cmp-base,icount,counter-rseq,on,1,ok,9.0062,' 'cmp-base,icount,counter-lock,on,2,failed,1.0,' \
	'cmp-base,icount,counter-rseq,off,2,ok,12.5,' > "$t/run/percpu.csv"
printf 'variant,accel,method,glibc_rseq,threads,status,ns_per_op,instructions_per_op\n%s\n%s\n' \
	'cmp-base,icount,syscall,on,1,ok,186.4,186.000' 'cmp-base,icount,rseq-own,off,1,ok,4.2,4.000' \
	> "$t/run/cpu-read.csv"
printf 'kernel,variant,glibc_rseq,accel,round,rep,mode,ipc,value,unit\n%s\n%s\n' \
	'cmp-test,rseq-y/reg,on,icount,2,1,process,pipe,1.5,Ginsn' \
	'cmp-test,rseq-n,none,icount,2,1,thread,socket,1.25,Ginsn' > "$t/run/hackbench.csv"
rows() { python3 -c '
import sys; sys.path.insert(0, sys.argv[1] + "/scripts")
import labdata, compare_lib
for r in compare_lib.run_figures(labdata.Run(sys.argv[2])):
    if r["bench"] == sys.argv[3]:
        print(r["figure"], r["side"], r["unit"], r["boot"], r["value"])' "$LAB" "$t/run" "$1"; }
is "$(rows percpu)" "counter-rseq.t1 cmp-base vns 1 9.0062
counter-rseq.glibc-off.t2 cmp-base vns 1 12.5" \
	"percpu under icount: virtual ns, the glibc state before the threads, failed rows left out"
is "$(rows cpu-read)" "syscall cmp-base insn 1 186.000
rseq-own.glibc-off cmp-base insn 1 4.000" "cpu-read under icount: the exact instruction counts"
is "$(rows hackbench)" "process-pipe.glibc-on cmp-test Ginsn 2 1.5
thread-socket cmp-test Ginsn 2 1.25" "hackbench: side the kernel, boot the round, glibc in the name"
# The same rows as the parse prints them, and a name compare accepts for each.
is "$("$LAB/bench/percpu/parse" --by-kernel "$t/run" | tail -n +2 | cut -d, -f2 | tr '\n' ' ')" \
	"counter-rseq.t1 counter-rseq.glibc-off.t2 " "bench/percpu/parse --by-kernel: the same figures"
is "$("$LAB/bench/percpu/parse" "$t/run" | tail -n +2 | cut -d, -f2 | tr '\n' ' ')" \
	"counter-rseq.t1 counter-rseq.t2 " "... and without it, the names a run's figures.csv holds"
declared=$("$LAB/scripts/compare-check" --figures percpu cpu-read hackbench 2>&1)
for f in percpu.counter-rseq.glibc-off.t2 percpu.counter-rseq.t16 cpu-read.rseq-own.glibc-off \
		hackbench.process-pipe.glibc-on hackbench.thread-socket; do
	is "$(grep -cx "$f" <<<"$declared")" 1 "compare declares $f"
done
is "$(grep -c 'rdtscp-dep' <<<"$declared")" 0 "compare declares no figure cpu-read does not produce (rdtscp-dep)"
done_testing
