#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Ctrl-C: SIGINT to the process group (what a terminal sends) of a running scripts/boot, and of
# a running `make cpu-read-guest`, ends every QEMU within 5 s, removes the run directory, leaves
# the data directory as it was, and exits non-zero. (GNU timeout puts QEMU in a process group
# of its own, which the terminal's SIGINT does not reach: scripts/boot has to end it.) A guest
# killed alone (SIGKILL to QEMU) fails its bench the same way.
. "$(dirname "$0")/tap.sh"
v=$(for v in $TEST_VARIANTS; do have_image "$v" && echo "$v" && break; done)
require_image "${v:-${TEST_VARIANTS%% *}}" "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# descendants PID: every process below PID.
descendants() {
	local c
	for c in $(ps -e -o pid=,ppid= | awk -v p="$1" '$2 == p { print $1 }'); do echo "$c"; descendants "$c"; done
}
# guest_of PID: wait until a QEMU below PID runs its guest's init; its pid in q, its run
# directory in run (q empty when none came).
guest_of() {
	local i
	q='' run=''
	for i in $(seq 1 240); do   # up to 120 s: a KVM probe or a slow start under load
		sleep 0.5
		q=$(for p in $(descendants "$1"); do ps -o pid=,args= -p "$p"; done | awk '$2 ~ /qemu-system/ { print $1 }' | head -n 1)
		[ -n "$q" ] || continue
		run=$(tr '\0' '\n' < "/proc/$q/cmdline" 2>/dev/null | sed -n 's|/initrd.cpio$||p')
		grep -q '^LAB: init reached' "$run/console.log" 2>/dev/null && break
	done
}
# interrupt WHAT CMD...: start CMD in a process group of its own, wait for its guest to run,
# SIGINT the group, check what is left.
interrupt() {
	local what=$1 pid q run rc t0 t1 ms left; shift
	setsid "${SIGINT_DEFAULT[@]}" "$@" >"$t/log" 2>&1 &
	pid=$!
	guest_of "$pid"
	ok $([ -n "$q" ] && [ -d "$run" ]; echo $?) "$what: QEMU runs the guest (pid ${q:-none}, $run)"
	local all; all=$(descendants "$pid" | tr '\n' ' ')
	t0=$(date +%s%N)
	kill -INT -- "-$pid"
	wait "$pid"; rc=$?
	t1=$(date +%s%N); ms=$(( (t1 - t0) / 1000000 ))
	ok $((rc == 0)) "$what: exits non-zero ($rc)"
	ok $((ms > 5000)) "$what: within 5 s of SIGINT ($ms ms)"
	diag "$what: SIGINT to exit: $ms ms"
	sleep 0.3
	left=$(for p in $all; do ps -o pid=,stat=,args= -p "$p" | awk '$2 !~ /^Z/'; done)
	is "$left" "" "$what: no QEMU, timeout or other process it started is left"
	ok $([ -n "$run" ] && [ ! -e "$run" ]; echo $?) "$what: its run directory is gone"
}

interrupt "scripts/boot" env TIMEOUT=300 "$LAB/scripts/boot" "$v" -- sleep 100

# make: the bench's binary, image and initramfs as they are (-o): this interrupts the run.
mkdir -p "$t/data/earlier-run"; echo x > "$t/data/earlier-run/f"
before=$(cd "$t/data" && find . | sort)
bench=(make -C "$LAB" --no-print-directory cpu-read-guest VARIANT="$v" DATA="$t/data"
	BENCH_ARGS="--reps 50 --duration 2000"
	-o "$BUILD/guest/bin/lab-cpuread" -o "$BUILD/images/$v.bzImage" -o "$BUILD/initramfs/lab.cpio")
interrupt "make cpu-read-guest" "${bench[@]}"
is "$(cd "$t/data" && find . | sort)" "$before" "make cpu-read-guest: the data directory is as it was"

# A guest killed from outside (SIGKILL to QEMU alone, as the OOM killer sends it) in the middle
# of a bench: the bench fails, loudly, and nothing of it lands in the data directory.
setsid "${bench[@]}" > "$t/killed.log" 2>&1 &
pid=$!
guest_of "$pid"
ok $([ -n "$q" ]; echo $?) "killed guest: QEMU runs the bench (pid ${q:-none})"
kill -KILL "$q" 2>/dev/null
bounded 120 tail --pid="$pid" -f /dev/null; wait "$pid"; rc=$?
ok $((rc == 0)) "killed guest: the bench fails (exit $rc)"
like "$(tail -n 5 "$t/killed.log")" 'error|FAILED|killed|signal' "killed guest: saying so"
tail -n 3 "$t/killed.log" | sed 's/^/#   /'
is "$(cd "$t/data" && find . | sort)" "$before" "killed guest: the data directory is as it was"
done_testing
