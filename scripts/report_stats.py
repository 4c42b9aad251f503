# SPDX-License-Identifier: MIT
"""report_stats: the report's statistics. The A/B comparisons (means, CIs, Welch's t test,
verdicts) come from the lab's one implementation, the C tool lab-ab; nothing here
re-derives them."""

import os
import subprocess

import labdata
from report_fmt import awk_str, num


class StatsError(Exception):
    """lab-ab is missing or refused the input (the message says which)."""


def lab_ab_path(lab):
    """The lab-ab binary: $AB, else $BUILD/host/bin/lab-ab ($BUILD relative to the lab)."""
    build = os.path.join(lab, os.environ.get("BUILD") or "build")
    return os.environ.get("AB") or os.path.join(build, "host", "bin", "lab-ab")


def compare_hackbench(ab, csv_path, key="mode,ipc"):
    """lab-ab's comparison of a hackbench.csv per (mode, ipc), or per the columns key names:
    its TSV rows as dicts."""
    if not os.access(ab, os.X_OK):
        raise StatsError("no %s (run: make %s)" % (ab, ab))
    cmd = [ab, "--csv", str(csv_path), "--key", key, "--format", "tsv"]
    # lab-ab's own complaint goes to stderr as it is; a refusal (accelerators mixed in
    # one file) is reported, not hidden.
    done = subprocess.run(cmd, stdout=subprocess.PIPE, **labdata.ENCODING)
    if done.returncode != 0:
        raise StatsError("lab-ab refused %s" % csv_path)
    return labdata.parse_table(done.stdout, delimiter="\t")


def counter_means(rows):
    """Mean rseq counters per (variant, mode, ipc) over the hackbench rows that have them,
    sorted: a display average of a kernel counter, not an A/B statistic. Means are kept
    as the text awk printed ("%.6g"), the precision the table always showed."""
    sums = {}
    for r in rows:
        if r.get("notify_resume", "") == "":
            continue
        s = sums.setdefault((r["variant"], r["mode"], r["ipc"]), [0, 0.0, 0.0])
        s[0] += 1
        s[1] += num(r["notify_resume"])
        s[2] += num(r.get("cpu_id_updates"))
    lines = sorted("\t".join(k + (str(n), awk_str(nr / n), awk_str(cu / n)))
                   for k, (n, nr, cu) in sums.items())
    return [line.split("\t") for line in lines]
