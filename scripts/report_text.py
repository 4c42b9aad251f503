# SPDX-License-Identifier: MIT
"""report_text: the report as text (report.txt, <= 72 columns, mail-ready) or markdown
(report.md, for the README): one function per section, each returning its lines."""

import re

import report_bench
import report_rows

from report_data import single_thread
from report_fmt import fold, fold_all, num, positive, ratio, signed_1dp

WIDTH = 72


def section(title, md):
    """A section heading: markdown's ###, or the title underlined."""
    if md:
        return ["", "### " + title, ""]
    return ["", title, "-" * len(title.encode("utf-8", "surrogateescape"))]


def pre(md):
    """A code fence in markdown (the tables are fixed-width), nothing in text."""
    return ["```"] if md else []


def words(values):
    """Values as the old report listed them: each followed by one space."""
    return "".join(v + " " for v in values)


def commit_text(e):
    """A run's lab commit, 12 hex digits, and whether the lab's sources differed from it
    (lab_dirty; older runs said "-dirty" whenever data/ or plots/ had changed too)."""
    c = e.get("commit") or "unknown"
    if e.get("dirty"):
        return "%s%s" % (c[:12], " (sources changed)" if e["dirty"] == "yes" else "")
    return c[:12] + (" (old: -dirty)" if c.endswith("-dirty") else "")


def provenance(t):
    """(lab commit text, host) of every run the report reads."""
    found = [(commit_text(e), e.get("host") or "?") for e in t.envs]
    found += [(commit_text({"commit": r["commit"], "dirty": r["dirty"]}), r["host"] or "?")
              for r in t.percpu_runs]
    if t.hb:
        found.append((commit_text({"commit": t.hb.meta.first("lab_commit"),
                                   "dirty": t.hb.meta.first("lab_dirty")}),
                       t.hb.meta.first("host") or "?"))
    return found


def commits(t):
    """The lab commits the runs were made at, 12 hex digits each, with their state."""
    return "".join(c + " " for c in unique(sorted(c for c, _ in provenance(t))))


def mixed_note(t):
    """Say so when the runs come from more than one host or lab commit: each section
    names its run, host and commit, and nothing is averaged across them."""
    found = provenance(t)
    hosts = unique(sorted(h for _, h in found))
    commits_ = unique(sorted(c.split()[0] for c, _ in found))
    if len(hosts) < 2 and len(commits_) < 2:
        return []
    return fold("NOTE: these runs come from %d hosts (%s) and %d lab commits; each "
                "section names its runs; no figure combines runs of different hosts."
                % (len(hosts), ", ".join(hosts), len(commits_)), WIDTH)


def accelerators(t):
    """The guest accelerators behind the figures ("none" for the host's)."""
    found = [e["accel"] for e in t.envs]
    if t.hb:
        found += t.hb.meta.all("accel")
    return words(sorted({a for a in found if a != "none"}))


def host_lines(t):
    """The host's CPU and kernel (from cpu-read), else the CPU hackbench ran on."""
    hosts = [e for e in t.envs if e["env"] == "host"]
    lines = [x for e in hosts for x in ("host CPU: " + e["cpu"], "host kernel: " + e["kernel"])]
    if not hosts and t.hb and t.hb.meta.all("host_cpu"):
        lines.append("host CPU: " + t.hb.meta.first("host_cpu"))
    return lines


def kernel_lines(t):
    """One line per kernel variant: release, RSEQ and configuration (from the kernel-size
    run, else from hackbench's metadata)."""
    if t.sizes is not None:
        found = [(r.get("variant", ""), r.get("release", ""), r.get("rseq", ""),
                  r.get("config_sha256", "")[:12]) for r in t.sizes]
    else:
        found = hb_kernels(t.hb) if t.hb else []
    return ["kernel %s: %s, RSEQ=%s, config %s" % k for k in found]


def hb_kernels(hb):
    """(variant, release, rseq, config12) from hackbench.meta's "kernel V: ..." lines."""
    pattern = re.compile(r"([^ ]*) config_sha256 (.{12}).* rseq (.)")
    found = []
    for key, value in hb.meta.pairs:
        m = pattern.fullmatch(value)
        if key.startswith("kernel ") and ":" not in key and m:
            found.append((key[len("kernel "):], m.group(1), m.group(3), m.group(2)))
    return found


def accel_notes(accels):
    """What TCG and icount figures are (and are not)."""
    lines = []
    if " tcg " in " %s " % accels:
        lines += ["NOTE: TCG figures are emulator figures (QEMU's translator on this",
                  "host), not timings of any CPU."]
    if " icount " in " %s " % accels:
        lines += ["NOTE: under icount one guest ns is one instruction: those figures",
                  "are instruction counts, comparable only with other icount runs."]
    return lines


def metadata(t, md):
    """Machine, kernels, accelerators."""
    lines = section("Machine, kernels, accelerators", md) + pre(md)
    lines += fold("lab commit: " + commits(t), WIDTH) + host_lines(t) + kernel_lines(t)
    lines += mixed_note(t)
    if t.hb:
        lines += ["qemu: " + q for q in t.hb.meta.all("qemu")]
    accels = accelerators(t)
    lines += ["guest accelerators: " + (accels or "none")] + accel_notes(accels)
    return lines + pre(md)


def unique(values):
    """values without repeats, in the order they first appear."""
    return list(dict.fromkeys(values))


def env_title(e):
    """An environment's heading line in the CPU-read table."""
    release = (e["kernel"].split() or [""])[0]
    return ("%s: %s, kernel %s" % (e["env"], e["cpu"], release))[:71] + ":"


def base_row(rows, method):
    """The row of a method that measured, the base of the speedups (None without one)."""
    found = [r for r in rows if r["method"] == method and r["status"] == "ok" and r["value"]]
    return found[-1] if found else None


def run_line(e):
    """Where an environment's figures come from: run directory, host, lab commit, and the
    hardware and LAVA job of runs made elsewhere."""
    lines = ["  run %s" % e["dir"], "  on %s, lab %s" % (e.get("host") or "?", commit_text(e))]
    if e.get("hardware"):
        lines += fold("  hardware " + e["hardware"], WIDTH)
    if e.get("job"):
        lines += fold("  LAVA job " + e["job"], WIDTH)
    return lines


def dependent(rows):
    """The dependent rows (method X-dep: each read feeds the next), paired with X."""
    by = {r["method"]: r for r in rows}
    return [(by[r["method"][:-4]], r) for r in rows
            if r["method"].endswith("-dep") and r["method"][:-4] in by]


def latency_table(rows):
    """Throughput vs dependent (critical-path) figure of each method that has both."""
    pairs = dependent(rows)
    if not pairs:
        return []
    lines = ["  dependent (each read feeds the next) vs throughput:"]
    for thr, dep in pairs:
        if thr["status"] == "ok" and dep["status"] == "ok":
            lines.append("  %-22s %8s -> %8s %s" % (
                thr["method"], report_rows.figure(thr["value"], thr["unit"]),
                report_rows.figure(dep["value"], dep["unit"]), dep["unit"]))
    return lines


def cpuread(t, md):
    """Reading the current CPU number, per environment, in the seed's format."""
    if not t.cpuread:
        return []
    lines = section("Reading the current CPU number (seed format)", md) + pre(md)
    lines += ["per op: median of reps (ns; instructions under icount), then",
              "+-half the min-max range; speedup: getcpu system call / method,",
              "then +-half its range from the extremes (none: exact counts)"]
    for env in unique(r["env"] for r in t.cpuread):
        rows = [r for r in t.cpuread if r["env"] == env]
        envs = [e for e in t.envs if e["env"] == env]
        lines += [""] + [env_title(e) for e in envs] + [x for e in envs for x in run_line(e)]
        base = base_row(rows, "syscall")
        lines += [x for r in rows if not r["method"].endswith("-dep")
                  for x in report_rows.line(r, base)]
        lines += latency_table(rows)
        d = report_rows.difference(base_row(rows, "rseq-own"), base_row(rows, "empty"))
        if d:
            lines.append("  rseq read - empty loop: " + d)
    return lines + pre(md)


# Each group's getcpu + atomic row, the base of its speedups (as the seed measured them).
PERCPU_BASES = ("counter-getcpu-atomic", "list-cas", "lock-cmpxchg")


def percpu_bases(rows):
    """Per group (the method's first word), its getcpu + atomic row."""
    bases = {}
    for r in rows:
        if r["method"] in PERCPU_BASES and r["status"] == "ok":
            bases[r["method"].split("-")[0]] = r
    return bases


def percpu_line(r, bases):
    """One strategy: its figure and its speedup over its group's base, or its status."""
    return report_rows.line(r, bases.get(r["method"].split("-")[0]))


def percpu(t, md):
    """Per-CPU strategies with one thread, per environment."""
    if not t.percpu:
        return []
    lines = section("Per-CPU strategies, 1 thread (per op, speedup vs getcpu+atomic)", md)
    lines += pre(md)
    lines += ["speedup within each group: counter vs getcpu + lock add, list vs",
              "the CAS list, lock vs lock cmpxchg (seed: 7.7x counter, 1.9x lock);",
              "ns (instructions under icount), +-half the min-max range"]
    for env in unique(r["env"] for r in t.percpu):
        rows = single_thread([r for r in t.percpu if r["env"] == env])
        bases = percpu_bases(rows)
        first = rows[0] if rows else {}
        lines += [env + ":", "  (run %s on %s)" % (first.get("dir", "?"), first.get("host") or "?")]
        lines += [x for r in rows for x in percpu_line(r, bases)]
    return lines + pre(md)


def describe(variant):
    """What a hackbench column means, for the one-sentence results (make modern's
    rseq-n-6.12 is RSEQ=n as rseq-n is)."""
    if re.sub(r"-[0-9]+\.[0-9]+$", "", variant) == "rseq-n":
        return "RSEQ=n"
    for suffix, how in (("/reg", "with"), ("/unreg", "without")):
        if variant.endswith(suffix):
            return "%s (RSEQ=y) %s glibc registration" % (variant[:-len(suffix)], how)
    return variant


VERDICTS = {"base": "base", "significant": "yes", "too few runs": "few"}


def ab_table(ab):
    """lab-ab's comparison as a table: one row per variant, the key once per group."""
    # 16 columns for the variant, up to 18 for longer names (make modern's rseq-y-6.12/unreg)
    w = min(18, max([16] + [len(r["variant"]) for r in ab]))
    lines = ["%-14s %-*s %3s %8s %7s %10s %s"
             % ("mode/ipc", w, "variant", "n", "mean", "sd", "change", "p<.05")]
    last = None
    for r in ab:
        key = "" if r["key"] == last else r["key"].replace(",", "/", 1)
        last = r["key"]
        base = r["verdict"] == "base"
        lines.append("%-14s %-*s %3d %8.4f %7.4f %10s %s" % (
            key, w, r["variant"][:w], int(num(r["n"])), num(r["mean"]), num(r["sd"]),
            "base" if base else r["marker"], "" if base else VERDICTS.get(r["verdict"], "no")))
    return lines


def interval(r):
    """The 95 % interval of the % change, when lab-ab gives one (older runs have none)."""
    if r.get("pct_lo", "") in ("", "nan") or r.get("pct_hi", "") in ("", "nan"):
        return ""
    return " [%+.1f, %+.1f]" % (num(r["pct_lo"]), num(r["pct_hi"]))


def resolution(r):
    """Whether the interval resolves +-1 %, and the runs a side that would (lab-ab's)."""
    words = []
    if r.get("resolution"):
        words.append(r["resolution"] + " at +-1 %")
    if r.get("runs_ci_1pct", "") not in ("", "nan", "0"):
        words.append("runs a side for +-1 %%: %s" % r["runs_ci_1pct"])
    if ";" in r.get("modes", ""):
        words.append("modes " + ", ".join(m.replace("x", " x", 1) for m in r["modes"].split(";")))
    return "; " + "; ".join(words) if words else ""


def ab_sentences(ab, what):
    """One sentence per comparison; a % change needs no unit, only what was measured."""
    lines = []
    for r in ab:
        if r["verdict"] == "base":
            continue
        key = r["key"]
        lines += fold("%s, %s: %s: %s %%%s %s vs %s (%s, n=%s each%s)." % (
            key.rsplit(",", 1)[0], key.split(",", 1)[-1], describe(r["variant"]),
            signed_1dp(r["pct"]), interval(r), what, describe(r["base"]), r["verdict"], r["n"],
            resolution(r)), WIDTH)
    return lines


def counters_table(counters):
    """Mean rseq counters per hackbench run on the rseq-stats kernels."""
    lines = ["", "rseq counters per hackbench run (rseq-stats kernels, mean):",
             "%-16s %-15s %14s %14s" % ("variant", "mode/ipc", "notify_resume",
                                         "cpu_id_updates")]
    for variant, mode, ipc, _, nr, cu in counters:
        lines.append("%-16s %-15s %14.0f %14.0f"
                     % (variant[:16], mode + "/" + ipc, num(nr), num(cu)))
    return lines


def idle_note(hb):
    """Under icount with sleep=off an idle guest's clock jumps to the next timer: name the
    modes whose runs had idle ticks, whose figures are then virtual time, not instructions."""
    idle = unique("%s/%s" % (r["mode"], r["ipc"]) for r in hb.rows
                  if num(r.get("idle_ticks", "")) > 0)
    if not idle:
        return []
    return fold("virtual time, not pure instructions, in %s: their runs had idle ticks "
                "(the clock jumps to the next timer; idle_ticks in hackbench.csv)."
                % ", ".join(idle), WIDTH) + [""]


def hb_params(hb):
    """hackbench's options, without the note after ';'."""
    return "\n".join(p.split(";")[0] for p in hb.meta.all("params"))


def hb_kernel_line(hb):
    """The kernels a hackbench run compared: "kernels: rseq-n 6.1.192, rseq-y 6.1.192"."""
    return "kernels: " + ", ".join("%s %s" % (k[0], k[1]) for k in hb_kernels(hb))


def hackbench(t, md):
    """The hackbench A/Bs, one section per architecture and kernel releases (the main job's,
    make modern's): lab-ab's table, one sentence per comparison, rseq counters."""
    runs = t.hbs or ([t.hb] if t.hb else [])
    lines = []
    for hb in runs:
        lines += hackbench_one(hb, md, len(runs) > 1)
    return lines


def hackbench_one(hb, md, named):
    """One hackbench run's section; named: its title says its architecture and kernels."""
    accel = hb.meta.joined("accel")
    unit = "G instructions" if accel == "icount" else "s"
    what = ""
    if named:
        arch = hb.meta.first("lab_arch") or "x86_64"
        what = ", %s%s" % ("" if arch == "x86_64" else arch + " ",
                           " ".join(unique(k[1] for k in hb_kernels(hb))))
    lines = section("hackbench A/B%s (%s, figures in %s)" % (what, accel, unit), md) + pre(md)
    lines += ["Debian rt-tests hackbench %s, %s boots" % (hb_params(hb), hb.meta.joined("rounds")),
              "per column interleaved; Welch's t test at 95 %, Holm over the",
              "comparisons; [interval] of the change; resolved: within +-1 %.",
              hb_kernel_line(hb),
              "run: %s on %s" % (hb.name, hb.meta.first("host") or "?"), ""]
    lines += idle_note(hb) + ab_table(hb.ab) + [""]
    lines += ab_sentences(hb.ab, "instructions" if accel == "icount" else "time")
    if hb.counters:
        lines += counters_table(hb.counters)
    return lines + pre(md)


def delta_line(r):
    """One size delta between two variants."""
    what = r.get("what", "")
    if len(what) > 24:
        what = "the series, option off"
    return "%s -> %s (%s): %+d text, %+d data, %+d bss, %+d code" % (
        r.get("from", ""), r.get("to", ""), what,
        *(int(num(r.get(c))) for c in ("text", "data", "bss", "code")))


def sizes(t, md):
    """Kernel size per variant, and what each option adds."""
    if t.sizes is None:
        return []
    lines = section("Kernel size per variant (vmlinux, bytes)", md) + pre(md)
    lines.append("run: " + t.sizes_run)
    lines.append("%-15s %10s %9s %9s %9s" % ("variant", "text", "data", "bss", "code"))
    for r in t.sizes:
        lines.append("%-15s %10d %9d %9d %9d" % (
            r.get("variant", "")[:15], *(int(num(r.get(c))) for c in ("text", "data", "bss",
                                                                        "code"))))
    if t.deltas is not None:
        lines += [""] + fold_all([delta_line(r) for r in t.deltas], WIDTH)
    lines.append("(seed 2018 x86-64: RSEQ adds 567 bytes text, 5696 bytes data)")
    return lines + pre(md)


def render(t, data_name, when, md=False):
    """The whole report; data_name and when (UTC) for the "Generated" line."""
    lines = ["## Results"] if md else ["rseq/getcpu lab report", "=" * 22]
    lines.append("Generated %s from %s/ alone (nothing rerun)." % (when, data_name))
    for part in (metadata, cpuread, percpu, hackbench, sizes):
        lines += part(t, md)
    lines += report_bench.sections(t.runs, md)
    return "\n".join(lines) + "\n"


def too_wide(text):
    """(line number, line) of each line wider than the text report may be."""
    return [(n, line) for n, line in enumerate(text.split("\n"), 1) if len(line) > WIDTH]
