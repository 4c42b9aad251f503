#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tap.sh's bounded: a host-side test program that livelocks fails (status 124) within its bound
# instead of hanging the test run; one that finishes keeps its own status.
. "$(dirname "$0")/tap.sh"
t0=$(date +%s%N)
timeout 30 bash -c '. "$1"; bounded 1 sh -c "while :; do :; done"' _ "$LAB/scripts/tests/tap.sh"; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
is "$rc" 124 "a livelocked program ends with status 124"
ok $((ms > 3000)) "within its 1 s bound ($ms ms)"
bounded 5 sh -c 'exit 3'; is "$?" 3 "a program that finishes keeps its status"
# (It sleeps rather than spins: the KILL does not care, and a spin would hold a CPU for the 5 s
# between SIGTERM and SIGKILL while the other test files wait for it.)
bounded 1 sh -c 'trap "" TERM; while :; do sleep 0.2; done'; is "$?" 137 "one that ignores SIGTERM is killed (137)"
done_testing
