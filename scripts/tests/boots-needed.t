#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# "Boots needed" with its uncertainty (labreport.stats): chi-square quantiles against a
# table's values, the range a between-boot variance from n boots gives a count that scales
# with it, and no count at all from 2 boots.
. "$(dirname "$0")/tap.sh"
py() { (cd "$LAB/scripts" && python3 -c "from labreport import stats; $1"); }
# chi-square 2.5 % and 97.5 % points (any table): df 1: 0.000982, 5.024; df 4: 0.484, 11.143;
# df 9: 2.700, 19.023.
is "$(py 'print(" ".join("%.4g" % stats.chi2_quantile(p, d) for d in (1, 4, 9) for p in (0.025, 0.975)))')" \
	"0.0009821 5.024 0.4844 11.14 2.7 19.02" "chi-square quantiles as tabulated"
is "$(py 'print(stats.boots_needed_text("42", "10"))')" "needs 42 boots (95 %: 20 to 140, from 10 boots)" \
	"from 10 boots: 42 x 9/19.02 to 42 x 9/2.70"
is "$(py 'print(stats.boots_needed_text("42", "2"))')" "boots needed cannot be estimated from 2 boots" \
	"from 2 boots: no count (its range spans a thousandfold)"
is "$(py 'print(stats.boots_needed_text("", "5"))')" "boots needed unknown" "no estimate: unknown, not 0"
done_testing
