#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bench harness's arithmetic (ns/op, median, spread) and CSV rows on fixed inputs: the
# unit test's own TAP is this test's output.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
bin=$BUILD/guest/tests/lab-stats-test
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
exec "$bin"
