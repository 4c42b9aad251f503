#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Under a deterministic icount boot hackbench repeats exactly: two boots of one kernel give
# the same guest-clock duration (ns, i.e. instructions plus idle warps) for every run of
# every mode, and the same hackbench "Time:". Every mode here is chaotic (a different seed
# or kernel lands on another trajectory) but reproducible. This needs scripts/boot's
# determinism knobs under ACCEL=icount (bench/hackbench/README.md); HB_BOOT picks another
# boot command. A different seed must give a different trajectory (the seed does something).
# ARCH (x86_64 by default; hackbench-exact-arm64.t sets arm64): that architecture's guest.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
. "$LAB/scripts/lib.sh"
. "$LAB/scripts/arch/load"
export ARCH
if [ "$ARCH" != x86_64 ]; then
	case " ${TEST_ARCHES-arm64 arm} " in
	*" $ARCH "*) ;;
	*) echo "1..0 # SKIP ARCH=$ARCH not in TEST_ARCHES (${TEST_ARCHES-})"; exit 0 ;;
	esac
fi
boot=${HB_BOOT:-$LAB/scripts/boot}
require_image "$ARCH_IMAGES/rseq-y.$ARCH_IMG" "$ARCH_INITRAMFS"
grep -aq 'lab/bin/lab-vtime' "$ARCH_INITRAMFS" ||
	{ echo "1..1"; echo "not ok 1 - the $ARCH initramfs carries lab-vtime (make initramfs)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# hb NAME SEED: one icount boot, 2 runs per mode, -g 2 -l 20; its parsed rows.
hb() {
	ACCEL=icount OUTDIR=$t/$1 QUIET=1 TIMEOUT=300 "$boot" rseq-y -- \
		lab-hackbench on 2 2 20 100 "$2" >/dev/null 2>&1 &&
		"$LAB/bench/hackbench/parse-boot" --dir "$t/$1" > "$t/$1.csv"
}
hb a 1; ok $? "$ARCH: icount boot 1 (seed 1)"
hb b 1; ok $? "$ARCH: icount boot 2 (seed 1)"
hb c 2; ok $? "$ARCH: icount boot 3 (seed 2)"
# The columns of parse-boot --dir's rows; tv FILE MODE,IPC: that mode's Time:/vtime_ns of each
# run in a boot's rows, and vt FILE: every run's vtime_ns (through scripts/csv).
hb_cols=rep,mode,ipc,groups,fds,loops,datasize,time,notify_resume,cpu_id_updates,vtime_ns,idle_ticks
tv() { csv_rows "$hb_cols" time vtime_ns --where mode="${2%,*}" --where ipc="${2#*,}" 2>/dev/null < "$1" |
	tr '\t\n' '/ '; }
vt() { csv_rows "$hb_cols" vtime_ns 2>/dev/null < "$1"; }
for m in process,pipe process,socket thread,pipe thread,socket; do
	a=$(tv "$t/a.csv" "$m") b=$(tv "$t/b.csv" "$m")
	ok $([ -n "$a" ] && [ "$a" = "$b" ]; echo $?) "$m: identical Time:/ns in both boots (${a:-none})"
	[ "$a" = "$b" ] || diag "second boot: $b"
done
ok $(! cmp -s <(vt "$t/a.csv") <(vt "$t/c.csv"); echo $?) \
	"seed 2 runs another trajectory than seed 1"
done_testing
