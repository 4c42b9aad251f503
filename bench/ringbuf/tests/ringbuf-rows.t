#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ringbuf's timing run on the host: a row for every method of --list at every thread count
# of --threads, each ok with a positive ns/op, labelled with the variant and accelerator given.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-ringbuf
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
bounded 60 "$bin" --threads 1,2 --reps 1 --duration 5 --variant v --accel none --out "$t" > /dev/null 2>&1
ok $? "lab-ringbuf times every method at 1 and 2 threads"
want=$("$bin" --list | awk '{ print $1 ",1"; print $1 ",2" }' | sort | tr '\n' ' ')
is "$(csv_cols "$t/ringbuf.csv" method threads 2>/dev/null | tr '\t' , | sort | tr '\n' ' ')" "$want" \
	"one row per method and thread count"
is "$(csv_cols "$t/ringbuf.csv" variant accel status 2>/dev/null | sort -u | tr '\t\n' ', ')" "v,none,ok " \
	"each ok, labelled with --variant and --accel"
is "$(csv_cols "$t/ringbuf.csv" ns_per_op 2>/dev/null | awk '!($1 > 0)' | wc -l)" 0 "each with a positive ns/op"
done_testing
