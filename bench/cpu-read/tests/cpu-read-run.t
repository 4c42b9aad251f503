#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A short bench-host run makes one complete run directory: a CSV whose header has the required
# columns and one row per method (figures or a reason), per-rep values for each rep, metadata.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
reps=2

DATA=$t/data "$LAB/scripts/bench-host" --reps $reps --duration 10 >"$t/log" 2>&1
ok $? "bench-host runs"
dirs=$(ls -A "$t/data" 2>/dev/null)
is "$(printf '%s\n' "$dirs" | grep -c -- '-host$')" 1 "one run directory, named <date>-<host>-host"
d=$t/data/$(printf '%s\n' "$dirs" | head -n 1)
csv=$d/cpu-read.csv meta=$d/cpu-read.meta
head=$(head -n 1 "$csv" 2>/dev/null)
for col in variant accel method threads ns_per_op cycles_per_op reps ns_median ns_min ns_max \
	ns_spread ns_reps; do
	like ",$head," ",$col," "CSV has column $col"
done
methods=$("$BUILD/guest/bin/lab-cpuread" --list | awk '{print $1}' | sort | tr '\n' ' ')
is "$(tail -n +2 "$csv" | cut -d, -f3 | sort | tr '\n' ' ')" "$methods" \
	"one row per method"

# Each row: status ok with a positive ns/op and $reps per-rep values, or a reason and no figure.
bad=$(tail -n +2 "$csv" | perl -ne '
	chomp; my @f;
	# CSV fields, quoted ones with "" for a quote
	while (/\G(?:"((?:[^"]|"")*)"|([^,]*))(,|$)/g) {
		my ($q, $u, $sep) = ($1, $2, $3);
		push @f, defined $q ? $q =~ s/""/"/gr : $u; last if $sep eq "";
	}
	my ($status, $nsop, $per) = ($f[8], $f[11], $f[21]);
	my @v = split /;/, $per; my $k = @v;
	if ($f[0] ne "host" || $f[1] ne "none" || $f[6] ne "1") { print "labels: $_\n" }
	elsif ($status eq "ok" && !($nsop > 0 && $k == '$reps')) { print "figures: $_\n" }
	elsif ($status ne "ok" && ($nsop ne "" || $per ne "")) { print "made-up figure: $_\n" }')
is "$bad" "" "every row has its figures or a reason, never both"
like "$(grep '^empty,' <(cut -d, -f3,9 "$csv"))" '^empty,ok$' "the empty loop has a row"
like "$(grep -cE '^[a-z_-]+,ok$' <(cut -d, -f3,9 "$csv"))" '^([89]|1[0-9])$' \
	"at least 8 methods measured here"
for key in cpu_model cpuinfo_flags kernel_release glibc compiler cflags date lab_commit \
	tsc_invariant glibc_rseq; do
	like "$(cat "$meta")" "^$key: ." "metadata has $key"
done
like "$(cat "$t/log")" "getcpu system call: +[0-9.]+ ns +[0-9.]+x" "prints the seed-format table"
done_testing
