#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# .ci/run's phase summary: make test's output through scripts/timestamp, then
# scripts/phase-times reads each phase's wall time (and each kernel's build line) from the log.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

out=$(printf 'a\nb\n' | "$LAB/scripts/timestamp")
like "$out" "^    0 a" "timestamp prefixes each line with the seconds since it started"
is "$(wc -l <<< "$out")" 2 "  and keeps every line"

cat > "$t/log" <<'LOG'
    0 scripts/install-deps
   40 LAB_TEST_TIER=check PATH="x" TEST_VARIANTS="rseq-n" prove -v --timer -j2 a.t b.t
  250 Files=115, Tests=1790, 208 wallclock secs
  251 >> build rseq-n (log: build/logs/rseq-n.1.build.log) ...
  851 >> rseq-n: 6.1.192, bzImage 700000 bytes, built in 600 s (1092 objects compiled), ccache 1 hits, 2 misses, stored as build/store/1
  852 >> rseq-y: identity 2 built before (6.1.192), selected from build/store/2; nothing rebuilt
  900 >> rseq-debug: 6.1.192, bzImage 700000 bytes, built in 48 s (40 objects compiled, seeded from rseq-y (2)), ccache 0 hits, 40 misses, stored as build/store/3
  910 LAB_TEST_TIER=guest PATH="x" TEST_VARIANTS="rseq-n" prove -v --timer c.t
 1500 Files=40, Tests=300, 590 wallclock secs
 1501 rc=0
wall=1501 (a line of another writer)
LOG
s=$("$LAB/scripts/phase-times" "$t/log"); r=$?
is "$r" 0 "phase-times reads the log"
like "$s" "    40 s  install, tree, programs, initramfs" "the time before the fast tier"
like "$s" "   210 s  make check" "the fast tier: from its prove to its summary"
like "$s" "kernel rseq-n \\(bzImage\\): built in 600 s \\(1092 objects compiled\\)" "a cold kernel's line"
like "$s" "kernel rseq-debug \\(bzImage\\): built in 48 s \\(40 objects compiled, seeded from rseq-y" "a seeded one's"
like "$s" "kernel rseq-y: from the store" "one taken from the store"
like "$s" "   660 s  kernels and the ARM programs" "between the tiers"
like "$s" "   590 s  guest tier" "the guest tier"
like "$s" "  1501 s  in all" "the whole"
"$LAB/scripts/phase-times" "$t/none" 2>/dev/null; is "$?" 2 "no log: exit 2"
done_testing
