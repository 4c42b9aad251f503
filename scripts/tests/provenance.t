#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Provenance (scripts/bench-lib.sh): lab_commit is the commit alone; lab_dirty says "yes" only
# when the lab's own files differ from it: new runs in data/ or plots/ do not count.
. "$(dirname "$0")/tap.sh"
. "$LAB/scripts/bench-lib.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
r=$t/lab
mkdir -p "$r/scripts" "$r/data" "$r/plots"
echo a > "$r/scripts/x"; echo d > "$r/data/old"; echo p > "$r/plots/report.txt"
git -C "$r" init -q && git -C "$r" add -A && git -C "$r" -c user.name=t -c user.email=t@t commit -qm init
is "$(lab_commit "$r")" "$(git -C "$r" rev-parse HEAD)" "lab_commit: the commit, no suffix"
is "$(lab_dirty "$r")" no "a clean tree: lab_dirty no"
mkdir -p "$r/data/20260101T000000Z-host-rseq-y"; echo 1 > "$r/data/20260101T000000Z-host-rseq-y/x.csv"
echo changed > "$r/data/old"; echo newer > "$r/plots/report.txt"; echo n > "$r/plots/new.png"
is "$(lab_dirty "$r")" no "new and changed files in data/ and plots/ only: still no"
echo b > "$r/scripts/x"
is "$(lab_dirty "$r")" yes "a changed source file: yes"
git -C "$r" checkout -q -- scripts/x; echo n > "$r/scripts/new"
is "$(lab_dirty "$r")" yes "an untracked source file: yes"
is "$(lab_commit "$t")/$(lab_dirty "$t")" "unknown/unknown" "outside git: unknown, unknown"
out=$(lab_provenance)
like "$out" $'^lab_commit: [0-9a-f]{40}\nlab_dirty: (yes|no)$' "lab_provenance: two fields, lab_commit and lab_dirty"
done_testing
