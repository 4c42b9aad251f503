#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A real `git bisect run scripts/compare` over a synthetic series with a known first bad
# commit. Building and booting a kernel per commit would take hours, so the kernels are
# faked through compare's test-only seam LAB_COMPARE_FAKE (fixtures/compare/fake-kernel: each
# revision's "fake" file says its syscall cost and whether it builds and boots); everything
# from the exit statuses to the figures, lab-ab and FAIL_ABOVE is the lab's. A boot that fails
# for a reason not the kernel's aborts the bisect (no commit marked bad); a crash does too,
# unless FAIL_ON_CRASH=1 makes it bad. About 15 compare runs, no kernel.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-compare.sh"
c0=$(commit 186 ok ok "base")
commit 186 ok ok "a change that costs nothing" >/dev/null
c2=$(commit 190 ok ok "+2 %: under the bound")
c3=$(commit 250 ok ok "+34 %: the first bad commit")
c4=$(commit 250 ok fail "does not build")
c5=$(commit 250 ok ok "tip")

# bisect GOOD BAD [ENV...]: git bisect run compare; its output in $out, its status in $r
bisect() {
	local good=$1 bad=$2; shift 2
	g bisect reset >/dev/null 2>&1
	g bisect start "$bad" "$good" >/dev/null 2>&1
	out=$(cd "$repo" && git bisect run env KSRC="$repo" BASE="$good" TEST=HEAD \
		FAIL_ABOVE=cpu-read.syscall:5 "$@" "$LAB/scripts/compare" 2>&1); r=$?
	log=$(g bisect log)
	g bisect reset >/dev/null 2>&1
}

t0=$(date +%s)
bisect "$c0" "$c5"
is "$r" 0 "git bisect run over 5 commits finishes"
like "$out" "$c3 is the first bad commit" "and finds the known first bad commit ($(git -C "$repo" log -1 --format=%s "$c3"))"
like "$log" "good: \[$c2\]" "a rise under the FAIL_ABOVE bound is good"
diag "bisect: $(( $(date +%s) - t0 )) s"

# a test build that fails: 125, git bisect's skip
out=$(KSRC=$repo BASE=$c0 TEST=$c4 "$LAB/scripts/compare" 2>&1); r=$?
is "$r" 125 "a revision that does not build: exit 125 (skip)"

# Boots that fail: d1 is between a good and a bad commit, so bisect must test it.
g checkout -q -b fails "$c0"
d1=$(commit 186 infra ok "the host's QEMU fails at this commit")
d2=$(commit 250 ok ok "bad")
bisect "$c0" "$d2"
ok $((r == 0)) "a boot that failed for a non-kernel reason aborts the bisect (status $r)"
like "$out" "exit code 128" "compare exited 128"
ok $(grep -q "bad: \[$d1\]" <<< "$log"; echo $((!$?))) "and marked no commit bad for it"
ok $(grep -q "is the first bad commit" <<< "$out"; echo $((!$?))) "and named no first bad commit"

g checkout -q -b crashes "$c0"
e1=$(commit 186 crash ok "crashes in the guest")
e2=$(commit 250 ok ok "bad")
bisect "$c0" "$e2"
ok $((r == 0)) "a test kernel that crashes: no verdict without FAIL_ON_CRASH (status $r)"
ok $(grep -q "bad: \[$e1\]" <<< "$log"; echo $((!$?))) "no commit marked bad for it"
bisect "$c0" "$e2" FAIL_ON_CRASH=1
like "$out" "$e1 is the first bad commit" "with FAIL_ON_CRASH=1 the crashing commit is the first bad one"
ok $([ -z "$(ls -A "$t/data" 2>/dev/null | grep -v compare)" ]; echo $?) "data/ holds compare runs only"
done_testing
