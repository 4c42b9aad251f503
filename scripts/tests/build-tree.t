#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one build tree (scripts/build-tree): it holds the series asked for, byte for byte; a file
# no series touches is never rewritten (its time stays, so kbuild and ccache see it unchanged);
# a file a series changed gets a new time when it changes back; patch-tree lists what a series
# changed.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export BUILD=$t/build KVER=9.9
p=$BUILD/src/linux-9.9
mkdir -p "$p/kernel" "$p/include" "$t/series"
echo pristine > "$p/.lab-unpacked"
printf 'int a;\n' > "$p/kernel/a.c"
printf 'int b;\n' > "$p/kernel/b.c"
printf '#define X 1\n' > "$p/include/x.h"
touch -d '2020-01-01' "$p/kernel/a.c" "$p/kernel/b.c" "$p/include/x.h"

# A series: changes a.c, adds new.c.
cat > "$t/series/1.patch" <<'EOF'
--- a/kernel/a.c
+++ b/kernel/a.c
@@ -1 +1 @@
-int a;
+int a = 1;
--- /dev/null
+++ b/kernel/new.c
@@ -0,0 +1 @@
+int n;
EOF
echo 1.patch > "$t/series/series"
patched=$("$LAB/scripts/patch-tree" "$t/series" 2>/dev/null); ok $? "patch-tree applies the series"
is "$(cat "$patched/.lab-changed" | paste -sd' ')" "kernel/a.c kernel/new.c" "patch-tree lists the files the series changed"

b=$("$LAB/scripts/build-tree" "$p" 2>/dev/null); ok $? "build-tree makes the tree from the pristine one"
is "$b" "$BUILD/src/linux-9.9+build" "at one path"
ok "$(diff -r -x '.lab-*' "$p" "$b" >/dev/null; echo $?)" "with the pristine contents"

mt() { stat -c %Y "$b/$1"; }
"$LAB/scripts/build-tree" "$patched" > /dev/null 2>&1; ok $? "then the series"
ok "$(diff -r -x '.lab-*' "$patched" "$b" >/dev/null; echo $?)" "the tree holds the series' contents"
is "$(mt kernel/b.c) $(mt include/x.h)" "$(date -d 2020-01-01 +%s) $(date -d 2020-01-01 +%s)" \
	"files the series does not touch keep their time"
[ "$(mt kernel/a.c)" -gt "$(date -d 2021-01-01 +%s)" ]; ok $? "the changed file has a new time"

touch -d '2020-06-01' "$b/kernel/a.c"
"$LAB/scripts/build-tree" "$p" > /dev/null 2>&1; ok $? "back to the pristine tree"
ok "$(diff -r -x '.lab-*' "$p" "$b" >/dev/null; echo $?)" "pristine contents again"
[ ! -e "$b/kernel/new.c" ]; ok $? "the series' new file is gone"
[ "$(mt kernel/a.c)" -gt "$(date -d 2021-01-01 +%s)" ]; ok $? "the file changed back has a new time (objects built from the series are older)"
is "$(mt kernel/b.c)" "$(date -d 2020-01-01 +%s)" "the untouched file still keeps its time"

before=$(mt kernel/a.c)
out=$("$LAB/scripts/build-tree" "$p" 2>&1 >/dev/null)
is "$out$(mt kernel/a.c)" "$before" "the same tree again: nothing rewritten, nothing said"

# Seeding: the files a switch rewrote get the seed tree's time where the bytes are the seed's.
is "$(sort "$b/.lab-rewritten" | paste -sd' ')" "kernel/a.c kernel/new.c" "every file ever rewritten is listed"
"$LAB/scripts/build-tree" --times "$p" 2>/dev/null; ok $? "--times with a pristine seed"
is "$(mt kernel/a.c)" "$(date -d 2020-01-01 +%s)" \
	"a file back to the pristine bytes gets the pristine time (a pristine seed's objects are newer)"
"$LAB/scripts/build-tree" --times "$patched" 2>/dev/null
[ "$(mt kernel/a.c)" -gt "$(date -d 2021-01-01 +%s)" ]; ok $? \
	"with the series' seed: the same file, other bytes than the seed's, gets the time of now"
is "$(stat -c %Y "$p/kernel/a.c")" "$(date -d 2020-01-01 +%s)" "the pristine tree's file keeps its time"
"$LAB/scripts/build-tree" "$patched" > /dev/null 2>&1
touch -d '2020-03-01' "$patched/kernel/a.c"
"$LAB/scripts/build-tree" --times "$patched" 2>/dev/null
is "$(mt kernel/a.c)" "$(date -d 2020-03-01 +%s)" "the series' bytes with the series' seed: the seed tree's time"
# A seed that took most objects over from its own seed: its series copy (made for it) is newer
# than those objects; the pristine tree's unpack time is older than every object.
touch -d '+1 hour' "$patched/kernel/a.c"
"$LAB/scripts/build-tree" --times "$patched" 2>/dev/null
is "$(mt kernel/a.c)" "$(stat -c %Y "$p/.lab-unpacked")" \
	"a series copy newer than the unpacking: the file gets the unpack time"
"$LAB/scripts/build-tree" --times "$p" 2>/dev/null
[ "$(mt kernel/a.c)" -gt "$(date -d 2021-01-01 +%s)" ]; ok $? "the series' bytes with a pristine seed: the time of now"
is "$(stat -c %Y "$p/kernel/b.c") $(mt kernel/b.c)" "$(date -d 2020-01-01 +%s) $(date -d 2020-01-01 +%s)" \
	"a file no series touches is left alone"
"$LAB/scripts/build-tree" "$p" > /dev/null 2>&1

# A re-unpacked pristine tree starts the build tree anew.
sleep 1; touch "$p/.lab-unpacked"; echo 'int c;' > "$p/kernel/c.c"
"$LAB/scripts/build-tree" "$p" > /dev/null 2>&1
[ -f "$b/kernel/c.c" ]; ok $? "a re-unpacked pristine tree is copied again"
out=$("$LAB/scripts/build-tree" "$t/nope" 2>&1); r=$?
ok $((r == 0)) "a missing tree fails"
is "$(printf '%s\n' "$out" | wc -l)" 1 "in one line ($out)"
done_testing
