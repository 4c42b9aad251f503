#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Patch series: a patch that does not apply stops with its name and the failing hunk, and
# leaves no half-patched tree behind; a series that applies gives a patched copy, and the
# pristine tree stays untouched.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# A pristine tree of two files in a scratch BUILD: patch-tree copies the whole tree twice
# here, and what it does with it does not depend on its size.
export BUILD=$t/build
mkdir -p "$BUILD/src/linux-$KVER/kernel"
printf 'one\ntwo\nthree\n' > "$BUILD/src/linux-$KVER/kernel/rseq.c"
echo "$KVER-lab" > "$BUILD/src/linux-$KVER/.lab-unpacked"

mk_patch() { # mk_patch FILE OLD-LINE NEW-LINE: a one-hunk patch against kernel/rseq.c
	cat > "$1" <<EOP
From: Lab Test <lab@example.invalid>
Subject: [PATCH] test

--- a/lab-test.txt
+++ b/lab-test.txt
@@ -0,0 +1 @@
+$3
EOP
	[ -n "$2" ] && cat > "$1" <<EOP
Subject: [PATCH] test that cannot apply

--- a/kernel/rseq.c
+++ b/kernel/rseq.c
@@ -1,3 +1,3 @@
-$2
+$3
 this context line is not in the tree
 nor is this one
EOP
	return 0
}
mkdir -p "$t/lab-test-bad" "$t/lab-test-good"
mk_patch "$t/lab-test-bad/0001-add.patch" "" "hello from the lab"
mk_patch "$t/lab-test-bad/0002-broken.patch" "no such line" "changed"
printf '# a comment\n0001-add.patch\n0002-broken.patch -p1\n' > "$t/lab-test-bad/series"
out=$("$LAB/scripts/patch-tree" "$t/lab-test-bad" 2>&1); r=$?
ok $((r == 0)) "a series with a patch that does not apply fails"
like "$out" "error: patch 0002-broken.patch \(series lab-test-bad\) does not apply" "the error names the patch"
like "$out" "FAILED" "and shows the failing hunk"
ok $([ ! -e "$BUILD/src/linux-$KVER+lab-test-bad" ] && [ ! -e "$BUILD/src/linux-$KVER+lab-test-bad.tmp" ]; echo $?) \
	"no half-patched tree is left to reuse"

cp "$t/lab-test-bad/0001-add.patch" "$t/lab-test-good/"
echo 0001-add.patch > "$t/lab-test-good/series"
tree=$("$LAB/scripts/patch-tree" "$t/lab-test-good" 2>/dev/null); r=$?
ok $r "a series that applies gives a patched tree"
is "$(cat "$tree/lab-test.txt" 2>/dev/null)" "hello from the lab" "with the patch in it"
ok $([ ! -e "$BUILD/src/linux-$KVER/lab-test.txt" ]; echo $?) "and the pristine tree untouched"
again=$("$LAB/scripts/patch-tree" "$t/lab-test-good" 2>&1)
is "$again" "$tree" "an unchanged series reuses its tree without patching again"

echo 'missing.patch' > "$t/lab-test-good/series"
out=$("$LAB/scripts/patch-tree" "$t/lab-test-good" 2>&1); r=$?
ok $((r == 0)) "a series naming a missing file fails"
like "$out" "names missing.patch, which is not in" "and says which"
done_testing
