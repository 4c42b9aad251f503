#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make strategy refuses bad input with one line and writes nothing to data/: a file that does
# not compile (the compiler's first error), one without the LAB_STRATEGIES list, a shape the
# lab does not know, two strategies under one name, a strategy that crashes or hangs in its check (bounded by CHECK_TIMEOUT),
# and the deliberately broken example (a non-restartable load-modify-store), whose
# interleaving check finds an update lost: it is never timed.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/bench/percpu/tests/strategies

# The first through make itself, the others through bench/percpu/strategy with what make
# gives it (parsing the Makefile takes seconds).
env=$(make -s --no-print-directory -C "$LAB" strategy-env)
# refused FILE REGEX WHAT: make strategy STRATEGY=FILE exits 2 with one line of its own (make
# adds its "***" line, "make[1]: ***" when make check runs the test; ">>" lines are progress) matching REGEX, and leaves data/ empty (three
# tests).
refused() {
	local err rc
	if [ "${via_make:-}" ]; then
		err=$(make -s --no-print-directory -C "$LAB" strategy STRATEGY="$1" DATA="$t/data" \
			CHECK_TIMEOUT=${check_timeout:-10} 2>&1 | grep -v '^make\(\[[0-9]*\]\)\?: \*\*\*\|^>> '; exit "${PIPESTATUS[0]}")
	else
		err=$(cd "$LAB" && eval "DATA=$t/data CHECK_TIMEOUT=${check_timeout:-10} $env bench/percpu/strategy $1" \
			2>&1 | grep -v '^>> '; exit "${PIPESTATUS[0]}")
	fi
	rc=$?
	is "$rc:$(grep -c . <<<"$err")" "2:1" "$3: status 2 (make's), one line"
	like "$err" "$2" "... saying why ($2)"
	is "$(ls -A "$t/data" 2>/dev/null | wc -l)" 0 "... and nothing in data/"
}

via_make=1 refused "$fx/no-compile.c" "^error: .*no-compile.c does not compile: .*no-compile.c:8:[0-9]+: .undeclared_step. undeclared" \
	"a file that does not compile (the compiler's first error)"
refused "$fx/no-list.c" "^error: .*no-list.c: no LAB_STRATEGIES\(...\) list" "no LAB_STRATEGIES list"
refused "$fx/queue-shape.c" "^error: strategy queue-mine: unknown shape 'queue' \(counter, list, lock\)$" \
	"an unknown shape"
refused "$fx/crash.c" "^error: counter-crash: crashed in the exactness check \(.*SIGSEGV\); not timed$" \
	"a strategy that crashes"
# The hang spins in 12 threads until the bound: 1 s of it, not 10 (both CPUs are busy meanwhile).
check_timeout=1 refused "$fx/hang.c" "^error: counter-hang(: no end within 1 s in the (schedule exploration|interleaving check|exactness check) .*| is wrong: deadlock: every thread left waits, on a futex or spinning on a word no other thread will change at [^ ]*hang\.c:[0-9]+ .*); not timed$" \
	"a strategy that hangs (1 s bound)"
refused "$fx/missing.c" "^error: .*missing.c: no such file$" "a file that is not there"
refused "$fx/named-twice.c" "^error: .*strategy counter-twice: named twice" "two strategies under one name"
# A relative path is the caller's, from wherever make is called (make -C LAB).
err=$(cd "$t" && make -s --no-print-directory -C "$LAB" strategy STRATEGY=rel-missing.c DATA="$t/data" 2>&1)
like "$err" "error: $t/rel-missing.c: no such file" "a relative STRATEGY is taken from the caller's directory"
refused "$LAB/bench/percpu/examples/broken-counter.c" \
	"^error: counter-broken-lms is wrong: ownership: a plain store to CPU [0-9]+'s slot\[[0-9]+\]\.v outside any rseq critical section \(T[0-2] on CPU [0-9]+\) at [^ ]*broken-counter\.c:[0-9]+ .*\(schedule: .*\); not timed$" \
	"the broken example (non-restartable load-modify-store)"
done_testing
