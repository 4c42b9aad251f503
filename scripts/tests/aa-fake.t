#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/aa with no kernel: its icount design over compare's fake kernels and boots
# (fake-compare.sh). Repeat R's boots take their seeds from AA_SEED0 + (R - 1) x 1000, so no
# two boots of the A/A share one; every repeat's comparisons reach aa.csv under its number;
# a repeat that fails fails the whole run with one line and writes nothing.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-compare.sh"
export KSRC=$repo
c=$(commit 186 ok ok "fake")
"$LAB_COMPARE_FAKE" build base "$c" && "$LAB_COMPARE_FAKE" build test "$c"
ok $? "two fake kernels"
key() { sed -n "s/^$2: //p" "$1" | head -n 1; }
# seeds DIR: the boot seeds of every boot under DIR, sorted
seeds() { for f in $(find "$1" -name lab-boot.info -path '*/boots/*'); do key "$f" boot_seed; done | sort -n | tr '\n' ' '; }

AA_REPEATS=2 AA_SEED0=1000 AA_KERNEL=cmp-base AA_CTXSW="CTXSW_ROUNDS=2" DATA=$t/aa \
	"$LAB/scripts/aa" ctxsw-icount > "$t/out" 2> "$t/err"
ok $? "an A/A of two repeats runs"
run=$(sed -n 's/^>> results in //p' "$t/out")
s1=$(seeds "$run/runs/ctxsw-icount-1") s2=$(seeds "$run/runs/ctxsw-icount-2")
is "$(wc -w <<< "$s1")/$(wc -w <<< "$s2")" "4/4" "each repeat boots two rounds of two sides"
is "${s1%% *}/${s2%% *}" "1001/2001" "repeat R's seeds start at AA_SEED0 + (R - 1) x 1000 + 1"
is "$(echo $s1 $s2 | tr ' ' '\n' | sort -u | wc -l)" 8 "no two boots of the A/A share a seed"
is "$(csv_cols "$run/aa.csv" repeat 2>/dev/null | sort -u | tr '\n' ' ')" "1 2 " \
	"aa.csv holds both repeats' comparisons"
like "$(grep '^seed0: ' "$run/aa.meta" 2>/dev/null)" "^seed0: 1000$" "aa.meta records the first seed"

c2=$(commit 186 ok ok "mute" "mute_seed: 2003")
"$LAB_COMPARE_FAKE" build base "$c2" >/dev/null
AA_REPEATS=2 AA_SEED0=1000 AA_KERNEL=cmp-base AA_CTXSW="CTXSW_ROUNDS=2" DATA=$t/bad \
	"$LAB/scripts/aa" ctxsw-icount > "$t/out2" 2> "$t/err2"; rc=$?
ok $((rc == 0)) "a boot of repeat 2 that leaves no output fails the A/A (status $rc)"
like "$(grep '^error: ' "$t/err2")" "ctxsw-icount, repeat 2: the run failed" "  naming the repeat"
is "$(ls -A "$t/bad" 2>/dev/null)" "" "  and nothing is written"
done_testing
