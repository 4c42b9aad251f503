#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Properties of lab-ab's comparisons, over generated data sets in each design (unpaired,
# paired by a label, summarised per unit), rather than one known answer: the result does not
# depend on the order of the rows nor on what the pairs and units are called; A against A is
# no change; swapping the sides negates the difference and inverts the ratio; scaling the
# data scales the difference and its interval and leaves t, p and the percentages alone;
# shifting both sides moves nothing but the percentages. Seeded: a failure names its data set.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
ab=$BUILD/host/bin/lab-ab
[ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
LAB_AB_PROP_SETS=${LAB_AB_PROP_SETS:-40} python3 - "$LAB/scripts" "$ab" <<'PY'
import os, random, subprocess, sys
sys.path.insert(0, sys.argv[1])
import labdata
AB = sys.argv[2]
SETS = int(os.environ["LAB_AB_PROP_SETS"])
n_test = 0
failed = 0

def ok(cond, what, detail=""):
    global n_test, failed
    n_test += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n_test, what))
    if not cond:
        failed += 1
        if detail:
            print("#   " + detail.replace("\n", "\n#   "))

def run(rows, design, base="A"):
    """lab-ab over a samples stream of (key, variant, pair/unit label, value) rows."""
    # key, variant, accel, unit (a boot), pair (a round), value: the label serves as both.
    text = "".join("%s\t%s\ticount\t%s\t%s\t%r\n" % (k, v, l, l, x) for k, v, l, x in rows)
    args = [AB, "--format", "tsv", "--base", base]
    if design == "pair":
        args += ["--pair", "round"]
    elif design == "unit":
        args += ["--unit", "boot"]
    p = subprocess.run(args + ["--samples", "-"], input=text, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr.strip()}
    return {(r["key"], r["variant"]): r for r in labdata.parse_table(p.stdout, delimiter="\t")}

def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None

def close(a, b, rel=1e-6):
    a, b = num(a), num(b)
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))

def dataset(rng, design):
    """Two keys; per key a base level, an effect, a per-pair (block) term and noise."""
    rows = []
    units = rng.randint(4, 9)
    reps = 3 if design == "unit" else 1
    for key in ("k1", "k2"):
        level = rng.uniform(50, 5000)
        effect = rng.choice([0.0, rng.uniform(-0.2, 0.2)]) * level
        noise = rng.uniform(0.001, 0.05) * level
        for u in range(1, units + 1):
            block = rng.gauss(0, noise * 3) if design == "pair" else 0.0
            for _ in range(reps):
                rows.append((key, "A", "u%d" % u, round(level + block + rng.gauss(0, noise), 6)))
                rows.append((key, "B", "u%d" % u, round(level + effect + block + rng.gauss(0, noise), 6)))
    return rows

STATS = ("diff", "diff_lo", "diff_hi", "pct", "pct_lo", "pct_hi", "t", "p", "verdict", "p_holm", "mw_p", "hl")

def same(r1, r2, cols=STATS):
    bad = []
    for k, row in r1.items():
        if k[1] == "A" or "error" in (r1, r2):
            continue
        for c in cols:
            if not close(row.get(c), r2.get(k, {}).get(c)) and row.get(c) != r2.get(k, {}).get(c):
                bad.append("%s %s: %s vs %s" % (k[0], c, row.get(c), r2.get(k, {}).get(c)))
    return bad

rng = random.Random(20261206)
for design in ("none", "pair", "unit"):
    fails = {}
    for s in range(SETS):
        rows = dataset(rng, design)
        base = run(rows, design)
        if "error" in base:
            fails.setdefault("runs", []).append("set %d: %s" % (s, base["error"]))
            continue
        # The verdict is the test's at the 95 % level: significant exactly when p < 0.05.
        for (k, v), row in base.items():
            p = num(row.get("p"))
            if v == "B" and p is not None and p == p and (row["verdict_raw"] == "significant") != (p < 0.05):
                fails.setdefault("level", []).append("set %d %s: p %s, verdict %s" % (s, k, row["p"], row["verdict_raw"]))
        # Row order.
        shuffled = rows[:]
        rng.shuffle(shuffled)
        fails.setdefault("order", []).extend("set %d: %s" % (s, b) for b in same(base, run(shuffled, design)))
        # Labels: the pairs (units) renamed by one permutation, and B's rows in another order.
        labels = sorted({r[2] for r in rows})
        perm = dict(zip(labels, rng.sample(labels, len(labels))))
        renamed = [(k, v, "x" + perm[l], x) for k, v, l, x in rows]
        renamed = [r for r in renamed if r[1] == "A"] + sorted((r for r in renamed if r[1] == "B"), key=lambda r: r[2], reverse=True)
        fails.setdefault("labels", []).extend("set %d: %s" % (s, b) for b in same(base, run(renamed, design)))
        # A against A: no change, never significant.
        aa = [(k, v, l, x) for k, v, l, x in rows if v == "A"] + [(k, "B", l, x) for k, v, l, x in rows if v == "A"]
        r = run(aa, design)
        for (k, v), row in r.items() if "error" not in r else []:
            if v == "B" and not (close(row["diff"], 0) and row["verdict"] != "significant"):
                fails.setdefault("aa", []).append("set %d %s: diff %s %s" % (s, k, row["diff"], row["verdict"]))
        # Sides swapped: B as the base.
        sw = run(rows, design, base="B")
        for (k, v), row in base.items():
            if v != "B":
                continue
            o = sw.get((k, "A"), {})
            pct, opct = num(row["pct"]), num(o.get("pct"))
            good = (close(o.get("diff"), -num(row["diff"])) and close(o.get("diff_lo"), -num(row["diff_hi"]))
                    and close(o.get("diff_hi"), -num(row["diff_lo"])) and close(o.get("p"), row["p"])
                    and o.get("verdict") == row["verdict"] and pct is not None and opct is not None
                    and close((1 + opct / 100) * (1 + pct / 100), 1.0, 1e-4))
            if not good:
                fails.setdefault("swap", []).append("set %d %s: diff %s [%s, %s] p %s pct %s -> diff %s [%s, %s] p %s pct %s" % (
                    s, k, row["diff"], row["diff_lo"], row["diff_hi"], row["p"], row["pct"],
                    o.get("diff"), o.get("diff_lo"), o.get("diff_hi"), o.get("p"), o.get("pct")))
        # Scaled by c: differences scale, t, p, percentages and verdicts do not.
        c = rng.choice([0.001, 7.0, 1000.0])
        sc = run([(k, v, l, x * c) for k, v, l, x in rows], design)
        for (k, v), row in base.items():
            if v != "B":
                continue
            o = sc.get((k, v), {})
            good = all(close(o.get(col), num(row[col]) * c, 1e-5) for col in ("diff", "diff_lo", "diff_hi")) and \
                all(close(o.get(col), row[col], 1e-5) for col in ("pct", "t", "p")) and o.get("verdict") == row["verdict"]
            if not good:
                fails.setdefault("scale", []).append("set %d %s x%g: diff %s->%s t %s->%s p %s->%s" % (
                    s, k, c, row["diff"], o.get("diff"), row["t"], o.get("t"), row["p"], o.get("p")))
        # Shifted by d on both sides: the difference, its interval, t and p stay.
        d = rng.uniform(10, 1000)
        sh = run([(k, v, l, x + d) for k, v, l, x in rows], design)
        for (k, v), row in base.items():
            if v != "B":
                continue
            o = sh.get((k, v), {})
            if not all(close(o.get(col), row[col], 1e-5) for col in ("diff", "diff_lo", "diff_hi", "t", "p")):
                fails.setdefault("shift", []).append("set %d %s +%g: diff %s->%s p %s->%s" % (
                    s, k, d, row["diff"], o.get("diff"), row["p"], o.get("p")))
    for prop, what in (("runs", "every data set compares"), ("level", "significant exactly when p < 0.05"), ("order", "invariant under row order"),
                       ("labels", "invariant under renamed pairs/units and B's rows reordered"),
                       ("aa", "A against A: no change, not significant"),
                       ("swap", "sides swapped: difference negated, interval mirrored, ratio inverted, same p"),
                       ("scale", "data scaled: difference and interval scale; t, p, % stay"),
                       ("shift", "data shifted: difference, interval, t, p stay")):
        bad = fails.get(prop, [])
        ok(not bad, "%s design, %d data sets: %s" % (design, SETS, what), "\n".join(bad[:5]))
print("1..%d" % n_test)
sys.exit(1 if failed else 0)
PY
