#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The 2015 restartable_sequences() series (kernel/patches/turner-2015) and its variant:
#   - every patch is clean for the tree's scripts/checkpatch.pl --strict and signed off, the
#     cover letter says what the series is for, and the series applies to the unpacked tree;
#   - booted (turner-2015), turner-check passes: documented errnos, one region per process,
#     the CPU pointer on every CPU, fork/exec, and exact sums, intact lists and counted
#     restarts under 6 x NCPU threads with yields, migrations and signals;
#   - the same check with a region that misses the sequences loses updates (the stress part
#     can fail);
#   - mainline rseq's selftests still pass in the same kernel (rseq-suite, PARTS=upstream);
#   - turner-bench gives a figure for every row there, and turner-check skips on rseq-y.
# Skips cleanly without the unpacked tree, the image or the guest programs.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
SERIES=$LAB/kernel/patches/turner-2015
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
SRC=$BUILD/src/linux-$KVER
V=turner-2015

patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SERIES/series" | awk '{print $1}')
ok $([ -n "$patches" ]; echo $?) "the series lists patches ($(echo $patches | wc -w))"
grep -qi 'for comparison' "$SERIES/0000-cover-letter.patch" 2>/dev/null
ok $? "the cover letter says the series is for comparison"

if [ -f "$SRC/.lab-unpacked" ]; then
	for p in $patches; do
		out=$(cd "$SRC" && perl scripts/checkpatch.pl --strict "$SERIES/$p" 2>&1); r=$?
		like "$out" "^total: 0 errors, 0 warnings, 0 checks" "checkpatch --strict: $p"
		ok $r "checkpatch exits 0 for $p"
		grep -q '^Signed-off-by: ' "$SERIES/$p"; ok $? "$p has a Signed-off-by line"
	done
	tree=$("$LAB/scripts/patch-tree" $V 2>/dev/null); r=$?
	ok $r "the series applies to linux-$KVER"
	grep -q '^config RSEQ_TURNER$' "$tree/init/Kconfig" 2>/dev/null; ok $? "and adds config RSEQ_TURNER"
	grep -qE '^500[[:space:]]+64[[:space:]]+restartable_sequences' \
		"$tree/arch/x86/entry/syscalls/syscall_64.tbl" 2>/dev/null
	ok $? "as x86-64 system call 500"
else
	skip "no unpacked tree (make source)" "checkpatch and patch checks"
fi

cpio=$BUILD/initramfs/lab.cpio
if ! require_image --part $V; then
	skip "no $BUILD/images/$V.bzImage (make kernels VARIANTS=$V)" "$V in a guest"
	done_testing; exit
fi
if [ ! -f "$cpio" ] || ! grep -qa 'lab/bin/turner-check' "$cpio" || ! grep -qa 'lab/bin/turner-bench' "$cpio"; then
	skip "the initramfs has no turner-check/turner-bench (make initramfs)" "$V in a guest"
	done_testing; exit
fi
grep -q '^CONFIG_RSEQ_TURNER=y' "$BUILD/images/$V.config"; ok $? "$V has CONFIG_RSEQ_TURNER=y"
grep -q '^CONFIG_RSEQ=y' "$BUILD/images/$V.config"; ok $? "and mainline CONFIG_RSEQ=y beside it"

# guest VARIANT NAME CMD...: tap.sh's guest_run (out, r, boot_info). Under TCG the vCPUs take
# turns on one host thread (TCG_THREAD=single, scripts/boot): every registration and exit
# switches the series' static key while the other vCPU runs the patched code, and with a
# thread each QEMU once ran a stale translation of it (an int3 panic in the --break-region boot).
guest() { local v=$1 name=$2; shift 2; TCG_THREAD=single GUEST_TIMEOUT=${TURNER_TIMEOUT:-900} guest_run "$name" "$v" "$@"; }

guest $V check turner-check
ok $r "turner-check passes in the $V guest (status $r)"
case $boot_info in *"accel: tcg"*) like "$boot_info" "tcg_thread: single" "TCG: the vCPUs on one host thread" ;; esac
like "$out" "^ok [0-9]+ - a second library's region is refused: EBUSY" "a second region gets EBUSY"
like "$out" "^ok [0-9]+ - counter sum exact" "exact counter sum under yields, migrations, signals"
like "$out" "^ok [0-9]+ - lists intact" "lists intact"
like "$out" "^ok [0-9]+ - sequences were restarted: [1-9][0-9]* restarts" "restarts happened"
like "$out" "^1\.\.[1-9][0-9]*\$" "and it printed its plan"

guest $V break turner-check --break-region
ok $([ $r -ne 0 ]; echo $?) "with a region that misses the sequences the check fails (status $r)"
like "$out" "^not ok [0-9]+ - (counter sum exact|lists intact)" "by lost updates or a broken list"

GUEST_ENV="PARTS=upstream" guest $V selftests rseq-suite
ok $r "mainline rseq selftests (rseq-suite, PARTS=upstream) pass in $V (status $r)"
like "$out" "^ok [0-9]+ - .*param_test" "param_test ran"

guest $V bench turner-bench --iters 20000 --reps 3
ok $r "turner-bench runs in the guest"
is "$(printf '%s\n' "$out" | grep -cE ',(turner-2015|rseq|getcpu|none),[0-9]+,[0-9]+,[0-9.]+,[0-9.]+,ok,$')" \
	10 "every one of its 10 rows has a figure"

# The bench as bench-turner runs it, under icount: each boot's counts checked linear in n
# (whole numbers), the boot the unit, the run called exact.
DATA=$t/data GUEST_BOOTS=2 ACCELS=icount "$LAB/bench/turner-2015/run" > "$t/run.log" 2>&1
ok $? "bench/turner-2015/run, 2 boots under icount" || diag "$(tail -n 5 "$t/run.log")"
rd=$(ls -d "$t/data"/*-turner-2015 2>/dev/null | head -n 1)
csv=$rd/turner-2015.csv
is "$(csv_cols "$csv" boot | sort -u | paste -sd' ')" "1 2" "a row per boot (boot 1 and 2)"
is "$(csv_cols "$csv" status check per_op_median --where accel=icount |
	awk -F'\t' '$1 == "ok" && ($2 != "linear" || $3 != int($3) ".00")' | wc -l)" 0 \
	"every icount figure checked linear, a whole instruction count"
is "$(csv_cols "$csv" status --where accel=icount --where status=ok | wc -l)" 20 \
	"10 rows of figures in each boot"
like "$(cat "$rd/turner-2015.meta" 2>/dev/null)" "icount_check: linear" "the run says its counts were checked"
like "$(cat "$rd/figures.csv" 2>/dev/null)" "turner-2015,cpu-read.getcpu,turner-2015,icount,insn,2,," \
	"its figures carry the boot"

if require_image --part rseq-y; then
	guest rseq-y rseq-y turner-check
	ok $r "rseq-y: turner-check exits 0"
	like "$out" "^1\.\.0 # SKIP restartable_sequences \(syscall 500\): ENOSYS" "and skips: no such syscall"
else
	skip "rseq-y not built" "turner-check on a kernel without the series"
fi
done_testing
