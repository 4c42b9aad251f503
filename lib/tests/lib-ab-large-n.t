#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ab's rank statistics past their exact ranges, against the textbook's large-sample forms
# computed here independently (Hollander & Wolfe, Nonparametric Statistical Methods, 3.1-3.2):
# the signed-rank test's normal approximation with its continuity correction and the tie
# correction sum(t^3 - t)/48 of the variance, on heavily tied differences; and the
# Hodges-Lehmann interval [W(k), W(M+1-k)] with k = n(n+1)/4 - z(1-a/2) sqrt(n(n+1)(2n+1)/24),
# on more pairs than the exact distribution is tabulated for.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
col() { python3 - "$LAB/scripts" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import labdata
rows = labdata.parse_table(open(sys.argv[2]).read(), delimiter="\t")
print("".join(r[sys.argv[4]] for r in rows if r["variant"] == sys.argv[3]))
PY
}
# pairs N SEED KIND: a paired CSV of N batches; differences drawn from a few values (KIND
# ties: -2 to 3 and zeros, on whole numbers; else continuous), seeded.
pairs() { python3 - "$@" <<'PY'
import random, sys
n, seed, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
print("variant,batch,value")
for i in range(n):
    # whole numbers where ties are meant: a difference of doubles is then exact
    base = 1000 + rng.randint(0, 50) if kind == "ties" else 1000 + rng.uniform(0, 50)
    d = rng.choice([-2, -1, -1, 1, 1, 2, 2, 3, 0]) if kind == "ties" else rng.gauss(0.4, 2.0)
    print("a,%d,%.6f" % (i, base))
    print("b,%d,%.6f" % (i, base + d))
PY
}
# reference CSV: the textbook's p, HL interval ends and the shift (HL estimate), from the CSV.
reference() { python3 - "$1" <<'PY'
import csv, math, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
a = {r["batch"]: float(r["value"]) for r in rows if r["variant"] == "a"}
b = {r["batch"]: float(r["value"]) for r in rows if r["variant"] == "b"}
d = [round(b[k] - a[k], 6) for k in a]
nz = [x for x in d if x != 0]
m = len(nz)
order = sorted(range(m), key=lambda i: abs(nz[i]))
ranks, ties, i = [0.0] * m, 0.0, 0
while i < m:
    j = i
    while j + 1 < m and abs(nz[order[j + 1]]) == abs(nz[order[i]]):
        j += 1
    for k in range(i, j + 1):
        ranks[order[k]] = (i + j) / 2 + 1
    t = j - i + 1
    ties += t ** 3 - t
    i = j + 1
wplus = sum(r for r, x in zip(ranks, nz) if x > 0)
var = m * (m + 1) * (2 * m + 1) / 24 - ties / 48
z = (abs(wplus - m * (m + 1) / 4) - 0.5) / math.sqrt(var)
p = math.erfc(max(z, 0) / math.sqrt(2))
n = len(d)
w = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
M = len(w)
zq = statistics.NormalDist().inv_cdf(0.975)
k = math.floor(n * (n + 1) / 4 - zq * math.sqrt(n * (n + 1) * (2 * n + 1) / 24))
# the ends one index either side of k, for rounding conventions
print("%.6g %r %r %r %r %.6g" % (p, w[k - 2], w[k], w[M - k - 1], w[M - k + 1], statistics.median(w)))
PY
}
within() { python3 -c 'import sys; g, lo, hi = map(float, sys.argv[1:]); sys.exit(0 if lo <= g <= hi else 1)' "$@"; }

# Heavily tied differences, 300 pairs: the normal approximation with both corrections.
pairs 300 7 ties > "$t/ties.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/ties.csv" --pair batch --format tsv > "$t/ties.tsv"
ok $? "lab-ab: 300 tied pairs"
read -r p_ref _ <<<"$(reference "$t/ties.csv")"
p=$(col "$t/ties.tsv" b mw_p)
ok $(within "${p:-nan}" "$(python3 -c "print($p_ref * 0.98)")" "$(python3 -c "print($p_ref * 1.02)")"; echo $?) \
	"signed-rank p with ties: $p, the textbook's $p_ref (within 2 %)"
# and it is not what the uncorrected variance gives (the data are tied enough to tell)
p_untied=$(python3 - "$t/ties.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
a = {r["batch"]: float(r["value"]) for r in rows if r["variant"] == "a"}
d = [round(float(r["value"]) - a[r["batch"]], 6) for r in rows if r["variant"] == "b"]
nz = sorted((abs(x), x > 0) for x in d if x != 0)
m = len(nz)
# midranks again, but the variance without the tie term
vals = [v for v, _ in nz]
w = 0.0
for i, (v, pos) in enumerate(nz):
    lo = vals.index(v); hi = len(vals) - 1 - vals[::-1].index(v)
    w += (lo + hi) / 2 + 1 if pos else 0
var = m * (m + 1) * (2 * m + 1) / 24
z = (abs(w - m * (m + 1) / 4) - 0.5) / math.sqrt(var)
print("%.6g" % math.erfc(max(z, 0) / math.sqrt(2)))
PY
)
ok $(python3 -c "import sys; sys.exit(0 if abs($p_ref - $p_untied) > 0.05 * $p_ref else 1)"; echo $?) \
	"... the tie correction matters here: without it p would be $p_untied"

# 450 pairs (past the 400 the exact distribution is tabulated for): the HL interval's ends.
pairs 450 11 cont > "$t/big.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/big.csv" --pair batch --format tsv > "$t/big.tsv"
ok $? "lab-ab: 450 pairs"
read -r _ lo_a lo_b hi_a hi_b hl_ref <<<"$(reference "$t/big.csv")"
lo=$(col "$t/big.tsv" b hl_lo) hi=$(col "$t/big.tsv" b hl_hi) hl=$(col "$t/big.tsv" b hl)
ok $(within "${lo:-nan}" "$lo_a" "$lo_b"; echo $?) "HL interval's low end $lo: W(k) +-1 ($lo_a .. $lo_b)"
ok $(within "${hi:-nan}" "$hi_a" "$hi_b"; echo $?) "HL interval's high end $hi: W(M+1-k) +-1 ($hi_a .. $hi_b)"
ok $(python3 -c "import sys; sys.exit(0 if abs(${hl:-nan} - $hl_ref) < 1e-3 else 1)"; echo $?) \
	"HL estimate $hl: the median of the Walsh averages ($hl_ref)"
done_testing
