#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make compare's bad inputs: a revision that does not exist, a KSRC that is not a kernel tree
# (each one line, exit 128, before any build; the others in compare-check.t), a revision whose
# build fails (exit 125, git bisect's skip, its log path in one line), a dirty tree (built as
# it is: a warning, the diff hash in the identity). data/ is never written.
# Uses the known-answer test's repository (build/tests/ka-linux) when it is there.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d)
. "$(dirname "$0")/ka-repo.sh"
guest_tier --part "kernel builds" && [ -f "$src/.lab-unpacked" ] && ka_repo >/dev/null 2>&1
branch=$(git -C "$repo" symbolic-ref --short HEAD 2>/dev/null || echo master)
cleanup() {
	rm -rf "$t"
	# the broken commit lives on a branch of its own; the tree goes back to HEAD
	git -C "$repo" checkout -q -f "$branch" 2>/dev/null
	git -C "$repo" branch -q -D lab-broken 2>/dev/null
}
trap cleanup EXIT
export DATA=$t/data PLOTS=$t/plots
untouched() { ok $([ ! -e "$DATA" ] || [ -z "$(ls -A "$DATA")" ]; echo $?) "$1: data/ untouched"; }

cmp() { out=$(make -s -C "$LAB" compare "$@" 2>&1); r=$?; }
direct() { out=$(env "$@" "$LAB/scripts/compare" 2>&1); r=$?; }

# Bad input in detail: compare-check.t. Here: scripts/compare stops on it with 128 (no verdict).
direct BASE=HEAD TEST=HEAD KSRC=/nonexistent
is "$r" 128 "KSRC that does not exist: exit 128"
is "$(grep -c '^error: ' <<< "$out")" 1 "one error line"
like "$out" "^error: KSRC=/nonexistent: no such directory" "naming KSRC"
mkdir -p "$t/notakernel"; echo hi > "$t/notakernel/README"
direct BASE=HEAD TEST=HEAD KSRC="$t/notakernel"
is "$r" 128 "KSRC that is not a kernel tree: exit 128"
like "$out" "KSRC=.*notakernel is not a git tree" "says so in one line"
untouched "bad arguments"

if guest_tier --part "kernel builds" && [ -d "$repo/.git" ]; then
	cmp KSRC="$repo" BASE=HEAD TEST=no-such-rev BENCH=size
	ok $((r == 0)) "a revision that does not exist fails"
	like "$out" "^error: KSRC=.*: no revision 'no-such-rev'" "naming the revision"
	untouched "a missing revision"

	# A revision whose build fails: kernel/bounds.c (compiled first) made an #error.
	git -C "$repo" branch -q -f lab-broken HEAD
	git -C "$repo" checkout -q lab-broken
	rm "$repo/kernel/bounds.c" && git -C "$repo" show HEAD:kernel/bounds.c > "$repo/kernel/bounds.c" &&
		echo '#error lab: broken on purpose' >> "$repo/kernel/bounds.c"
	git -C "$repo" -c user.name=lab -c user.email=lab@localhost commit -qam "lab: a revision that does not build"
	broken=$(git -C "$repo" rev-parse HEAD)
	git -C "$repo" checkout -q -f "$branch"
	direct KSRC="$repo" BASE=HEAD TEST="$broken" BENCH=size
	is "$r" 125 "a revision that does not build: exit 125 (bisect skip)"
	like "$out" "error: rseq-y: kernel build failed, see .*build/logs/rseq-y\.[0-9a-f]+\.build\.log" "its log path in one line"
	# the error line's log: when BASE is not in the store yet, its build's stage line names
	# another (the base's) log first
	log=$(sed -n 's/^error: rseq-y: kernel build failed, see \([^ ;]*\);.*/\1/p' <<< "$out" | head -n 1)
	case $log in /*) ;; *) log=$LAB/$log ;; esac  # printed relative to the lab
	grep -q 'broken on purpose' "$log" 2>/dev/null; ok $? "and the log has the compiler's error"
	untouched "a failed build"

	# A dirty tree: built as it is (configured here: the build is the clean path's), warned
	# about, its diff hash in the identity and differing from the clean tree's.
	clean=$(KSRC=$repo "$LAB/scripts/kernel-identity" --source)
	rm "$repo/kernel/sys.c" && git -C "$repo" show HEAD:kernel/sys.c > "$repo/kernel/sys.c" &&
		echo '/* lab: a local change */' >> "$repo/kernel/sys.c"
	dirty=$(KSRC=$repo "$LAB/scripts/kernel-identity" --source)
	like "$clean" " clean$" "a clean tree's identity says clean"
	like "$dirty" " [0-9a-f]{16}$" "a dirty tree's identity has its diff hash"
	ok $([ "${clean% *}" = "${dirty% *}" ]; echo $?) "same path and commit otherwise"
	out=$(KSRC=$repo CONFIGURE_ONLY=1 "$LAB/scripts/build-kernel" rseq-y 2>&1); r=$?
	is "$r" 0 "a dirty tree configures (built as it is)"
	like "$out" "warning: KSRC=.* has uncommitted changes: built as it is, diff hash ${dirty##* } recorded" "with a warning"
	git -C "$repo" checkout -q -f HEAD -- kernel/sys.c
else
	skip "no $repo (no unpacked tree), or make check" "revision and build errors"
fi
done_testing
