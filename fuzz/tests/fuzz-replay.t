#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The committed fuzz corpus replayed through lab-ab's fuzz target (fuzz/ab-input.c), built with
# gcc under ASan and UBSan: no input crashes lab-ab, none that its format forbids is accepted,
# every refusal is one "lab-ab: " line. The inputs that once broke a property are in the corpus
# (found-*), so each of those faults is tested here for good.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
replay=$BUILD/host/tests/fuzz-ab-input-replay corpus=$LAB/fuzz/corpus/ab-input
[ -x "$replay" ] || { echo "1..1"; echo "not ok 1 - the replay driver is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

n=$(ls "$corpus" | wc -l)
ok $((n == 0)) "the committed corpus has inputs ($n)"
ok $(ls "$corpus"/found-* >/dev/null 2>&1; echo $?) "the corpus keeps the inputs that broke a property (found-*)"
bounded 120 "$replay" "$corpus"/* > "$t/out" 2> "$t/err"; rc=$?
is "$rc" 0 "every input of the corpus keeps the properties (exit 0)"
grep -m3 -E 'malformed|refusal|ERROR|runtime error' "$t/err" | sed 's/^/#   /'
is "$(tail -n 1 "$t/err")" "replayed $n inputs" "all $n inputs replayed"

# Inputs written here, not by the fuzzer: values strtod takes and the formats do not (hex, inf,
# a carriage return alone), a NUL byte, an empty number file. Each goes through the same
# properties: lab-ab must refuse it in one line.
printf '\x03# a comment\n1\n2\n\f0x10\n3\n' > "$t/hex"
printf '\x03inf\n2\n\f1\n3\n' > "$t/inf"
printf '\x00k\ta\t\t\t\t\r\nk\tb\t\t\t\t1\n' > "$t/cr"
printf '\x00k\ta\t\t\t\t1\x00x\nk\tb\t\t\t\t1\n' > "$t/nul"
printf '\x03\f1\n2\n' > "$t/empty"
for f in hex inf cr nul empty; do
	bounded 30 "$replay" "$t/$f" > /dev/null 2> "$t/err"
	is "$?" 0 "$f: refused in one line"
done
done_testing
