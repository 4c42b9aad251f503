#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The generated mutants (scripts/mutants.py, scripts/mutate --sample): each operator finds its
# sites in C, shell and Python (fixtures/mutants), never in a comment, a string or a shell
# here-document that is not Python; a mutant changes its one place; a sample is the same for
# the same seed; the score is caught / (caught + survived), stillborn and judged-equivalent
# mutants left out, with its 95 % Wilson interval.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/mutants
sites() { PYTHONPATH=$LAB/scripts python3 -c '
import sys, mutants
for m in mutants.sites(sys.argv[1], sys.argv[2]):
    print("%d %s %s -> %s" % (m.line, m.op, m.old, m.new))' "$fx" "$1"; }

c=$(sites sample.c)
like "$c" "^9 rel < -> >=$" "C: a comparison turned"
like "$c" "^9 bool && -> \|\|$" "C: && made ||"
like "$c" "^9 neg ! -> $" "C: a negation dropped"
like "$c" "^9 cond a < b && !c -> 1$" "C: a condition made always true"
like "$c" "^9 cond a < b && !c -> 0$" "... and always false"
like "$c" "^10 const 3 -> 4$" "C: a constant plus one"
like "$c" "^10 const 3 -> 2$" "... minus one"
like "$c" "^10 const 3 -> 0$" "... and zero"
like "$c" "^11 stmt puts\(s\); -> ;$" "C: a statement deleted"
like "$c" "^12 ret a -> !\(a\)$" "C: a returned value inverted"
unlike "$c" "^[1-37] " "C: nothing in the comments, the #include or the string"
s=$(sites sample.sh)
like "$s" "^5 rel -lt -> -ge$" "shell: a test's comparison turned"
like "$s" "^5 bool \|\| -> &&$" "shell: || made &&"
like "$s" "^5 cond .* -> false$" "shell: an if's condition made false"
like "$s" "^6 stmt echo \"done\" -> :$" "shell: a command deleted"
like "$s" "^4 const 0 -> 1$" "shell: a default changed"
unlike "$s" "^5 rel -eq" "shell: nothing inside a quoted string"
unlike "$s" "^3 " "shell: nothing in a comment"
like "$s" "^9 rel < -> >=$" "shell: a here-document closed by PY is Python"
unlike "$s" "^11 " "... and its closing line is not a command"
p=$(sites sample.py)
like "$p" "^5 bool and -> or$" "Python: and made or"
like "$p" "^5 neg not  -> $" "Python: a not dropped"
like "$p" "^7 stmt print\(s\) -> pass$" "Python: a statement made pass"
like "$p" "^8 ret a -> not \(a\)$" "Python: a returned value inverted"
unlike "$p" "^[24] (rel|bool|const)" "Python: nothing in a comment or a string"
printf 'int f(int a, int b);\nvoid g(void)\n{\n\tf(x, y);\n}\n' > "$t/swap.c"
swap=$(cd "$t" && PYTHONPATH=$LAB/scripts python3 -c '
import mutants
for m in mutants.sites(".", "swap.c"):
    if m.op == "swap": print(m.line, m.old, "->", m.new)')
is "$swap" "4 x, y -> y, x" "C: a call's two arguments swapped (not a declaration's)"

# A mutant changes its one place, and refuses a file where its text is not.
cp "$fx/sample.c" "$t/a.c"
out=$(cd "$t" && PYTHONPATH=$LAB/scripts python3 -c '
import mutants
m = [m for m in mutants.sites(".", "a.c") if m.op == "rel"][0]
open("b.c", "w").write(m.apply(open("a.c").read()))')
is "$(diff "$t/a.c" "$t/b.c" | grep -c '^[<>]')" 2 "a mutant changes one line"
like "$(diff "$t/a.c" "$t/b.c" | grep '^>')" "if \(a >= b && !c\)" "... the way it says"
out=$(cd "$t" && echo "int x;" > c.c && PYTHONPATH=$LAB/scripts python3 -c '
import mutants
m = [m for m in mutants.sites(".", "a.c") if m.op == "rel"][0]
m.apply(open("c.c").read())' 2>&1); rc=$?
ok $([ "$rc" -ne 0 ]; echo $?) "... and refuses a text where its old text is not"

links=$(PYTHONPATH=$LAB/scripts python3 -c 'import mutants, os, sys
print(" ".join(f for f in mutants.source_files(sys.argv[1]) if os.path.islink(os.path.join(sys.argv[1], f))))' "$LAB")
is "$links:$(git -C "$LAB" ls-files -s bench | grep -c '^120000')" ":8" \
	"no symlink is mutated (the lab's eight bench/*/run links: the target would change under another name)"

# The sample: the same seed draws the same mutants, another seed others.
plan() { PYTHONPATH=$LAB/scripts python3 "$LAB/scripts/mutants.py" plan "$LAB" 30 "$1" |
	python3 -c 'import json,sys; print(" ".join(m["id"] for m in json.load(sys.stdin)["mutants"]))'; }
a=$(plan 11); b=$(plan 11); c=$(plan 12)
is "$(wc -w <<<"$a")" 30 "a sample of 30 has 30 mutants"
is "$a" "$b" "the same seed draws the same sample"
ok $([ "$a" != "$c" ]; echo $?) "another seed another"
unlike "$a" "(^| )[^ ]*/(tests|fixtures|examples)/" "no mutant in a test, a fixture or an example"

# A mutant's tests: those whose map names its file or "*", the narrowest first ("*" last).
printf 'wide.t\tf.c\nwide.t\tg.c\nwide.t\th.c\nnarrow.t\tf.c\nall.t\t*\nother.t\tg.c\nmid.t\tf.c\nmid.t\th.c\n' > "$t/map"
is "$(python3 "$LAB/scripts/mutants.py" tests "$t/map" f.c)" "narrow.t mid.t wide.t all.t" \
	"tests for f.c: its tests, fewest files touched first, every-file ones last"
is "$(python3 "$LAB/scripts/mutants.py" tests "$t/map" z.c)" "all.t" "a file no test touches: only the every-file tests"

# The score: 8 caught of 10 scored is 80 %, Wilson's 95 % interval 49-94 %; a stillborn mutant
# and a survivor judged equivalent are not scored; the other survivors are listed.
{
	echo "id,area,lang,op,file,line,result,seconds,tests,old,new"
	for k in 1 2 3 4 5 6 7 8; do echo "f.c:$k:1:rel,lib,c,rel,f.c,$k,caught,1,2,<,>="; done
	echo "f.c:9:1:rel,lib,c,rel,f.c,9,survived,1,2,<,>="
	echo "f.c:10:1:rel,lib,c,rel,f.c,10,survived,1,2,<,>="
	echo "f.c:11:1:rel,lib,c,rel,f.c,11,survived,1,2,<,>="
	echo "f.c:12:1:rel,lib,c,rel,f.c,12,stillborn,1,2,<,>="
} > "$t/m.csv"
echo "f.c:11:1:rel: the two branches do the same" > "$t/eq"
out=$(PYTHONPATH=$LAB/scripts python3 "$LAB/scripts/mutation-score" "$t/m.csv" "$t/eq")
like "$out" "^all +8 +2 +1 +1 +80% +49-94%$" "the score: 8 of 10, 80 %, interval 49-94 %"
like "$out" "^area lib +8 +2 +1 +1 +80%" "... per area"
like "$out" "^survived: f.c:9:1:rel " "a survivor listed"
like "$out" "^equivalent: f.c:11:1:rel: the two branches do the same$" "an equivalent one listed with its reason"

# Bad input: one line, before anything is cloned.
out=$(BUILD=$t/build "$LAB/scripts/mutate" --seed 3 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:1" "--seed without --sample: status 1, one line"
out=$(BUILD=$t/build "$LAB/scripts/mutate" --sample many 2>&1); rc=$?
like "$out" "^error: --sample needs a number$" "--sample without a number: refused"
ok $([ ! -e "$t/build/mutants" ]; echo $?) "... and nothing cloned"
done_testing
