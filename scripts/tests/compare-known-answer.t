#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make compare, end to end, against a known answer: a git repository made from Debian's tree
# (commit 1) and a commit that adds exactly K empty iterations to the getcpu system call only
# (commit 2). Under icount the getcpu syscall row must rise by what that loop costs, counted
# from the disassembly of both kernels' sys_getcpu; every user-space-only row must not move by
# one instruction. Proves tree -> export -> build -> boot -> bench -> lab-ab -> mail block.
# The repository is kept under build/tests/ka-linux (remade when it is not what is expected);
# the kernels land in build/store/, so a rerun only boots. KA_KEEP_DATA=1 keeps the run.
. "$(dirname "$0")/tap.sh"
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
row() { awk -F, -v f="cpu-read.$1" '$1 == f { print $10; found = 1 } END { if (!found) print "missing" }' "$csv"; }

# The answer from the disassembly: the loop (the one backward jump inside the test kernel's
# getcpu, none in the base's) runs K times, its setup once; nothing else in the function moved.
dis() { # dis VMLINUX: sys_getcpu's instructions, one per line, addresses dropped
	objdump -d --no-show-raw-insn --disassemble=__x64_sys_getcpu "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { print $2 }' | sed 's/[[:space:]]*#.*//'
}
store() { echo "$BUILD/store/$(sed -n 's/^identity: \([0-9a-f]*\) .*/\1/p' "$run/$1.info")/rseq-y.vmlinux"; }
base_dis=$(dis "$(store base)") test_dis=$(dis "$(store test)")
nb=$(grep -c . <<< "$base_dis") nt=$(grep -c . <<< "$test_dis")
# The loop body: from the backward jump's target to the jump, in the test kernel.
read -r body jumps < <(objdump -d --no-show-raw-insn --disassemble=__x64_sys_getcpu "$(store test)" |
	awk -F'\t' '/^ *[0-9a-f]+:\t/ { a = strtonum("0x" $1); addr[++n] = a; ins[n] = $2 }
	END { for (i = 1; i <= n; i++) if (ins[i] ~ /^j/ && split(ins[i], w, " ") >= 2) {
		tgt = strtonum("0x" w[2]); if (tgt < addr[i] && tgt >= addr[1]) {
			for (j = 1; j <= i; j++) if (addr[j] == tgt) b = i - j + 1; nj++ } }
		print b + 0, nj + 0 }')
ok $((nb > 0 && nt > nb)) "sys_getcpu disassembled: $nb instructions in the base, $nt in the test"
is "$jumps" 1 "one backward jump (the loop) in the test's sys_getcpu"
is "$(dis "$(store base)" | grep -c '^j.*' | tr -d ' ')" "$(grep -c '^j' <<< "$test_dis" | awk '{ print $1 - 1 }')" \
	"the base has every jump but the loop's"
want=$(( (nt - nb) + (K - 1) * body ))
diag "loop body $body instructions x $K, setup and exit $((nt - nb - body)): +$want per getcpu call"
is "$(row syscall)" "$want" "getcpu syscall row: up by exactly the loop's cost"
for m in empty rseq-own.glibc-off rseq-glibc lsl rdtscp vdso; do
	is "$(row $m)" 0 "$m row unchanged to the instruction"
done
grep -q '^cpu-read.syscall,insn,icount,3,.*,significant$' "$csv"; ok $? "lab-ab calls the syscall change significant"

# FAIL_ABOVE on this run: the syscall's rise fails a 5 % bound, the empty loop passes any.
"$LAB/scripts/compare-verdict" "$csv" cpu-read.syscall:5 2>/dev/null; is $? 1 "FAIL_ABOVE=cpu-read.syscall:5: exit 1"
"$LAB/scripts/compare-verdict" "$csv" cpu-read.empty:0,cpu-read.lsl:0 2>/dev/null; is $? 0 "FAIL_ABOVE on unchanged rows: exit 0"

# The mail block: both kernels named, the syscall line marked, nothing wider than 72 columns.
mail=$(ls "$plots"/compare-*.txt 2>/dev/null | tail -n 1)
ok $(( $(awk 'length > 72' "$mail" | wc -l) != 0 )) "mail block at most 72 columns"
like "$(cat "$mail")" "test: .* \"$subj2" "names the test commit by its subject"
like "$(grep 'cpu-read.syscall' "$mail")" '\+[0-9.]+%\*' "the syscall line carries the significance mark"
like "$(grep '^no significant change' "$mail")" "cpu-read.empty" "unchanged figures summed up in one line"
diag "$(cat "$mail")"
done_testing
