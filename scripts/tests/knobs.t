#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every knob declared: each variable a user-facing script or Makefile reads from the
# environment (found by scripts/tests/knob-reads) is a `param:` of scripts/knobs or of a
# bench's meta; scripts/knobs' defaults are the Makefiles' ?= ones; make help shows every
# declared knob, grouped (main job, compare, fleet, then each bench).
. "$(dirname "$0")/tap.sh"
reads=$("$LAB/scripts/tests/knob-reads" "$LAB"); ok $? "knob-reads runs"
# The scanner itself: reads of each kind it must see (shell, make ?=, make override, Python).
for want in "KSRC scripts/build-kernel" "TEST_VARIANTS Makefile" "CONFIG Makefile" \
	"LAVA_WAIT lava/fetch" "N bench/hackbench/bench.mk"; do
	grep -qxF "$want" <<< "$reads"; ok $? "knob-reads finds $want"
done
declared=$(sed -n 's/^param:[[:space:]]*\([A-Z_][A-Z0-9_]*\).*/\1/p' "$LAB/scripts/knobs" "$LAB"/bench/*/meta "$LAB"/scripts/arch/meta "$LAB"/scripts/kver/meta | sort -u)
declare -A by
while read -r k f; do by[$k]="${by[$k]:+${by[$k]} }$f"; done <<< "$reads"
for k in $(printf '%s\n' "${!by[@]}" | sort); do
	[[ $'\n'$declared$'\n' == *$'\n'$k$'\n'* ]]
	ok $? "$k is declared (read by ${by[$k]})"
done

# The Makefiles' defaults: a ?= with a plain value must be the knob's declared default.
for mk in "$LAB/Makefile" "$LAB/lava/lava.mk"; do
	while read -r k v; do
		case $v in *'$('*) continue ;; esac
		d=$(sed -n "s/^param:[[:space:]]*$k[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p" "$LAB/scripts/knobs")
		[ -n "$d" ] || continue
		[ "$d" = - ] && d=
		is "${d//_/ }" "$v" "$k: scripts/knobs' default is ${mk#"$LAB/"}'s"
	done < <(sed -n 's/^\([A-Z_][A-Z0-9_]*\)[[:space:]]*?=[[:space:]]*\(.*\)$/\1 \2/p' "$mk")
done

# make help: every declared knob, in its group.
help=$(make -s -C "$LAB" --no-print-directory help 2>&1); ok $? "make help runs"
for g in lab compare fleet; do like "$help" "^$g: " "make help has the $g group"; done
missing=
for k in $declared; do grep -qE "^  $k( |$)" <<< "$help" || missing="$missing $k"; done
is "$missing" "" "make help shows every declared knob"
like "$(sed -n '/^compare: /,/^$/p' <<< "$help")" "^  FAIL_ABOVE " "FAIL_ABOVE is shown in the compare group"
done_testing
