# SPDX-License-Identifier: MIT
"""Metamorphic relations of every bench's parse (parse-metamorphic.t runs this, TAP out).

For each bench/<name>/parse, on the newest committed run in DATA holding the bench's first
result file (its meta's "result: FILE COLUMN"), the raw CSV is changed in a known way and the
parse's figure rows (bench,figure,side,accel,unit,boot,rep,value) must move exactly as the
change says, no more:
 - rows reversed: the same figure rows;
 - units renumbered (the meta's "unit:" column, when the CSV has it: every value + 100): the
   same rows, their boot renumbered alike;
 - one row dropped: the figures lose what that row gave and nothing else changes;
 - a side relabelled (the variant column of every row renamed): the same rows, side renamed;
   one row's alone: the rows it gave (those lost when it is dropped), and only they, move;
 - the result column doubled: each figure row keeps every field but its value, which stays or
   doubles (a figure read from another column stays), and some double.
"""

import contextlib
import csv
import io
import runpy
import sys
import tempfile
from collections import Counter
from pathlib import Path

LAB = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(LAB / "scripts"))
import labdata  # noqa: E402

N = 0
FAILED = 0


def ok(cond, what, detail=""):
    global N, FAILED
    N += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", N, what))
    if not cond:
        FAILED += 1
        for line in str(detail).splitlines()[:8]:
            print("#   " + line)


def parse(bench, run):
    """The parse's figure rows, run in this interpreter (a process each would cost most of the
    test's time), or None and its error."""
    out, argv = io.StringIO(), sys.argv
    sys.argv = [str(LAB / "bench" / bench / "parse"), str(run)]
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            return None, str(e.code)
    finally:
        sys.argv = argv
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    return [tuple(r) for r in rows[1:]], ""


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def check_bench(bench, data, tmp):
    meta = labdata.read_keyvalues(LAB / "bench" / bench / "meta")
    results = [v.split() for v in meta.all("result") if v.split()]
    if not results:
        return
    name, col = results[0][0], results[0][1]
    runs = [r for r in labdata.runs(data) if r.has(name)]
    if not runs:
        ok(False, "%s: a committed run holds %s" % (bench, name))
        return
    src = runs[-1].path
    with open(src / name, newline="") as f:
        table = list(csv.reader(f))
    header, rows = table[0], table[1:]
    base, err = parse(bench, src)
    ok(base is not None and len(base) > 0, "%s: parse reads %s (%d figure rows)"
       % (bench, src.name, len(base or [])), err)
    if not base:
        return

    def changed(new_rows):
        d = tmp / ("%s-%d" % (bench, N))
        d.mkdir()
        for f in src.iterdir():
            if f.name != name:
                (d / f.name).symlink_to(f.resolve())
        write_csv(d / name, header, new_rows)
        out, e = parse(bench, d)
        return out, e

    # reversed
    out, e = changed(rows[::-1])
    ok(out is not None and Counter(out) == Counter(base), "%s: rows reversed: the same figures" % bench, e)

    # units renumbered
    unit = (meta.first("unit").split() or [""])[0]
    if unit in header and all(r[header.index(unit)].isdigit() for r in rows):
        u = header.index(unit)
        new = [r[:u] + [str(int(r[u]) + 100)] + r[u + 1:] for r in rows]
        out, e = changed(new)
        moved = lambda f: f[:5] + (str(int(f[5]) - 100),) + f[6:] if f[5].isdigit() else f  # noqa: E731
        ok(moves(base, out, moved), "%s: %s renumbered: the same figures, those of its rows with "
           "their boot renumbered alike" % (bench, unit), e)

    # one row dropped (a middle one whose status, if any, is ok)
    st = header.index("status") if "status" in header else None
    cands = [i for i, r in enumerate(rows) if st is None or r[st] == "ok"]
    k = cands[len(cands) // 2]
    out, e = changed(rows[:k] + rows[k + 1:])
    lost = Counter(base) - Counter(out or [])
    ok(out is not None and not (Counter(out) - Counter(base)) and lost,
       "%s: row %d dropped: %d figure rows lost, none changed or added" % (bench, k + 2, sum(lost.values())),
       "added or changed: %s" % list((Counter(out or []) - Counter(base)).items())[:3])

    # a side relabelled
    if "variant" in header:
        v = header.index("variant")
        new = [r[:v] + ["zz-" + r[v]] + r[v + 1:] for r in rows]
        out, e = changed(new)
        moved = lambda f: f[:2] + (f[2][3:] if f[2].startswith("zz-") else f[2],) + f[3:]  # noqa: E731
        ok(moves(base, out, moved), "%s: variant renamed: the same figures, side renamed" % bench, e)
        # one row's alone (the one dropped above): its figures alone change side
        out, e = changed(rows[:k] + [new[k]] + rows[k + 1:])
        ok(moves(base, out, moved) and sum((Counter(out) - Counter(base)).values()) == sum(lost.values()),
           "%s: row %d's variant renamed: the figures it gave, and no other, change side" % (bench, k + 2), e)

    # the result columns doubled (every one the meta declares for this file)
    cols = [header.index(r[1]) for r in results if r[0] == name and r[1] in header]

    def double(x):
        try:
            return ";".join(repr(2 * float(v)) if v not in ("", "nan") else v for v in x.split(";"))
        except ValueError:
            return x
    new = [[double(x) if i in cols else x for i, x in enumerate(r)] for r in rows]
    out, e = changed(new)
    key = lambda f: f[:7]  # noqa: E731
    good = out is not None and Counter(map(key, out)) == Counter(map(key, base))
    doubled = 0
    olds = {}
    for f in base:
        olds.setdefault(key(f), []).append(float(f[7]))
    for f in out if good else []:
        x, near = float(f[7]), lambda a, b: abs(a - b) <= 1e-6 * max(1, abs(b))  # noqa: E731
        if any(near(x, 2 * o) for o in olds[key(f)]) and not any(near(x, o) for o in olds[key(f)]):
            doubled += 1
        elif not any(near(x, o) for o in olds[key(f)]):
            good = False
    ok(good and doubled > 0, "%s: its result columns doubled: %d figures doubled, the rest "
       "unchanged" % (bench, doubled), e)


def moves(base, out, back):
    """out is base with some rows changed, each changed row mapped back by back() to a row of
    base that is missing from out; at least one changed."""
    if out is None:
        return False
    extra, missing = Counter(out) - Counter(base), Counter(base) - Counter(out)
    return bool(extra) and Counter(back(f) for f in extra.elements()) == missing


def main():
    data = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as t:
        for parse_file in sorted(LAB.glob("bench/*/parse")):
            check_bench(parse_file.parent.name, data, Path(t))
    print("1..%d" % N)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
