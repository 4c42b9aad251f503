#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Under icount lab-ctxsw's figures are exact: two boots of one kernel give the same
# instructions per context switch and per signal, batch by batch, to the last digit printed;
# a boot with another seed (--seed: the tick's phase, the memory layout) gives other figures,
# which is what makes boots of one kernel independent units.
# This holds only for a deterministic boot (scripts/boot under ACCEL=icount with the
# determinism knobs of bench/hackbench/README.md); CTXSW_BOOT picks another boot command.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
boot=${CTXSW_BOOT:-$LAB/scripts/boot}
require_image rseq-y "$BUILD/initramfs/lab.cpio"
grep -aq 'lab/bin/lab-ctxsw' "$BUILD/initramfs/lab.cpio" ||
	{ echo "1..1"; echo "not ok 1 - the initramfs carries lab-ctxsw (make initramfs)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

for i in 1 2 3; do
	seed=0
	[ $i = 3 ] && seed=5
	ACCEL=icount OUTDIR=$t/$i QUIET=1 TIMEOUT=300 "$boot" rseq-y -- \
		sh -c "lab-ctxsw --rseq on --iters 2000 --batches 3 --seed $seed > /out/ctxsw.out" >/dev/null 2>&1
	ok $? "icount boot $i runs lab-ctxsw (seed $seed)"
done
for m in switch signal pipe_self pipe_roundtrip; do
	a=$(grep "^$m " "$t/1/ctxsw.out" 2>/dev/null | tr '\n' ' ')
	b=$(grep "^$m " "$t/2/ctxsw.out" 2>/dev/null | tr '\n' ' ')
	ok $([ -n "$a" ] && [ "$a" = "$b" ]; echo $?) "$m: identical in both boots (${a:-none})"
	[ "$a" = "$b" ] || diag "second boot: $b"
done
a=$(grep '^switch ' "$t/1/ctxsw.out" 2>/dev/null | tr '\n' ' ')
c=$(grep '^switch ' "$t/3/ctxsw.out" 2>/dev/null | tr '\n' ' ')
ok $([ -n "$c" ] && [ "$a" != "$c" ]; echo $?) "seed 5 moves the switch figures (${c:-none})"
done_testing
