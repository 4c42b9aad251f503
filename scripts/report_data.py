# SPDX-License-Identifier: MIT
"""report_data: which runs of data/ the report shows, as plain tables.

Of each kind of run the latest is used: cpu-read and per-CPU the latest per variant and
accelerator, hackbench and kernel sizes the latest run. Everything is read through
labdata; the hackbench comparison comes from lab-ab (report_stats)."""

from pathlib import Path

import fnmatch
import os

import labdata
import report_bench
import report_stats
from report_fmt import equals


class NotARun(Exception):
    """RUNS named a run that is not there."""


class NothingToReport(Exception):
    """data/ holds no benchmark results (the message says why)."""


class Tables:
    """What the report prints and plots."""

    def __init__(self):
        self.cpuread = []   # rows: env variant accel method label status value min max unit
        self.envs = []      # one per cpu-read environment: env dir cpu kernel accel commit
        self.percpu = []    # rows: env variant accel method label threads status ns
        self.hb = None      # the first of hbs (x86_64, lowest kernel release), if any
        self.hbs = []       # the latest hackbench run per architecture and kernel releases
        self.sizes = None   # rows of the latest sizes.csv, if any
        self.deltas = None  # rows of its deltas.csv, if that is there
        self.runs = []      # every run, for the sections bench folders bring (report_bench)
        self.percpu_runs = []  # per per-CPU file: run commit dirty host


class Hackbench:
    """The latest hackbench run: its rows, its metadata, lab-ab's comparison, counters."""

    def __init__(self, run, ab):
        self.name = run.name
        self.rows = run.csv("hackbench.csv")
        self.meta = run.keyvalues("hackbench.meta")
        self.ab = report_stats.compare_hackbench(ab, run.path / "hackbench.csv")
        self.counters = report_stats.counter_means(self.rows)


def env_name(variant, accel, hardware=""):
    """The name of an environment: "host", or the guest's variant/accelerator; runs made
    elsewhere (LAVA jobs, imported bundles: their meta's "hardware:") carry it after '@'."""
    name = variant if variant == "host" else "%s/%s" % (variant, accel)
    return name + ("@" + hardware.split(":")[0] if hardware else "")


def first_key(run, name):
    """(variant, accel, hardware) of a CSV's first row and its run's metadata: the
    environment it was measured in; runs on different hardware never share a key."""
    rows = run.csv(name)
    if not rows:
        return None
    hardware = run.keyvalues(name[:-4] + ".meta").first("hardware")
    return (rows[0].get("variant", ""), rows[0].get("accel", ""), hardware)


def latest_cpuread(runs):
    """The latest cpu-read run per (variant, accel, hardware)."""
    latest = {}
    for run in runs:
        if run.has("cpu-read.csv"):
            key = first_key(run, "cpu-read.csv")
            if key:
                latest[key] = run
    return latest


def latest_percpu(runs):
    """The latest per-CPU CSV (run, file name) per (variant, accel, hardware), in the
    order the keys first appear."""
    latest = {}
    for run in runs:
        for name in run.files("percpu*.csv"):
            key = first_key(run, name)
            if key:
                latest[key] = (run, name)
    return latest


def host_first(keys):
    """Environment keys sorted by variant, then accelerator, the host's first."""
    ordered = sorted(keys)
    return [k for k in ordered if k[0] == "host"] + [k for k in ordered if k[0] != "host"]


def cpuread_row(env, r):
    """One cpu-read figure: instructions per op under icount, else ns with min and max."""
    if r.get("accel") == "icount":
        figures = (r.get("instructions_per_op", ""), "", "", "insn")
    else:
        figures = (r.get("ns_per_op", ""), r.get("ns_min", ""), r.get("ns_max", ""), "ns")
    names = ("env", "variant", "accel", "method", "label", "status")
    values = (env,) + tuple(r.get(n, "") for n in names[1:])
    return dict(zip(names + ("value", "min", "max", "unit"), values + figures))


def cpuread_env(env, run, accel):
    """The environment a cpu-read run was measured in, from its cpu-read.meta."""
    m = run.keyvalues("cpu-read.meta")
    version = " ".join(m.first("kernel_version").split(" ")[:3])
    return {"env": env, "dir": run.name, "cpu": m.first("cpu_model"),
            "hardware": m.first("hardware"), "job": m.first("lava_job_id"),
            "kernel": "%s %s" % (m.first("kernel_release"), version),
            "accel": accel, "commit": m.first("lab_commit"), "dirty": m.first("lab_dirty"),
            "host": m.first("host")}


def add_cpuread(t, runs):
    """Single-thread cpu-read rows and their environments, the host first."""
    latest = latest_cpuread(runs)
    for key in host_first(latest):
        run, env = latest[key], env_name(*key)
        for r in run.csv("cpu-read.csv"):
            if r.get("threads", "") in ("", "1"):
                t.cpuread.append(cpuread_row(env, r))
        t.envs.append(cpuread_env(env, run, key[1]))


def add_percpu(t, runs):
    """Per-CPU rows (every thread count) of the latest file per environment, the host's
    first."""
    latest = latest_percpu(runs)
    for key in host_first(latest):
        run, name = latest[key]
        meta = run.keyvalues(name[:-4] + ".meta")
        host = meta.first("host")
        t.percpu_runs.append({"run": run.name, "commit": meta.first("lab_commit"),
                              "dirty": meta.first("lab_dirty"), "host": host})
        for r in run.csv(name):
            t.percpu.append(percpu_row(env_name(*key), r, run.name, host))


def percpu_row(env, r, run, host):
    """One per-CPU figure: instructions per op under icount, else ns with min and max."""
    icount = r.get("accel") == "icount"
    value = r.get("instructions_per_op") if icount else None
    return {"env": env, "variant": r.get("variant", ""), "accel": r.get("accel", ""),
            "method": r.get("method", ""), "label": r.get("label") or r.get("method", ""),
            "threads": r.get("threads", ""), "status": r.get("status", ""),
            "ns": r.get("ns_per_op", ""), "value": value or r.get("ns_per_op", ""),
            "min": "" if icount else r.get("ns_min", ""),
            "max": "" if icount else r.get("ns_max", ""),
            "unit": "insn" if icount else "ns", "dir": run, "host": host}


def latest_with(runs, name):
    """The latest run holding a non-empty file called name, or None."""
    found = [run for run in runs if run.has(name)]
    return found[-1] if found else None


def release_key(release):
    """A kernel release as numbers, for sorting (6.1.192 before 6.12.118)."""
    return tuple(int(x) if x.isdigit() else 0 for x in release.split("-")[0].split("."))


def hb_key(run):
    """What a hackbench run compares: its architecture and its kernels' releases (from the
    "kernel VARIANT: RELEASE ..." lines of hackbench.meta)."""
    m = run.keyvalues("hackbench.meta")
    releases = sorted({v.split(" ")[0] for k, v in m.pairs
                       if k.startswith("kernel ") and ":" not in k}, key=release_key)
    return (m.first("lab_arch") or "x86_64", tuple(releases))


def add_hackbench(t, runs, ab):
    """The latest hackbench run per architecture and kernel releases (the main job's 6.1
    kernels, make modern's 6.12 ones, an ARM guest's), each with lab-ab's comparison; the
    x86_64 ones first, lower releases first."""
    latest = {}
    for run in runs:
        if run.has("hackbench.csv"):
            latest[hb_key(run)] = run
    order = sorted(latest, key=lambda k: (k[0] != "x86_64", k[0], [release_key(r) for r in k[1]]))
    t.hbs = [Hackbench(latest[k], ab) for k in order]
    t.hb = t.hbs[0] if t.hbs else None


def add_sizes(t, runs):
    """The latest scripts/kernel-size run: sizes, and deltas when it has them."""
    run = latest_with(runs, "sizes.csv")
    if run:
        t.sizes = run.csv("sizes.csv")
        t.sizes_run = run.name
        t.deltas = run.csv("deltas.csv") if run.has("deltas.csv") else None


def pick(runs, names):
    """The runs RUNS names (run directory names or shell patterns, blank- or
    comma-separated), or all of them; a name that matches none is an error."""
    wanted = names.replace(",", " ").split()
    if not wanted:
        return runs
    for w in wanted:
        if not any(fnmatch.fnmatchcase(r.name, w) for r in runs):
            raise NotARun("RUNS: no run directory matches '%s'" % w)
    return [r for r in runs if any(fnmatch.fnmatchcase(r.name, w) for w in wanted)]


def collect(data, ab):
    """The report's tables from the runs under data (a path as given, for messages);
    NothingToReport when there are none."""
    if not Path(data).is_dir():
        raise NothingToReport("nothing to report: %s does not exist" % data)
    runs = pick(labdata.runs(data), os.environ.get("RUNS", ""))
    t = Tables()
    t.runs = runs
    add_cpuread(t, runs)
    add_percpu(t, runs)
    add_hackbench(t, runs, ab)
    add_sizes(t, runs)
    if not (t.cpuread or t.percpu or t.hb or t.sizes is not None
            or report_bench.has_results(runs)):
        raise NothingToReport("nothing to report: no benchmark results in %s" % data)
    return t


def single_thread(rows):
    """The per-CPU rows measured with one thread."""
    return [r for r in rows if equals(r["threads"], 1)]
