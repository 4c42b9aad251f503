#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Deterministic mode (QEMU icount): two separate boots of rseq-y give identical instructions/op
# on every CPU-read row (equality, not closeness), the rows say accel icount and carry no ns
# figure, and glibc's sched_getcpu is shorter on rseq-y (rseq area) than on rseq-n (vDSO).
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
require_image rseq-y rseq-n
export DATA=$t/data
# two boots a kernel (the default is five): the merge is exercised, the tier stays short
export GUEST_BOOTS=2

# column NAME CSV: "method value" per data row (quoted labels hold no commas before the column).
column() { csv_cols "$2" method "$1" | tr '\t' ' '; }

"$LAB/bench/cpu-read/compare-icount" rseq-y rseq-y > "$t/same" 2> "$t/same.log"
ok $? "two icount boots of rseq-y"
runs=$(sed -n 's/^>> [AB]: //p' "$t/same.log")
a=$(printf '%s\n' "$runs" | sed -n 1p) b=$(printf '%s\n' "$runs" | sed -n 2p)
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]
ok $? "they are two separate runs ($(basename "${a:-?}"), $(basename "${b:-?}"))"
ia=$(column instructions_per_op "$a/cpu-read.csv") ib=$(column instructions_per_op "$b/cpu-read.csv")
n=$(printf '%s\n' "$ia" | grep -cE ' [0-9]')
like "$n" '^([6-9]|[12][0-9])$' "at least 6 rows have an instruction count ($n)"
is "$ib" "$ia" "every row's instructions/op is identical across the two boots"
is "$(column accel "$a/cpu-read.csv" | awk '{print $2}' | sort -u)" icount "every row says accel icount"
is "$(column ns_per_op "$a/cpu-read.csv" | awk 'NF > 1' | wc -l)" 0 "no row has an ns figure"
is "$(grep -cE ' [+-][0-9.]+$' "$t/same")" "$n" "the table has a difference for each counted row"
is "$(grep -E ' [+-][0-9.]+$' "$t/same" | grep -cvE ' [+-]0$')" 0 "and every difference is 0"
like "$(cat "$a/cpu-read.meta")" "figures: instructions/op" "the metadata says instructions/op"
like "$(cat "$a/lab-boot.info")" "cpus: 1" "icount boots have 1 vCPU by default"

A_RUN=$a "$LAB/bench/cpu-read/compare-icount" rseq-y rseq-n > "$t/yn" 2> "$t/yn.log"
ok $? "an icount boot of rseq-n"
n_dir=$(sed -n 's/^>> B: //p' "$t/yn.log")
y=$(column instructions_per_op "$a/cpu-read.csv" | awk '$1 == "sched_getcpu-rseq-on" {print $2}')
n=$(column instructions_per_op "$n_dir/cpu-read.csv" | awk '$1 == "sched_getcpu-rseq-on" {print $2}')
diag "glibc sched_getcpu: rseq-y $y, rseq-n $n instructions/op"
perl -e 'exit !($ARGV[0] ne "" && $ARGV[1] ne "" && $ARGV[0] < $ARGV[1])' -- "$y" "$n"
ok $? "glibc sched_getcpu is shorter on rseq-y ($y) than on rseq-n ($n)"
like "$(column path "$n_dir/cpu-read.csv" | grep '^sched_getcpu-rseq-on')" "vDSO" \
	"on rseq-n it goes through the vDSO"
like "$(cat "$t/yn")" "glibc sched_getcpu \(glibc rseq on\) +$(printf %g "$y") +$(printf %g "$n") +\+" \
	"the table shows both and B - A"
done_testing
