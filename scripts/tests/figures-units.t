#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/figures-units: the figures of many units (processes, boots) in one long-format file,
# each unit's side and boot as named, its reps kept; a unit named twice, a file without
# figures or a spec without its three parts is one error line.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
h=bench,figure,side,accel,unit,boot,rep,value
printf '%s\n%s\n%s\n' "$h" "cpu-read,vdso,host,none,ns,1,1,18.5" "cpu-read,vdso,host,none,ns,1,2,18.7" > "$t/p1"
printf '%s\n%s\n' "$h" "cpu-read,vdso,host,none,ns,1,,19.0" > "$t/p2"
out=$("$LAB/scripts/figures-units" A:1:"$t/p1" B:1:"$t/p2" A:2:"$t/p2"); ok $? "three units merge"
is "$(printf '%s\n' "$out" | head -n 1)" "$h" "the long format's header"
is "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f3,6,7,8 | tr '\n' ' ')" \
	"A,1,1,18.5 A,1,2,18.7 B,1,,19.0 A,2,,19.0 " "each row given its unit's side and boot, reps kept"
printf '%s\n' "$h" > "$t/none"
for specs in "A:1:$t/p1 A:1:$t/p2" "A:1:$t/none" "A:$t/p1" "A:1:$t/missing"; do
	# shellcheck disable=SC2086
	"$LAB/scripts/figures-units" $specs > /dev/null 2> "$t/err"; rc=$?
	ok $([ $rc = 1 ] && [ "$(wc -l < "$t/err")" = 1 ]; echo $?) "'${specs//$t\//}': one error line (exit $rc)"
done
done_testing
