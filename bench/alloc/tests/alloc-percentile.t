#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The latency arithmetic (lib/percentile.c): quantiles, their order-statistic intervals and the
# mean's interval against figures worked out by hand.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/host/tests/lab-percentile-test
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
exec "$bin"
