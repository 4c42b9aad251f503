#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make compare's input checks: each bad input fails in at most 5 s of CPU time (the make and
# its children; the wall time is printed: on a loaded machine it is longer) with exactly one error line
# naming the valid choices, before anything is unpacked, compiled or built (BUILD is an empty
# folder here: it stays without sources, programs or kernels), and scripts/compare called
# directly (as git bisect run does) exits 128 for it. A good input passes the check.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# A tiny tree that looks like a kernel's at both its commits, and a git repository that does not.
k=$t/linux; mkdir -p "$k/arch/x86"
echo 'VERSION = 6' > "$k/Makefile"; echo 'mainmenu "x"' > "$k/Kconfig"; echo 'config X86' > "$k/arch/x86/Kconfig"
g() { git -C "$1" -c user.name=lab -c user.email=lab@localhost "${@:2}"; }
git init -q "$k" && g "$k" add -A && g "$k" commit -qm one && g "$k" commit -q --allow-empty -m two
n=$t/notkernel; mkdir -p "$n"; git init -q "$n"; echo hi > "$n/README"; g "$n" add -A; g "$n" commit -qm readme
mkdir -p "$t/plain"
# A variant whose fragment is misspelt, beside copies of the real ones.
mkdir -p "$t/variants"; cp "$LAB"/kernel/variants/* "$t/variants/"
printf 'fragments: base rseq-yy\nseries:\n' > "$t/variants/typo"
printf 'fragments: base rseq-y\nseries: rseq-stat\n' > "$t/variants/noseries"
good=(KSRC="$k" BASE=HEAD~1 TEST=HEAD)

# bad DESCRIPTION REGEX ARGS...: make compare with ARGS fails fast in one line matching REGEX
bad() {
	local what=$1 re=$2; shift 2
	local t0 t1 out r cpu
	t0=$(date +%s%N)
	# the make's CPU time and its children's: what the check costs, whatever else runs here
	out=$( (make -s -C "$LAB" compare BUILD="$t/build" DATA="$t/data" PLOTS="$t/plots" "$@" 2>&1
		echo "status $?"; times) ); t1=$(date +%s%N)
	r=$(sed -n 's/^status //p' <<< "$out")
	cpu=$(tail -n 1 <<< "$out" | tr -d 's' | awk '{ split($1, u, "m"); split($2, y, "m")
		printf "%d", (u[1] * 60 + u[2] + y[1] * 60 + y[2]) * 1000 }')
	out=$(sed '/^status /,$d' <<< "$out")
	ok $((r == 0)) "$what: make compare fails"
	ok $((cpu > 5000)) "$what: in $cpu ms of CPU, $(( (t1 - t0) / 1000000 )) ms wall (at most 5 s)"
	is "$(grep -c '^error: ' <<< "$out")" 1 "$what: one error line"
	like "$(grep '^error: ' <<< "$out")" "$re" "$what: it names the valid choices"
	ok $([ -z "$(ls -A "$t/build" 2>/dev/null | grep -v '^params$')" ]; echo $?) "$what: nothing built or unpacked"
	[ "${direct:-}" = 1 ] || return 0
	out=$(env "$@" DATA="$t/data" PLOTS="$t/plots" "$LAB/scripts/compare" 2>&1); r=$?
	is "$r" 128 "$what: scripts/compare exits 128 (no verdict)"
	is "$(wc -l <<< "$out")" 1 "$what: in one line"
}
# scripts/compare called directly, as git bisect run does, for a few of them
direct=1
bad "KSRC that does not exist" "KSRC=/nonexistent: no such directory" BASE=HEAD TEST=HEAD KSRC=/nonexistent
bad "KSRC not a git tree" "is not a git tree" BASE=HEAD TEST=HEAD KSRC="$t/plain"
bad "a git tree that is no kernel" "BASE=HEAD is not a kernel tree \(no Kconfig" BASE=HEAD TEST=HEAD KSRC="$n"
bad "a revision that does not exist" "no revision 'nope'" KSRC="$k" BASE=HEAD TEST=nope
direct=0
bad "an unknown variant" "no variant 'nope' \(variants: .*rseq-y" "${good[@]}" VARIANT=nope
bad "a misspelt fragment" "variant typo: no fragment 'rseq-yy' \(fragments: .*rseq-y" "${good[@]}" VARIANT=typo VARIANT_DIR="$t/variants"
bad "a variant's series that does not exist" "variant noseries: no series 'rseq-stat' \(series: .*rseq-stats" "${good[@]}" VARIANT=noseries VARIANT_DIR="$t/variants"
bad "without KSRC, a variant that does not exist" "no variant 'rseq-z'" BASE=rseq-y TEST=rseq-z
bad "CONFIG that does not exist" "CONFIG=/nonexistent: tinyconfig, defconfig or the path" "${good[@]}" CONFIG=/nonexistent
bad "ACCEL" "ACCEL=foo: one of auto, kvm, tcg, icount" "${good[@]}" ACCEL=foo
bad "CPUS=0" "CPUS=0: .*positive number" "${good[@]}" CPUS=0
# A number with a suffix is no number: refused in one line, never a crash further on.
direct=1
bad "CPUS=2x" "CPUS=2x: .*positive number" "${good[@]}" CPUS=2x
direct=0
bad "MEM" "MEM=lots: .*512M" "${good[@]}" MEM=lots
bad "ROUNDS=2" "ROUNDS=2: .*at least 3" "${good[@]}" ROUNDS=2
bad "an unknown bench" "BENCH: unknown bench 'nope' \(benches make compare runs: .*cpu-read" "${good[@]}" BENCH=cpu-read,nope
# A bench with figures that no kernel of a comparison runs: refused before anything is built,
# with its meta's reason, every time it is named (never run and its figures silently absent).
bad "a host-only bench" "BENCH: lttng-ust cannot be compared across kernels: it runs on the host only" "${good[@]}" BENCH=cpu-read,lttng-ust
bad "a bench of its own kernel series" "BENCH: turner-2015 cannot be compared across kernels: .*turner-2015 variant" "${good[@]}" BENCH=turner-2015
bad "a bench of a fixed pair of kernels" "BENCH: rseq-stats cannot be compared across kernels: .*rseq counters" "${good[@]}" BENCH=rseq-stats
bad "a within-kernel contrast's FAIL_ABOVE figure, its bench not run" "'ctxsw.switch.rseq-cost' is a figure of ctxsw, which BENCH does not run" "${good[@]}" BENCH=cpu-read FAIL_ABOVE=ctxsw.switch.rseq-cost:5
bad "a FAIL_ABOVE name's beginning, not a prefix ending in '.'" "cpu-read declares no figure 'cpu-read.sys'" "${good[@]}" BENCH=cpu-read FAIL_ABOVE=cpu-read.sys:5
bad "a FAIL_ABOVE figure that does not exist" "cpu-read declares no figure 'cpu-read.sycall' \(its figures: cpu-read\." "${good[@]}" BENCH=cpu-read FAIL_ABOVE=cpu-read.sycall:5
bad "a FAIL_ABOVE figure of a bench not run" "'hackbench.process-pipe' is a figure of hackbench, which BENCH does not run" "${good[@]}" BENCH=cpu-read FAIL_ABOVE=hackbench.process-pipe:5
bad "FAIL_ABOVE without a bound" "'cpu-read.syscall' is not FIGURE:PCT" "${good[@]}" FAIL_ABOVE=cpu-read.syscall
direct=1
bad "FAIL_ON_CRASH" "FAIL_ON_CRASH=yes: 1 .* or 0" "${good[@]}" FAIL_ON_CRASH=yes

env "${good[@]}" BENCH=cpu-read,size,ctxsw FAIL_ABOVE=cpu-read.syscall:5,cpu-read.:10,size.text:0,ctxsw.switch.glibc-on:1,ctxsw.signal.rseq-cost:1 \
	ACCEL=icount CPUS=1 MEM=1G ROUNDS=4 CONFIG=defconfig "$LAB/scripts/compare-check" 2>"$t/err"
is "$?" 0 "a good input passes the check"
is "$(cat "$t/err")" "" "silently"
done_testing
