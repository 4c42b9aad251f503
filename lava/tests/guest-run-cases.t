#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/guest-run on the host (LAB_OUT for /out): the command's status, one LAB-CASE line per
# result row with the figure and unit scripts/figures.py's op_figure gives (counted
# instructions insn, a timed loop under icount vns, ns elsewhere; "unsupported" skipped, any
# other status failed), the command's own case, and the files between the data markers.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '%s\n' "variant,accel,method,threads,status,ns_per_op,instructions_per_op" \
	"rseq-y,icount,rseq-own,1,ok,4.2,4.0000" "rseq-y,icount,counter-rseq,2,ok,14.02," \
	"rseq-y,icount,rdpid,1,unsupported: no RDPID,," "rseq-y,tcg,vdso,1,ok,55.5," \
	"rseq-y,tcg,syscall,1,failed,," > "$t/x.csv"
out=$(LAB_OUT=$t sh "$LAB/lava/guest-run" true 2>&1); rc=$?
is "$rc" 0 "the command's status (0)"
is "$(grep '^LAB-CASE' <<<"$out")" "LAB-CASE x.rseq-own pass 4.0000 insn
LAB-CASE x.counter-rseq.t2 pass 14.02 vns
LAB-CASE x.rdpid skip 0 none
LAB-CASE x.vdso pass 55.5 ns
LAB-CASE x.syscall fail 0 none
LAB-CASE command pass 0 status" "a case per row, in op_figure's units, then the command's"
like "$out" "^LAB-DATA-BEGIN$" "the files follow"
is "$(cat "$t/lab-status")" 0 "lab-status holds the status"
out=$(LAB_OUT=$t sh "$LAB/lava/guest-run" false 2>&1); rc=$?
is "$rc:$(grep '^LAB-CASE command' <<<"$out")" "1:LAB-CASE command fail 1 status" "a failing command: its status, a failed case"
done_testing
