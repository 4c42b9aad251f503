#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The compare chain after the boots, on a fixture run (fixtures/compare/run: three rounds of
# cpu-read boots, a hackbench run keying its rounds, a size run): compare-figures' long format
# and round keys, compare-ab's lab-ab call (by unit and pair where lab-ab has them), and the
# block compare-mail writes for a reviewer: <= 72 columns, no local path, the command, both
# kernels, the lab, the host, QEMU and toolchain ("unknown" where the runs do not say), boots x
# reps and the design, an interval per changed figure, lists wrapped and never cut, the "="
# legend only where an exact figure changed.
. "$(dirname "$0")/tap.sh"
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || make -s -C "$LAB" "$ab" >/dev/null || { echo "Bail out! no lab-ab"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/compare
fresh() { rm -rf "$t/run"; cp -r "$fx/run" "$t/run"; }
fresh

# compare-figures: C1, the boot key of a one-boot run is its round.
"$LAB/scripts/compare-figures" "$t/run/boots" > "$t/run/figures.csv"; is "$?" 0 "compare-figures reads the boots"
is "$(head -n 1 "$t/run/figures.csv")" "bench,figure,side,accel,unit,boot,rep,value" "in the long format (C1)"
like "$(cat "$t/run/figures.csv")" "cpu-read,syscall,cmp-test,icount,insn,3,,2187" "a boot of round 3 is keyed 3"
like "$(cat "$t/run/figures.csv")" "hackbench,process-pipe,cmp-base,icount,Ginsn,2,2,1.030" "hackbench keeps its own round and rep"
ok $(grep -q 'lsl' "$t/run/figures.csv"; echo $((!$?))) "an unsupported method gives no figure"
ls "$t"/run/boots/round-*/*/figures.csv >/dev/null 2>&1; ok $((!$?)) "nothing is written into the boots"
mkdir -p "$t/bad/round-1/x"; printf 'variant,accel,status\ncmp-base,icount,ok\n' > "$t/bad/round-1/x/cpu-read.csv"; echo 'bench: cpu-read' > "$t/bad/round-1/x/cpu-read.meta"
out=$("$LAB/scripts/compare-figures" "$t/bad" 2>&1 >/dev/null); r=$?
ok $((r == 0)) "a run whose CSV lacks a column fails"
is "$(grep -c '^error: ' <<< "$out")" 1 "in one error line"

# compare-ab (C4): lab-ab called with the boot as the unit, paired by round.
export LAB_AB_LOG=$t/ab.log LAB_AB_REAL=$ab PYTHONPATH=$LAB/scripts
"$LAB/scripts/compare-ab" "$fx/lab-ab-c4" "$t/run/figures.csv" "$t/run"; is "$?" 0 "compare-ab runs lab-ab"
like "$(cat "$t/ab.log")" "--samples - --unit boot --pair round --base base --format tsv" "with --unit boot --pair round"
ok $(grep -q '^size\.' "$t/run/ab-input.csv"; echo $((!$?))) "exact figures (one value per kernel) are not given to lab-ab"
ok $(grep -q '^cpu-read.rdtscp,' "$t/run/ab-input.csv"; echo $((!$?))) "a figure with one boot of both kernels is not given to lab-ab"
ok $(grep -q '^cpu-read.vdso,base,icount,3,' "$t/run/ab-input.csv"; echo $((!$?))) "a boot the other kernel lacks a figure in is left out of it"
grep -q '^cpu-read.vdso,base,icount,2,' "$t/run/ab-input.csv"; ok $? "the boots both have stay"
block=$("$LAB/scripts/compare-mail" "$t/run"); is "$?" 0 "compare-mail writes the block"
diag "the block:"; while IFS= read -r l; do diag "  $l"; done <<< "$block"
is "$(awk 'length > 72' <<< "$block" | wc -l)" 0 "no line over 72 columns"
ok $(grep -qE '(^|[ =(])/(home|tmp|work|root|usr|srv)' <<< "$block"; echo $((!$?))) "no local absolute path"
like "$block" "^reproduce: make compare KSRC=<your-linux-tree> BASE=9b8e7d6c5a41" "the command that reproduces it"
like "$block" "CONFIG=<your-.config>" "the user's config path is not printed"
like "$block" '^base: v6.19-rc3 "Linux 6.19-rc3"' "the base kernel: describe and subject"
like "$(tr '\n' ' ' <<< "$block")" 'test: v6.19-rc3-1-g3f2a1c9d0e4b "sched/rseq: skip .* long enough to +wrap"' "the test kernel, its subject wrapped"
like "$block" "release 6.19.0-rc3, config file:4f2a9c1e \+ base rseq-y" "release and config base"
like "$block" "^lab: v2.1-14-g0123456789ab \(the rseq/getcpu benchmark lab; source:" "the lab's git describe and where it comes from"
like "$block" "^host: Intel\(R\) Xeon\(R\) Gold 6338 CPU @ 2.00GHz, microcode 0xd0003b9," "host CPU and microcode"
like "$block" "kernel 6.1.0-28-amd64" "host kernel"
like "$block" "^qemu: 7.2.15, accel icount, guest CPU max, 1 vCPU, memory 512M" "QEMU, accelerator, guest CPU, vCPUs, memory"
like "$block" "^toolchain: gcc \(Debian 12.2.0-14\) 12.2.0, glibc 2.36" "compiler and glibc"
like "$(tr '\n' ' ' <<< "$block")" "3 boots x 1 rep \(cpu-read\), +3 boots x +2 reps \(hackbench\)" "boots x reps per kernel"
like "$block" "paired by round, 3 units" "the design, from lab-ab's design column"
like "$block" "cpu-read.syscall \[insn\]" "a changed figure has its line"
ab_pct() { python3 -c 'import sys, labdata
for r in labdata.parse_table(open(sys.argv[1]).read(), "\t"):
    if r["key"] == sys.argv[2] and r["variant"] == "test": print(r[sys.argv[3]])' "$t/run/ab.tsv" "$@"; }
lo=$(ab_pct hackbench.process-pipe rel_lo) hi=$(ab_pct hackbench.process-pipe rel_hi)
like "$block" "\[\+$(printf '%.1f' "$lo")%, \+$(printf '%.1f' "$hi")%\]" "its interval is lab-ab's Fieller one (rel_lo, rel_hi: [$lo, $hi])"
all=$(sed -n '/^no significant change/,/^[^ ]/p' <<< "$block" | tr '\n' ' ')
for f in hackbench.thread-pipe size.data size.bzimage_bytes cpu-read.empty cpu-read.rseq-own.glibc-off; do
	like "$all" " $f( |$)" "the unchanged list names $f (wrapped, not cut)"
done
ok $(grep -q '\.\.\.' <<< "$block"; echo $((!$?))) "nothing cut with ..."
like "$block" "^in one kernel only \(1\): cpu-read.rdpid" "a figure of one kernel only"
like "$block" "^not compared, under two boots of both kernels \(1\): cpu-read.rdtscp" "a figure with too few boots in common"
like "$block" "=    7876478 .*size.text" "size.text changed: an exact figure, marked ="
like "$block" "^= exact figure" "with the = legend"
is "$(head -n 1 "$t/run/compare.csv")" "figure,unit,accel,base_n,base_mean,base_sd,test_n,test_mean,test_sd,diff,pct,verdict,pct_lo,pct_hi,design,diff_lo,diff_hi" "compare.csv's header"

# Without exact changes, no = legend; without the runs' C3 keys, "unknown"; the design line
# lab-ab's (the lab-ab of this tree: no older one is probed for).
fresh
sed -i 's/^cmp-test,7876478,/cmp-test,7876414,/' "$t"/run/boots/*-size/sizes.csv
sed -i '/^host_microcode: /d; /^compiler: /d' "$t"/run/boots/round-*/*/cpu-read.meta
"$LAB/scripts/compare-figures" "$t/run/boots" > "$t/run/figures.csv"
"$LAB/scripts/compare-ab" "$ab" "$t/run/figures.csv" "$t/run"
block=$("$LAB/scripts/compare-mail" "$t/run")
ok $(grep -q '^=' <<< "$block"; echo $((!$?))) "no exact figure changed: no = legend"
like "$block" "microcode unknown" "a key no run records reads unknown"
like "$block" "^toolchain: unknown, glibc 2.36" "compiler unknown, glibc known"
like "$(head -n 3 <<< "$block" | tr -s '\n ' '  ')" "paired by round, 3 units" "the design: paired by round"
done_testing
