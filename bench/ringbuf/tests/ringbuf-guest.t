#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ringbuf in guests: on rseq-y every strategy is exact under 6 x NCPU disturbed threads; on
# rseq-n the rseq row is skipped with ENOSYS, the others still run, and a short bench run
# through bench/ringbuf/run writes a run directory whose rseq row says ENOSYS.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
bin=$BUILD/guest/bin/lab-ringbuf
n=$("$bin" --list | wc -l)
boot() { TIMEOUT=${TIMEOUT:-400} "$LAB/scripts/boot" "$@" 2>&1; }
csv() { perl -MText::ParseWords -ne 'chomp; my @f = parse_line(",", 0, $_);
	if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
	if ($f[$c{method}] eq "'"$2"'") { print $f[$c{"'"$3"'"}]; exit }' "$1"; }

if have_image rseq-y; then
	out=$(boot rseq-y -- lab-ringbuf --check --check-ops 4000); rc=$?
	ok $rc "rseq-y: lab-ringbuf --check exits 0"
	is "$(grep -c '^ok ' <<<"$out")" "$n" "rseq-y: all $n strategies exact under yield,migrate,signal"
	[ $rc -eq 0 ] || diag "$(grep -v '^ok' <<<"$out" | tail -n 20)"
else
	skip "no rseq-y image" "rseq-y check"; skip "no rseq-y image" "rseq-y exact"
fi
if have_image rseq-n; then
	out=$(boot rseq-n -- lab-ringbuf --check --check-ops 5000); rc=$?
	ok $rc "rseq-n: --check exits 0"
	is "$(grep -c '# SKIP ENOSYS' <<<"$out")" 1 "rseq-n: the rseq row skips with ENOSYS"
	is "$(grep -c '^ok [0-9]* - ringbuf-' <<<"$out")" "$n" "rseq-n: the other rows run and pass"
	DATA=$t/data ACCEL=tcg "$LAB/bench/ringbuf/run" rseq-n --reps 1 --duration 5 --threads 1 \
		>"$t/log" 2>&1
	ok $? "rseq-n: bench/ringbuf/run rseq-n exits 0"
	d=$(ls -d "$t"/data/*-ringbuf-rseq-n 2>/dev/null | head -n 1)
	is "$(csv "$d/ringbuf.csv" ringbuf-rseq status 2>/dev/null)" ENOSYS "rseq-n: ringbuf-rseq row says ENOSYS"
	is "$(csv "$d/ringbuf.csv" ringbuf-getcpu-atomic status 2>/dev/null)" ok "rseq-n: getcpu+atomic row ran"
else
	for i in 1 2 3 4 5 6; do skip "no rseq-n image" "rseq-n $i"; done
fi
done_testing
