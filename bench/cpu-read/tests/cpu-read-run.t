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
for col in variant accel method threads ns_per_op tsc_per_op reps ns_median ns_min ns_max \
	ns_spread ns_reps tsc_min tsc_max tsc_reps pmu_cycles_per_op; do
	like ",$head," ",$col," "CSV has column $col"
done
# TSC ticks are not cycles: no column may call them so (PMU cycles are pmu_cycles_per_op).
is "$(tr , '\n' <<<"$head" | grep -E '^cycles' | tr '\n' ' ')" "" \
	"no column named cycles* (the TSC ones are tsc_*)"
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
# Every measured row carries its spread: ns_min <= ns_per_op (the median) <= ns_max.
bad=$(perl -MText::ParseWords -ne 'chomp; my @f = parse_line(",", 0, $_);
	if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
	my ($m, $st, $med, $lo, $hi) = map { $f[$c{$_}] } qw(method status ns_per_op ns_min ns_max);
	next unless $st eq "ok";
	print "$m " unless $lo ne "" && $hi ne "" && $lo <= $med && $med <= $hi' "$csv")
is "$bad" "" "every measured row has ns_min <= ns_per_op <= ns_max"
# Each dependent row has its throughput twin (empty-dep: empty) in the same run.
deps=$(tail -n +2 "$csv" | cut -d, -f3 | grep -- '-dep$')
like "$(printf '%s\n' "$deps" | wc -l)" '^[5-9]$' "the dependent rows are in the CSV"
is "$(for m in $deps; do cut -d, -f3 "$csv" | grep -qx -- "${m%-dep}" || echo "$m"; done)" "" \
	"every dependent row has its throughput twin"
like "$(grep '^empty,' <(cut -d, -f3,9 "$csv"))" '^empty,ok$' "the empty loop has a row"
like "$(grep -cE '^[a-z_-]+,ok$' <(cut -d, -f3,9 "$csv"))" '^([89]|[12][0-9])$' \
	"at least 8 methods measured here"
for key in cpu_model cpuinfo_flags kernel_release glibc compiler cflags date lab_commit \
	tsc_invariant glibc_rseq; do
	like "$(cat "$meta")" "^$key: ." "metadata has $key"
done
like "$(cat "$t/log")" "getcpu system call: +[0-9.]+ ns +[0-9.]+x +[0-9.]+-[0-9.]+ " \
	"prints the seed-format table, min-max next to the median"
like "$(cat "$t/log")" "gs-relative load of the kernel-updated rseq cpu_id \(dependent\): +[0-9.]+ ns" \
	"the longest label is printed whole"
like "$(cat "$meta")" "^tsc_source: " "metadata names the TSC source (tsc_source)"
done_testing
