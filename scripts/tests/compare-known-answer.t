#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make compare, end to end, against known answers: a git repository made from Debian's tree
# (commit 1) and a commit that adds exactly K empty iterations to the getcpu system call only
# (commit 2). Under icount the getcpu syscall row must rise by what that loop costs, counted
# from the disassembly of both kernels' sys_getcpu; every user-space-only row must not move by
# one instruction. Then the scheduler path, through make compare BENCH=ctxsw: commit 1 against
# one adding K iterations to rseq's notify-resume handler (branch ka-rseq), which a registered
# task runs once per return to user after a switch or a signal: ctxsw's registered switch and
# signal rise by the loop's cost, its round trip (two switches) by twice that, the unregistered
# figures and the pipe without a switch do not move. Proves tree -> export -> build -> boot ->
# bench -> lab-ab -> mail block.
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

# The answer from the disassembly: the test kernel's function is the base's plus some added
# instructions (nothing else changed or moved, jump targets aside); among them one simple loop
# (a backward conditional jump over straight-line code). Per call: the added instructions
# once, the loop body K - 1 times more.
dis() { # dis FUNCTION VMLINUX: "INDEX ADDR(low 32 bits, decimal) MNEMONIC OPERANDS"
	objdump -d --no-show-raw-insn --disassemble="$1" "$2" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { a = $1; gsub(/[ :]/, "", a); a = substr(a, length(a) - 7)
			ins = $2; sub(/[[:space:]]*#.*/, "", ins); print ++n, strtonum("0x" a), ins }'
}
store() { echo "$STORE/$(sed -n 's/^identity: \([0-9a-f]*\) .*/\1/p' "$1/$2.info")/rseq-y.vmlinux"; }
# Mnemonics and operands, jump and call targets dropped (addresses move): only additions.
norm() { cut -d' ' -f3- "$1" | sed -E 's/^(j[a-z]+|call)[[:space:]]+.*/\1/'; }
# loop_cost FUNCTION RUN: the instructions the test kernel of compare run RUN adds to one call
# of FUNCTION (want), with its checks as TAP lines.
loop_cost() {
	local f=$1 run=$2 nb nt changes body loops
	dis "$f" "$(store "$run" base)" > "$t/base.dis"; dis "$f" "$(store "$run" test)" > "$t/test.dis"
	nb=$(wc -l < "$t/base.dis") nt=$(wc -l < "$t/test.dis")
	ok $((!(nb > 0 && nt > nb))) "$f disassembled: $nb instructions in the base, $nt in the test"
	# The compiler may also allocate a register differently around the loop: an instruction
	# changed, not added, which moves no count. Said, not asserted.
	changes=$(diff <(norm "$t/base.dis") <(norm "$t/test.dis") | grep '^[<>]')
	diag "$f: instructions the commit touched: $(grep -c '^>' <<< "$changes") in the test, $(grep -c '^<' <<< "$changes") in the base"
	# The loop: a backward conditional jump with no jump, call or return between target and it.
	read -r body loops < <(awk '{ addr[$1] = $2; op[$1] = $3; arg[$1] = $4; n = $1 }
		END { for (i = 1; i <= n; i++) if (op[i] ~ /^j/ && op[i] != "jmp") {
			t = strtonum("0x" substr(arg[i], length(arg[i]) - 7)); if (t >= addr[i]) continue
			for (j = i - 1; j >= 1 && addr[j] > t; j--) if (op[j] ~ /^(j|call|ret)/) break
			if (j >= 1 && addr[j] == t && op[j] !~ /^(j|call|ret)/) { b = i - j + 1; nl++ } }
			print b + 0, nl + 0 }' "$t/test.dis")
	is "$loops" 1 "one simple loop in the test's $f"
	want=$(( (nt - nb) + (K - 1) * body ))
	diag "$f: loop body $body instructions x $K, setup and exit $((nt - nb - body)): +$want per call"
}
loop_cost __x64_sys_getcpu "$run"
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

# The scheduler path. Three rounds of ctxsw's four columns: the rises are a thousand times the
# noise (sd under 1 insn between boots).
rm -rf "$t/data"; mkdir -p "$t/data"
[ "${KA_KEEP_DATA:-0}" = 1 ] || data=$t/data
t0=$(date +%s)
out=$(make -s -C "$LAB" compare KSRC="$repo" BASE=HEAD~1 TEST=ka-rseq BENCH=ctxsw ACCEL=icount \
	CTXSW_ROUNDS=3 DATA="$data" PLOTS="$plots" 2>&1); r=$?
diag "make compare BENCH=ctxsw: $(( $(date +%s) - t0 )) s"
is "$r" 0 "make compare BENCH=ctxsw of commit 1 and ka-rseq"
run=$(ls -d "$data"/*-compare 2>/dev/null | tail -n 1)
[ -n "$run" ] || { diag "$(tail -n 20 <<< "$out")"; echo "Bail out! no ctxsw compare run"; exit 1; }
csv=$run/compare.csv
"$LAB/scripts/compare-verdict" "$csv" ctxsw.switch.glibc-on:5 2>/dev/null
is $? 1 "FAIL_ABOVE=ctxsw.switch.glibc-on:5 on this run: exit 1"
"$LAB/scripts/compare-verdict" "$csv" ctxsw.switch.glibc-off:5 2>/dev/null
is $? 0 "FAIL_ABOVE=ctxsw.switch.glibc-off:5: exit 0"
loop_cost __rseq_handle_notify_resume "$run"
# rises CALLS FIGURE...: each figure up by CALLS x the loop's cost, within 0.5 % of it and
# 2 insn: a timer tick's return to user runs the handler too, and the boots of the two
# kernels differ by an instruction or two where nothing changed (seen: +2009.9 and +2004.2
# for a loop of 2005)
rises() {
	local n=$1 f d; shift
	for f in "$@"; do
		d=$(field "ctxsw.$f" diff)
		awk -v d="$d" -v w=$((n * want)) 'BEGIN { exit !(d != "missing" && d >= 0.995 * w - 2 && d <= 1.005 * w + 2) }'
		ok $? "ctxsw.$f: +$d, the loop's cost x $n (+$((n * want)))"
	done
}
rises 1 switch.glibc-on signal.glibc-on switch.rseq-cost signal.rseq-cost
rises 2 pipe_roundtrip.glibc-on pipe_roundtrip.rseq-cost
# The figures the loop cannot reach: within 1 % of one call's cost (seen: 1.07 insn on the
# unregistered round trip)
for f in switch.glibc-off signal.glibc-off pipe_roundtrip.glibc-off pipe_self.glibc-off pipe_self.glibc-on; do
	d=$(field "ctxsw.$f" diff)
	awk -v d="$d" -v w="$want" 'BEGIN { exit !(d != "missing" && d <= 0.01 * w && d >= -0.01 * w) }'
	ok $? "ctxsw.$f: $d, no change (within 1 % of the loop's cost)"
done
mail=$run/compare.txt
like "$(grep -A1 'ctxsw.switch.glibc-on' "$mail" | tr '\n' ' ')" "\+[0-9.]+%\*.*insn" "the block: the registered switch, marked, with its change in insn"
like "$(tr '\n' ' ' < "$mail" | tr -s ' ')" "ctxsw: its own rounds \(CTXSW_ROUNDS\)" "the block names ctxsw's design"
diag "$(cat "$mail")"
done_testing
