#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/labreport/rows.py held to its docstrings, values not formats: the spread is half the
# min-max range over the median (none without both ends, or ends the wrong way round); a
# speedup is base / row with its interval from the extremes (base min / row max to base max /
# row min); a difference's range is a.min - b.max to a.max - b.min and resolved only when it
# excludes 0; a row without "ok" on either side gives no speedup and no difference.
. "$(dirname "$0")/tap.sh"
out=$(PYTHONPATH=$LAB/scripts python3 - <<'PY'
from labreport import rows
def r(v, lo="", hi="", status="ok", unit="ns"):
    return {"label": "x", "status": status, "value": v, "min": lo, "max": hi, "unit": unit}
def ns(v, lo, hi, status="ok"):
    return {"status": status, "ns_per_op": v, "ns_min": lo, "ns_max": hi}
print("spread:", rows.spread("100", "90", "110"), rows.spread("100", "", "110"),
      rows.spread("100", "110", "90"), rows.spread("0", "1", "2"))
print("percent:", rows.percent(None), rows.percent(0), rows.percent(0.004), rows.percent(0.123),
      rows.percent(0.995))
print("figure:", rows.figure("1234", "insn"), rows.figure("12.346", "ns"), rows.figure("1234.6", "ns"))
print("speedup:", rows.speedup(r("10", "9", "11"), r("5", "4", "6")),
      rows.speedup(r("10"), r("5")), rows.speedup(r("10"), r("0")))
print("ns_speedup:", rows.ns_speedup(ns(10, 9, 11), ns(5, 4, 6)),
      rows.ns_speedup(ns(10, 9, 11), ns(5, 4, 6, "fail")),
      rows.ns_speedup(ns(10, 9, 11, "fail"), ns(5, 4, 6)), rows.ns_speedup(None, ns(5, 4, 6)))
print("difference:", rows.difference(r("10", "9", "11"), r("5", "4", "6")), "|",
      rows.difference(r("10", "9", "11"), r("9", "8", "10")), "|",
      rows.difference(r("10", "9", "11"), r("5", "4", "9")), "|",
      rows.difference(r("10", "9", "11"), r("9", status="fail")), "|",
      rows.difference(r("10", unit="insn"), r("7", unit="insn")))
print("line:", rows.line(r("10", "9", "11"), r("20", "18", "22")))
print("fail line:", rows.line(r("", status="failed: the guest crashed"), None))
PY
)
ok $? "rows.py runs"
get() { sed -n "s/^$1: //p" <<< "$out"; }
is "$(get spread)" "0.1 None None None" "spread: half the range over the median; none without both ends, reversed ends or a median"
is "$(get percent)" " ±0% ±1% ±12% >±99%" "percent: none, zero, at least 1 %, rounded, capped"
is "$(get figure)" "1234 12.35 1235" "figure: counts whole, times to two decimals, four figures past 1000"
is "$(get speedup)" "(2.0, 0.3125) (2.0, None) (None, None)" \
	"speedup: base / row, half-width from 9/6 to 11/4 over the ratio; none without extremes; none for a zero"
is "$(get ns_speedup)" "2.0x±31% - - -" "ns_speedup: a over b; '-' when either is not ok or absent"
is "$(get difference)" "+5.00 ns, range [+3.00, +7.00]: resolved | +1.00 ns, range [-1.00, +3.00]: unresolved | +5.00 ns, range [+0.00, +7.00]: unresolved | None | +3 insn (two loops' difference: not exact)" \
	"difference: a - b, range a.min - b.max to a.max - b.min, resolved only when it excludes 0 (an end at 0 does not)"
like "$(get line)" "^\['- x: +10\.00 ns +±10% +2\.0x +±20%'\]$" "line: the base's speedup over the row (20/10), its spread and the ratio's (18/11 to 22/9)"
like "$(get 'fail line')" "failed'\]$" "a row not ok shows its status, no figure"
done_testing
