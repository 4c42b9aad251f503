# SPDX-License-Identifier: MIT
"""report_text: the report as text (report.txt, <= 72 columns, mail-ready) or markdown
(report.md, for the README): one function per section, each returning its lines."""

import re

import report_bench

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


def commits(t):
    """The lab commits the runs were made at, 12 hex digits each."""
    text = words(sorted({e["commit"] for e in t.envs}))
    if t.hb:
        text += t.hb.meta.joined("lab_commit")
    found = sorted({w for w in text.replace(" ", "\n").split("\n") if w})
    return words(w[:12] for w in found)


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
    lines += ["lab commit: " + commits(t)] + host_lines(t) + kernel_lines(t)
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


def syscall_figure(rows):
    """The getcpu system call's figure, the base of the speedups (None without one)."""
    sc = None
    for r in rows:
        if r["method"] == "syscall" or "getcpu system call" in r["label"]:
            sc = r["value"]
    return sc


def cpuread_line(r, sc, unit):
    """One method: its figure and its speedup over the system call, or why none."""
    lab = r["label"][:44] + ":"
    if r["status"] != "ok" or r["value"] == "":
        return "- %-45s %s" % (lab, r["status"].split(":")[0][:24])
    v = num(r["value"])
    if positive(sc):
        return "- %-43s %8.2f %-4s %7.1fx" % (lab[:43], v, unit, ratio(num(sc), v))
    return "- %-43s %8.2f %s" % (lab[:43], v, unit)


def cpuread(t, md):
    """Reading the current CPU number, per environment, in the seed's format."""
    if not t.cpuread:
        return []
    lines = section("Reading the current CPU number (seed format)", md) + pre(md)
    lines += ["per op: median of reps (ns; instructions under icount);",
              "speedup: getcpu system call / method"]
    for env in unique(r["env"] for r in t.cpuread):
        rows = [r for r in t.cpuread if r["env"] == env]
        lines += [""] + [env_title(e) for e in t.envs if e["env"] == env]
        sc, unit = syscall_figure(rows), rows[-1]["unit"]
        lines += [cpuread_line(r, sc, unit) for r in rows]
    return lines + pre(md)


# Each group's getcpu + atomic row, the base of its speedups (as the seed measured them).
PERCPU_BASES = ("counter-getcpu-atomic", "list-cas", "lock-cmpxchg")


def percpu_bases(rows):
    """Per group (the method's first word), the figure of its getcpu + atomic row."""
    bases = {}
    for r in rows:
        if r["method"] in PERCPU_BASES and r["status"] == "ok":
            bases[r["method"].split("-")[0]] = r["ns"]
    return bases


def percpu_line(r, bases):
    """One strategy: its figure and its speedup over its group's base, or its status."""
    lab = r["label"][:46] + ":"
    if r["status"] != "ok":
        return "- %-47s %s" % (lab, r["status"])
    v, base = num(r["ns"]), bases.get(r["method"].split("-")[0])
    if positive(base):
        return "- %-47s %7.2f ns %5.1fx" % (lab, v, ratio(num(base), v))
    return "- %-47s %7.2f ns" % (lab, v)


def percpu(t, md):
    """Per-CPU strategies with one thread, per environment."""
    if not t.percpu:
        return []
    lines = section("Per-CPU strategies, 1 thread (ns/op, speedup vs getcpu+atomic)", md)
    lines += pre(md)
    lines += ["speedup within each group: counter vs getcpu + lock add, list vs",
              "the CAS list, lock vs lock cmpxchg (seed: 7.7x counter, 1.9x lock)"]
    for env in unique(r["env"] for r in t.percpu):
        rows = single_thread([r for r in t.percpu if r["env"] == env])
        bases = percpu_bases(rows)
        lines += [env + ":"] + [percpu_line(r, bases) for r in rows]
    return lines + pre(md)


def describe(variant):
    """What a hackbench column means, for the one-sentence results."""
    if variant == "rseq-n":
        return "RSEQ=n"
    for suffix, how in (("/reg", "with"), ("/unreg", "without")):
        if variant.endswith(suffix):
            return "%s (RSEQ=y) %s glibc registration" % (variant[:-len(suffix)], how)
    return variant


VERDICTS = {"base": "base", "significant": "yes", "too few runs": "few"}


def ab_table(ab):
    """lab-ab's comparison as a table: one row per variant, the key once per group."""
    lines = ["%-14s %-16s %3s %8s %7s %10s %s"
             % ("mode/ipc", "variant", "n", "mean", "sd", "change", "p<.05")]
    last = None
    for r in ab:
        key = "" if r["key"] == last else r["key"].replace(",", "/", 1)
        last = r["key"]
        base = r["verdict"] == "base"
        lines.append("%-14s %-16s %3d %8.4f %7.4f %10s %s" % (
            key, r["variant"][:16], int(num(r["n"])), num(r["mean"]), num(r["sd"]),
            "base" if base else r["marker"], "" if base else VERDICTS.get(r["verdict"], "no")))
    return lines


def ab_sentences(ab, what):
    """One sentence per comparison; a % change needs no unit, only what was measured."""
    lines = []
    for r in ab:
        if r["verdict"] == "base":
            continue
        key = r["key"]
        lines += fold("%s, %s: %s: %s %% %s vs %s (%s, n=%s each)." % (
            key.rsplit(",", 1)[0], key.split(",", 1)[-1], describe(r["variant"]),
            signed_1dp(r["pct"]), what, describe(r["base"]), r["verdict"], r["n"]), WIDTH)
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


def hb_params(hb):
    """hackbench's options, without the note after ';'."""
    return "\n".join(p.split(";")[0] for p in hb.meta.all("params"))


def hackbench(t, md):
    """The hackbench A/B: lab-ab's table, one sentence per comparison, rseq counters."""
    if not t.hb:
        return []
    hb = t.hb
    accel = hb.meta.joined("accel")
    unit = "G instructions" if accel == "icount" else "s"
    lines = section("hackbench A/B (%s, figures in %s)" % (accel, unit), md) + pre(md)
    lines += ["Debian rt-tests hackbench %s, %s boots" % (hb_params(hb), hb.meta.joined("rounds")),
              "per column interleaved; Welch's t test at 95 %.",
              "run: " + hb.name[:66], ""]
    lines += ab_table(hb.ab) + [""]
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
