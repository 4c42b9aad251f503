# SPDX-License-Identifier: MIT
"""rseq_sides: the section of a bench whose rows measure one operation twice in each unit,
with glibc's rseq registration on (NAME-rseq-on) and off (NAME-rseq-off): the real
libraries' benches. Per environment, its newest run: each operation's two figures (their
unit op_figure's) and off - on, the mean difference paired by unit (process or boot) with
its 95 % interval (lab-ab), and the run's getcpu_calls_per_op line."""

import figures

from labreport import stats
from labreport.model import Table
from labreport.rows import newest_by_env, newest_runs, ns_text


def change(run, csv, name, unit, where):
    """off - on of name over the run's units: its lines, with its interval where lab-ab
    gives one."""
    p = stats.paired_methods(stats.lab_ab_path(), run, csv, name + "-rseq-off",
                             name + "-rseq-on")
    if not p:
        return ["    off - on: no interval (fewer than two units)"]
    head = "    off - on: %+.2f %s" % (float(p["diff"]), unit)
    if "nan" not in (p["diff_lo"] + p["diff_hi"]).lower():
        head += " [%+.2f, %+.2f]" % (float(p["diff_lo"]), float(p["diff_hi"]))
    return [head, "      %s (%s %s)" % (p.get("verdict", ""), p["units"], where)]


def section(run, bench, operations, more):
    """One environment's lines. operations: (what it measures, NAME) pairs; more(run): lines
    the bench adds after the run's heading."""
    csv = bench + ".csv"
    rows = {r["method"]: r for r in run.csv(csv)}
    first = next(iter(rows.values()))
    where = "processes" if first["accel"] in ("", "none") else "boots"
    calls = run.keyvalues(bench + ".meta").first("getcpu_calls_per_op").split(" (")[0]
    out = ["%s/%s (run %s)" % (first["variant"], first["accel"], run.name),
           "  sched_getcpu calls per op (counted): " + (calls or "unknown")] + more(run)
    for what, name in operations:
        cells, unit = [], "ns"
        for state in ("on", "off"):
            r = rows.get("%s-rseq-%s" % (name, state))
            if r is None or r.get("status") != "ok":
                cells.append("%s -" % state)
                continue
            value, unit = figures.op_figure(r)
            cells.append("%s %.2f" % (state, float(value)))
        out += ["  " + what + ":", "    glibc rseq %s %s" % (", ".join(cells), unit)] + \
            change(run, csv, name, unit, where)
    return out


def tables(runs, bench, title, intro, operations, more=lambda run: [], notes=()):
    """The section's Table (none without a run): the newest run per environment; more and
    notes as section's and Table's."""
    found = newest_runs(runs, bench)
    if not found:
        return []
    used = [found[k] for k in sorted(found)]
    return [Table(title, intro=intro + [
        "the figure is the median unit's; off - on the mean difference",
        "paired by unit with its 95 % interval (lab-ab)"],
        rows=[x for run in used for x in section(run, bench, operations, more)],
        notes=list(notes), runs=used)]


def imitation(runs, bench, methods, what):
    """The lab's own imitation of the real system, for the section's notes: METHODS of the
    newest host run of BENCH, one thread, each in ns (what: what they are, in a line)."""
    rows = newest_by_env(runs, bench).get(("host", "none"), [])
    by = {}
    for r in rows:
        if r.get("threads") in ("1", "") and r["method"] not in by:
            by[r["method"]] = r
    if not by:
        return ["the lab's imitation (bench/%s): no host run" % bench]
    return ["the lab's imitation, %s (bench/%s, host, 1 thr):" % (what, bench)] + \
        ["  %s %s ns" % (m, ns_text(by.get(m))) for m in methods]
