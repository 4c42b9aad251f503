#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How the benches boot their guests, with no kernel: fake-kernel's images and fake-boot in
# LAB_BOOT (compare's stand-ins) under the real scripts/bench-run, bench/ctxsw/run and
# bench/hackbench/run. Every boot of a run has its own seed (GUEST_SEED0 + k; ctxsw: one per
# column and round), hackbench's columns of one round share theirs; boots overlap two at a
# time under icount (whose counts do not depend on host load) and never under TCG; a boot
# that leaves no output fails the run with one line, and nothing is written.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-compare.sh"
export KSRC=$repo
c=$(commit 186 ok ok "fake" "boot_s: 0.4" "mute_seed: 103")
"$LAB_COMPARE_FAKE" build base "$c" && "$LAB_COMPARE_FAKE" build test "$c"
ok $? "two fake kernels"

# key FILE KEY: the value of FILE's "KEY: value" line
key() { sed -n "s/^$2: //p" "$1" | head -n 1; }
# run_of LOG: the run a bench's run printed (">> results in DIR")
run_of() { sed -n 's/^>> results in \([^;]*\).*/\1/p' "$1" | tail -n 1; }
# field DIR KEY: a key of each boot's lab-boot.info under DIR, in boot order
field() { for f in $(find "$1" -name lab-boot.info -path '*/boots/*' | sort); do key "$f" "$2"; done | tr '\n' ' '; }
# params BENCH META: every param BENCH's meta declares, as the run's META says it ran
params() {
	local name
	for name in $(sed -n 's/^param:[[:space:]]*\([A-Z0-9_]*\) .*/\1/p' "$LAB/bench/$1/meta"); do
		grep "^param $name: " "$2" || echo "param $name: (missing)"
	done | tr '\n' ' '
}
# most_at_once DIR: the most boots under DIR that ran at the same time
most_at_once() {
	for f in $(find "$1" -name lab-boot.info -path '*/boots/*'); do
		echo "$(key "$f" fake_started_ns) 1"; echo "$(key "$f" fake_ended_ns) -1"
	done | sort -n -k1,1 -k2,2n | awk '{ n += $2; if (n > m) m = n } END { print m + 0 }'
}

# boots ACCEL N SEED0 SEEDS AT_ONCE WHY: bench-run's N boots under ACCEL from GUEST_SEED0 SEED0
# have the seeds SEEDS, and at most AT_ONCE of them ran together (WHY)
boots() {
	GUEST_BOOTS=$2 GUEST_SEED0=$3 ACCEL=$1 DATA=$t/d-$1 "$LAB/scripts/bench-run" cmp-base cpu-read \
		> "$t/log-$1" 2>&1
	ok $? "bench-run: $2 $1 boots"
	local r; r=$(run_of "$t/log-$1")
	is "$(field "$r" boot_seed)" "$4" "  each its own seed, GUEST_SEED0 + k"
	is "$(most_at_once "$r")" "$5" "  $5 at once under $1 ($6)"
}
boots icount 4 10 "11 12 13 14 " 2 "its counts do not depend on the host's load"
boots tcg 3 20 "21 22 23 " 1 "its timings do"

GUEST_BOOTS=4 GUEST_SEED0=100 ACCEL=icount DATA=$t/d3 "$LAB/scripts/bench-run" cmp-base cpu-read \
	> "$t/log3" 2>&1; rc=$?
ok $((rc == 0)) "a boot that left no output (seed 103) fails the run (status $rc)"
like "$(grep '^error: ' "$t/log3")" "boot 3: the guest run failed|no cpu-read.csv from .*/03" "  naming the boot"
is "$(ls -A "$t/d3" 2>/dev/null)" "" "  and nothing is written"

CTXSW_ROUNDS=2 CTXSW_SEED0=40 ACCEL=icount DATA=$t/d4 "$LAB/bench/ctxsw/run" cmp-base cmp-test \
	> "$t/log4" 2>&1
ok $? "ctxsw: two rounds of two kernels' four columns"
seeds=$(field "$(run_of "$t/log4")" boot_seed)
is "$(tr ' ' '\n' <<< "$seeds" | grep -c .)/$(tr ' ' '\n' <<< "$seeds" | grep . | sort -u | wc -l)" "8/8" \
	"ctxsw: every boot its own seed ($seeds)"
is "$(tr ' ' '\n' <<< "$seeds" | grep . | sort -n | head -n 1)" 41 "  the first CTXSW_SEED0 + 1"
is "$(params ctxsw "$(run_of "$t/log4")/ctxsw.meta")" \
	"param CTXSW_ROUNDS: 2 param CTXSW_ITERS: 10000 param CTXSW_BATCHES: 3 param CTXSW_GLIBC: off on param CTXSW_SEED0: 40 param CTXSW_JOBS: 2 " \
	"ctxsw.meta: every param of its meta, as the run used it (two boots at once under icount)"
like "$(grep '^accel: ' "$(run_of "$t/log4")/ctxsw.meta")" "^accel: icount$" "  and the accelerator"

N=2 HB_REPS=1 HB_SEED0=50 ACCEL=icount DATA=$t/d5 "$LAB/bench/hackbench/run" cmp-base cmp-test \
	> "$t/log5" 2>&1
ok $? "hackbench: two rounds of two kernels' four columns"
r5=$(run_of "$t/log5")
per_round() { for d in "$r5"/boots/0"$1"-*/; do key "$d/lab-boot.info" boot_seed; done | sort -u | tr '\n' ' '; }
is "$(per_round 1)|$(per_round 2)" "51 |52 " "hackbench: a round's columns share its seed, HB_SEED0 + round"
is "$(params hackbench "$r5/hackbench.meta" | tr ' ' '\n' | grep -c 'missing')" 0 \
	"hackbench.meta: every param of its meta"
like "$(grep -E '^param (N|HB_REPS|HB_SEED0): ' "$r5/hackbench.meta" | tr '\n' ' ')" \
	"^param N: 2 param HB_REPS: 1 param HB_SEED0: 50 $" "  as set"
# ctxsw's columns follow each kernel's CONFIG_RSEQ: glibc's registration off and on where it
# can register, one column ("none") where it cannot
sed -i '/^CONFIG_RSEQ=y/d' "$BUILD/images/cmp-test.config"
CTXSW_ROUNDS=1 CTXSW_SEED0=60 ACCEL=icount DATA=$t/d6 "$LAB/bench/ctxsw/run" cmp-base cmp-test \
	> "$t/log6" 2>&1
ok $? "ctxsw: an RSEQ=y kernel beside an RSEQ=n one"
is "$(csv_cols "$(run_of "$t/log6")/ctxsw.csv" variant rseq_state 2>/dev/null | sort -u | tr '\t\n' '= ')" \
	"cmp-base/reg=on cmp-base/unreg=off cmp-test=none " "  RSEQ=y: unregistered and registered columns; RSEQ=n: one, 'none'"
done_testing
