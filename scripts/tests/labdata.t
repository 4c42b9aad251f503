#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/labdata.py, the one reader of data/, held to its docstrings: a repeated key's first
# value and all of them in file order; lines that are not "key: value" skipped; an absent
# file reads as empty; a run has a file only when it is non-empty, and lists only those; the
# runs are oldest first and a hidden (unfinished) one is never read; a CSV with RFC 4180
# quoting, a missing cell read as "".
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/data/20261201T000000Z-vm-b" "$t/data/20261130T000000Z-vm-a" "$t/data/.run.x" "$t/data/20261202T000000Z-vm-c"
printf 'bench: x\nseed: 1\n# a comment\nnot a pair\nseed: 2\nlabel: a: b\n' > "$t/data/20261201T000000Z-vm-b/x.meta"
: > "$t/data/20261201T000000Z-vm-b/empty.csv"
printf 'a,b,c\n1,"two, quoted",3\n4,5\n' > "$t/data/20261201T000000Z-vm-b/x.csv"
printf 'a\n1\n' > "$t/data/.run.x/x.csv"
out=$(PYTHONPATH=$LAB/scripts python3 - "$t/data" <<'PY'
import sys, labdata
runs = labdata.runs(sys.argv[1])
print("runs:", " ".join(r.name for r in runs))
b = [r for r in runs if r.name.endswith("-b")][0]
m = b.keyvalues("x.meta")
print("first:", m.first("seed"))
print("all:", ",".join(m.all("seed")))
print("joined:", repr(m.joined("seed")))
print("colon:", m.first("label"))
print("default:", m.first("nokey", "none"))
print("pairs:", len(m.pairs))
print("absent:", len(b.keyvalues("no.meta").pairs))
print("has empty:", b.has("empty.csv"), "has x:", b.has("x.csv"), "has none:", b.has("no.csv"))
print("files:", ",".join(b.files("*.csv")))
rows = b.csv("x.csv")
print("cell:", rows[0]["b"], "| missing:", repr(rows[1]["c"]))
PY
)
like "$out" "^runs: 20261130T000000Z-vm-a 20261201T000000Z-vm-b 20261202T000000Z-vm-c$" \
	"runs: oldest first, the hidden unfinished one left out"
like "$out" "^first: 1$" "a repeated key: first() is its first value"
like "$out" "^all: 1,2$" "... all() every value in file order"
like "$out" "^joined: '1\\\\n2'$" "... joined() one a line"
like "$out" "^colon: a: b$" "a value may hold ': '"
like "$out" "^default: none$" "an absent key: the default"
is "$(sed -n 's/^pairs: //p' <<<"$out")" 4 "comments and lines without ': ' are skipped"
is "$(sed -n 's/^absent: //p' <<<"$out")" 0 "an absent file reads as empty"
like "$out" "^has empty: False has x: True has none: False$" "an empty file is not had"
like "$out" "^files: x.csv$" "files() lists only non-empty files"
like "$out" "^cell: two, quoted \| missing: ''$" "CSV: a quoted comma kept, a missing cell empty"
done_testing
