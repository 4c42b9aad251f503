#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CPU-read goals, judged apart from printing, on made-up rows: the unit test's own TAP.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/tests/lab-goals-test
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
exec "$bin"
