#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/patch-block: a compare block where a posting carries it: below a patch's ---, before
# its diffstat (git am drops it), in place of a cover letter's blurb; a rerun replaces the
# block; a file that is not a format-patch is one line and untouched. compare-check refuses a
# PATCH it could not write into, before any build.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf 'A/B of ctxsw: 5 boots x 3 batches per kernel\n  switch +98.4 insn [+97.9, +99.0]\n' > "$t/block"
cat > "$t/0001.patch" <<'P'
From 1234 Mon Sep 17 00:00:00 2001
From: A Developer <a@example.org>
Subject: [PATCH] rseq: do less on exit

Body of the message.

Signed-off-by: A Developer <a@example.org>
---
 kernel/rseq.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/rseq.c b/kernel/rseq.c
--- a/kernel/rseq.c
+++ b/kernel/rseq.c
P
"$LAB/scripts/patch-block" "$t/0001.patch" "$t/block"; ok $? "the block goes into a patch"
is "$(sed -n '/^---$/,/^ kernel/p' "$t/0001.patch" | tr '\n' '|')" \
	"---|rseq-lab block:|A/B of ctxsw: 5 boots x 3 batches per kernel|  switch +98.4 insn [+97.9, +99.0]|end of rseq-lab block|| kernel/rseq.c | 2 +-|" \
	"below ---, before the diffstat"
printf 'A/B again\n' > "$t/block2"
"$LAB/scripts/patch-block" "$t/0001.patch" "$t/block2"
is "$(grep -c 'rseq-lab block:' "$t/0001.patch")" 1 "a rerun replaces the block, never adds a second"
like "$(cat "$t/0001.patch")" "rseq-lab block:
A/B again
end of rseq-lab block" "  with the new one"
cat > "$t/0000.patch" <<'P'
From 1234 Mon Sep 17 00:00:00 2001
Subject: [PATCH 0/2] rseq: less work

*** BLURB HERE ***

A Developer (2):
  rseq: one
P
"$LAB/scripts/patch-block" "$t/0000.patch" "$t/block"; ok $? "the block goes into a cover letter"
is "$(sed -n '4,5p' "$t/0000.patch" | tr '\n' '|')" "rseq-lab block:|A/B of ctxsw: 5 boots x 3 batches per kernel|" "  where its blurb was"
printf 'not a patch\n' > "$t/notes.txt"
cp "$t/notes.txt" "$t/before"
"$LAB/scripts/patch-block" "$t/notes.txt" "$t/block" > /dev/null 2> "$t/err"
ok $([ $? = 1 ] && [ "$(wc -l < "$t/err")" = 1 ] && cmp -s "$t/notes.txt" "$t/before"; echo $?) \
	"a file that is not a format-patch: one line, untouched"
out=$(BASE=rseq-y TEST=rseq-debug PATCH=$t/missing.patch "$LAB/scripts/compare-check" 2>&1); rc=$?
ok $([ $rc = 128 ] && [[ $out == *"PATCH: $t/missing.patch: No such file or directory"* ]]; echo $?) \
	"compare-check: a PATCH that does not exist is no verdict (128), before any build"
out=$(BASE=rseq-y TEST=rseq-debug PATCH=$t/notes.txt "$LAB/scripts/compare-check" 2>&1)
like "$out" "PATCH: .*notes.txt is not a git format-patch file" "  and one that is not a patch"
done_testing
