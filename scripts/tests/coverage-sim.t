#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The coverage of lab-ab's intervals by simulation (scripts/coverage-sim, a fixed seed: the
# same draws every run): paired t, Welch t, Fieller paired and unpaired, Hodges-Lehmann at its
# achieved level, Holm's family-wise intervals, a host quantile's range over 5 processes
# (procs-merge), each within what its nominal level gives the number of simulations 999 times
# in 1000. An interval made too narrow (or too wide) fails.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
out=$("$LAB/scripts/coverage-sim" --sims 300 --check); rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
is "$rc" 0 "every interval's coverage is within its nominal level's range"
for m in "paired t" "Fieller, paired" "Welch t" "Fieller, Welch" "Hodges-Lehmann" "Holm-adjusted, family of 4" \
	"median process, range of 5"; do
	like "$out" "^$m +[0-9]+ +[0-9.]+ %" "$m: simulated"
done
"$LAB/scripts/coverage-sim" --sims 5 > /dev/null 2> /dev/null; rc=$?
is "$rc" 2 "too few simulations: a usage error"
done_testing
