#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make compare, end to end, against a known answer: a git repository made from Debian's tree
# (commit 1) and a commit that adds exactly K empty iterations to the getcpu system call only
# (commit 2). Under icount the getcpu syscall row must rise by what that loop costs, counted
# from the disassembly of both kernels' sys_getcpu; every user-space-only row must not move by
# one instruction. Proves tree -> export -> build -> boot -> bench -> lab-ab -> mail block.
# The repository is kept under build/tests/ka-linux (remade when it is not what is expected);
# the kernels land in the store, so a rerun only boots. KA_KEEP_DATA=1 keeps the run.
. "$(dirname "$0")/tap.sh"
guest_tier "kernel builds and icount boots (make compare)"
src=$BUILD/src/linux-$KVER
[ -f "$src/.lab-unpacked" ] || { skip "no unpacked tree $src" "known answer"; done_testing; exit 0; }
[ -x "$BUILD/host/bin/lab-ab" ] && [ -f "$BUILD/initramfs/lab.cpio" ] ||
	{ skip "no lab-ab or initramfs (make compare-prereqs)" "known answer"; done_testing; exit 0; }
. "$(dirname "$0")/ka-repo.sh"
ka_repo; ok $? "a git repository from $src with the getcpu commit on top"

t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
data=$t/data plots=$t/plots
[ "${KA_KEEP_DATA:-0}" = 1 ] && { data=${DATA:-$LAB/data} plots=${PLOTS:-$LAB/plots}; }
t0=$(date +%s)
out=$(make -s -C "$LAB" compare KSRC="$repo" BASE=HEAD~1 TEST=HEAD BENCH=cpu-read ACCEL=icount \
	DATA="$data" PLOTS="$plots" 2>&1); r=$?
diag "make compare: $(( $(date +%s) - t0 )) s"
is "$r" 0 "make compare of the two commits under icount"
run=$(ls -d "$data"/*-compare 2>/dev/null | tail -n 1)
[ -n "$run" ] || { diag "$(tail -n 20 <<< "$out")"; echo "Bail out! no compare run"; exit 1; }
csv=$run/compare.csv
# field FIGURE COLUMN: a cell of compare.csv, read through labdata ("missing" without the row)
field() { PYTHONPATH=$LAB/scripts python3 -c 'import sys, labdata
rows = [r for r in labdata.read_csv(sys.argv[1]) if r["figure"] == sys.argv[2]]
print(rows[0][sys.argv[3]] if rows else "missing")' "$csv" "$@"; }
row() { field "cpu-read.$1" diff; }

# The answer from the disassembly: the test kernel's getcpu is the base's plus some added
# instructions (nothing else changed or moved, jump targets aside); among them one simple loop
# (a backward conditional jump over straight-line code). Per call: the added instructions
# once, the loop body K - 1 times more.
dis() { # dis VMLINUX: "INDEX ADDR(low 32 bits, decimal) MNEMONIC OPERANDS" of sys_getcpu
	objdump -d --no-show-raw-insn --disassemble=__x64_sys_getcpu "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { a = $1; gsub(/[ :]/, "", a); a = substr(a, length(a) - 7)
			ins = $2; sub(/[[:space:]]*#.*/, "", ins); print ++n, strtonum("0x" a), ins }'
}
store() { echo "$STORE/$(sed -n 's/^identity: \([0-9a-f]*\) .*/\1/p' "$run/$1.info")/rseq-y.vmlinux"; }
dis "$(store base)" > "$t/base.dis"; dis "$(store test)" > "$t/test.dis"
nb=$(wc -l < "$t/base.dis") nt=$(wc -l < "$t/test.dis")
ok $((!(nb > 0 && nt > nb))) "sys_getcpu disassembled: $nb instructions in the base, $nt in the test"
# Mnemonics and operands, jump and call targets dropped (addresses move): only additions.
norm() { cut -d' ' -f3- "$1" | sed -E 's/^(j[a-z]+|call)[[:space:]]+.*/\1/'; }
# The compiler may also allocate a register differently around the loop: an instruction
# changed, not added, which moves no count. Said, not asserted.
changes=$(diff <(norm "$t/base.dis") <(norm "$t/test.dis") | grep '^[<>]')
diag "instructions the commit touched: $(grep -c '^>' <<< "$changes") in the test, $(grep -c '^<' <<< "$changes") in the base"
# The loop: a backward conditional jump with no jump, call or return between target and it.
read -r body loops < <(awk '{ addr[$1] = $2; op[$1] = $3; arg[$1] = $4; n = $1 }
	END { for (i = 1; i <= n; i++) if (op[i] ~ /^j/ && op[i] != "jmp") {
		t = strtonum("0x" substr(arg[i], length(arg[i]) - 7)); if (t >= addr[i]) continue
		for (j = i - 1; j >= 1 && addr[j] > t; j--) if (op[j] ~ /^(j|call|ret)/) break
		if (j >= 1 && addr[j] == t && op[j] !~ /^(j|call|ret)/) { b = i - j + 1; nl++ } }
		print b + 0, nl + 0 }' "$t/test.dis")
is "$loops" 1 "one simple loop in the test's sys_getcpu"
want=$(( (nt - nb) + (K - 1) * body ))
diag "loop body $body instructions x $K, setup and exit $((nt - nb - body)): +$want per getcpu call"
# icount counts the timer interrupt's instructions too, amortised over the ops in proportion
# to their length (~0.07 % here): the rise is the loop's cost plus at most 0.1 % of the
# test's figure, never less than the loop's cost.
rise=$(row syscall) test_fig=$(field cpu-read.syscall test_mean)
diag "getcpu syscall row: +$rise (test figure $test_fig), the loop's cost +$want"
awk -v r="$rise" -v w="$want" -v f="$test_fig" 'BEGIN { exit !(r >= w && r - w <= 0.001 * f + 0.01) }'
ok $? "getcpu syscall row: up by the loop's cost (+$want), with at most 0.1 % of timer interrupts"
for m in empty rseq-own.glibc-off rseq-glibc lsl rdtscp vdso; do
	is "$(row $m)" 0 "$m row unchanged to the instruction"
done
is "$(field cpu-read.syscall unit) $(field cpu-read.syscall test_n) $(field cpu-read.syscall verdict)" \
	"insn 3 significant" "lab-ab calls the syscall change significant (3 boots, instructions)"

# FAIL_ABOVE on this run: the syscall's rise fails a 5 % bound, the empty loop passes any.
"$LAB/scripts/compare-verdict" "$csv" cpu-read.syscall:5 2>/dev/null; is $? 1 "FAIL_ABOVE=cpu-read.syscall:5: exit 1"
"$LAB/scripts/compare-verdict" "$csv" cpu-read.empty:0,cpu-read.lsl:0 2>/dev/null; is $? 0 "FAIL_ABOVE on unchanged rows: exit 0"

# The mail block: both kernels named, the syscall line marked, nothing wider than 72 columns.
mail=$(ls "$plots"/compare-*.txt 2>/dev/null | tail -n 1)
ok $(( $(awk 'length > 72' "$mail" | wc -l) != 0 )) "mail block at most 72 columns"
grep '^test: ' "$mail" | grep -qF "\"$subj2\""
ok $? "names the test commit by its subject"
like "$(grep 'cpu-read.syscall' "$mail")" '\+[0-9.]+%\*' "the syscall line carries the significance mark"
like "$(grep '^no significant change' "$mail")" "cpu-read.empty" "unchanged figures summed up in one line"
diag "$(cat "$mail")"
done_testing
