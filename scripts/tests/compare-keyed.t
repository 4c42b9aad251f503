#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare's figures of a bench read from its CSV (compare_lib.keyed_rows): a percpu run under
# icount, whose rows carry virtual ns and no instruction count, still gives its figures
# (unit vns), and cpu-read's exact instruction counts stay insn.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/run"
printf 'variant,accel,method,glibc_rseq,threads,status,ns_per_op,instructions_per_op\n%s\n%s\n' \
	'rseq-y,icount,counter-rseq,on,1,ok,9.0062,' 'rseq-y,icount,counter-lock,on,2,failed,1.0,' > "$t/run/percpu.csv"
printf 'variant,accel,method,glibc_rseq,threads,status,ns_per_op,instructions_per_op\n%s\n' \
	'rseq-y,icount,syscall,on,1,ok,186.4,186.000' > "$t/run/cpu-read.csv"
rows() { python3 -c '
import sys; sys.path.insert(0, sys.argv[1] + "/scripts")
import labdata, compare_lib
for r in compare_lib.keyed_rows(labdata.Run(sys.argv[2]), sys.argv[3]):
    print(r["figure"], r["unit"], r["value"])' "$LAB" "$t/run" "$1"; }
is "$(rows percpu)" "counter-rseq.t1 vns 9.0062" "percpu under icount: virtual ns, failed rows left out"
is "$(rows cpu-read)" "syscall insn 186.000" "cpu-read under icount: the exact instruction count"
done_testing
