# SPDX-License-Identifier: MIT
"""axis_arch: the architecture axis of the report (not a bench): the seed's arm32 table (d7822b1e24f2, ARMv7
Cubietruck, ns) beside this lab's arm and arm64 guests, and x86_64 vs arm64 vs arm
instructions per operation. Reads the runs scripts/arch/run writes (data/*-arch-ARCH-VARIANT-
ACCEL/, rows labelled ARCH-VARIANT): under icount a figure is an instruction count, exact and
the same on any host; under TCG it is an emulator timing, labelled so."""

import figures
from labreport import loader
from labreport.model import Table
from labreport.rows import percent, spread

ARCHES = ("x86_64", "arm64", "arm")

# The rows, each bench's (its report.py: ARCH_ROWS of (method, label, the seed's ARMv7 ns or
# None) read from ARCH_CSV, "off:" rows from ARCH_OFF_CSV, the glibc-rseq-off pass; and
# ARCH_SPEEDUPS of (slow, fast, what, the seed's speedup)), in the report's order.


def _benches():
    return [m for m in loader.bench_sections() if hasattr(m, "ARCH_ROWS")]


def _arch_of(run):
    """The architecture of a scripts/arch/run run (its boot's record), or None for any other
    run."""
    if "-arch-" not in run.name:
        return None
    arch = run.keyvalues("lab-boot.info").first("arch")
    return arch if arch in ARCHES else None


def _latest(runs, benches):
    """{(arch, accel): run}: the newest run of each architecture and accelerator."""
    found = {}
    for run in runs:
        arch = _arch_of(run)
        if arch and any(run.has(m.ARCH_CSV) for m in benches):
            accel = run.keyvalues("lab-boot.info").first("accel")
            found[(arch, accel)] = run
    return found


def _figure(run, csv_name, method, pick):
    """The method's figure (first row: one thread, the first CPU) and its unit: pick(row) ->
    (value, unit); the value a float, or a word."""
    if run is None or not run.has(csv_name):
        return None, ""
    for row in run.csv(csv_name):
        if row.get("method") != method:
            continue
        if row.get("status") != "ok":
            status = row.get("status", "")
            return ("none" if "vdso" in method and "unsupported" in status else "n/a"), ""
        value, unit = pick(row)
        try:
            return float(value or "nan"), unit
        except ValueError:
            return None, unit
    return None, ""


def _where(bench, method):
    """(CSV file, method) of a bench's row; "off:" rows come from its glibc-rseq-off pass."""
    if method.startswith("off:"):
        return bench.ARCH_OFF_CSV, method[4:]
    return bench.ARCH_CSV, method


def _icount(run, bench, method):
    """(figure, unit) under icount (figures.op_figure): counted instructions, or virtual ns
    where the program counted none (the per-CPU rows)."""
    csv_name, m = _where(bench, method)
    return _figure(run, csv_name, m, figures.op_figure)


def _insn(run, bench, method):
    return _icount(run, bench, method)[0]


def _icount_cell(run, bench, method):
    value, unit = _icount(run, bench, method)
    return _cell(value, "v" if unit == "vns" else "")


def _ns(run, bench, method):
    csv_name, m = _where(bench, method)
    return _figure(run, csv_name, m, lambda r: (r.get("ns_per_op", ""), "ns"))[0]


def _cell(value, unit=""):
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if value != value:  # NaN
        return "-"
    return f"{value:.1f}{unit}"


def _speedup(a, b):
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return f"{a / b:.1f}x"
    return "-"


def _tap(run, name):
    """A TAP file of the run as "passed+skipped/planned", "FAIL" added when a case failed
    or the plan is missing; "-" when the run has none."""
    if run is None or not run.has(name):
        return "-"
    lines = (run.path / name).read_text(errors="replace").splitlines()
    skipped = sum(1 for x in lines if x.startswith("ok ") and "# SKIP" in x)
    passed = sum(1 for x in lines if x.startswith("ok ")) - skipped
    failed = sum(1 for x in lines if x.startswith("not ok "))
    plan = [x[3:].split()[0] for x in lines if x.startswith("1..") and x[3:4].isdigit()]
    text = f"{passed}+{skipped}/{plan[-1]}" if plan else f"{passed}+{skipped}/?"
    return text + (" FAIL" if failed or not plan else "")


def _tcg_units(run, benches):
    """What the TCG column's figures rest on: the run's boots and the widest range between
    them (half of it, over the median), or that they are one boot's."""
    if run is None:
        return []
    units = [run.keyvalues(m).first("guest_units") for m in run.files("*.meta")]
    boots = next((u for u in units if u), "").split(",")[0]
    if not boots:
        return ["arm TCG: one boot's figures (no interval: no rerun); emulator ns",
                "move by tens of % between boots (the kernel tables show it)."]
    widest = max((s for s in (spread(r.get("ns_per_op"), r.get("ns_min"), r.get("ns_max"))
                              for name in {m.ARCH_CSV for m in benches} if run.has(name)
                              for r in run.csv(name) if r.get("status") == "ok")
                  if s is not None), default=None)
    return ["arm TCG: the median boot's figure, %s; between the boots" % boots,
            "each row moves by %s at most (half the range)." % (percent(widest) or "?")]


def _abi_lines(icount):
    """Our ABI tests with each architecture's critical sections, from the same boots."""
    if not any(r is not None and r.has("rseq-cs.tap") for r in icount.values()):
        return []
    lines = ["", "our ABI tests with each arch's critical sections (lab/rseq-ARCH.h),",
             "same boots: passed+skipped/planned (1 vCPU: the migration case skips)"]
    for name, what in (("rseq-cs.tap", "rseq-cs"), ("rseq-syscall-cs.tap", "rseq-syscall-cs")):
        cells = "".join(f"{a} {_tap(icount[a], name):12}" for a in ARCHES)
        lines.append(f"  {what:17}{cells}".rstrip())
    return lines


def tables(runs):
    """The architecture tables, from scripts/arch/run's runs."""
    benches = _benches()
    found = _latest(runs, benches)
    if not found:
        return []
    icount = {a: found.get((a, "icount")) for a in ARCHES}
    tcg = {a: found.get((a, "tcg")) for a in ARCHES}
    lines = ["seed: ARMv7 Cubietruck (Cortex-A7), ns. Ours: QEMU guests, icount"]
    lines.append("instructions/op (path length, not time); TCG columns are emulator")
    lines.append("figures (QEMU's translated code on this host), not ARM timings.")
    lines.append("v: virtual ns under icount (a timed loop: one an instruction, the")
    lines.append("loop's own included; not a counted figure).")
    lines.append("[off]: glibc's rseq off, as in 2018: getcpu is glibc's system call on")
    lines.append("ARM (vDSO on x86_64), rseq rows register their own area; the other")
    lines.append("per-CPU rows run with glibc 2.36's rseq on (its sched_getcpu reads it).")
    lines.append("")
    head = f"{'':29}{'seed arm':>9}{'arm':>8}{'arm64':>8}{'x86_64':>8}{'arm TCG':>10}"
    lines.append(head)
    lines.append(f"{'':29}{'ns':>9}{'insn':>8}{'insn':>8}{'insn':>8}{'ns':>10}")
    for b, method, label, seed in ((b, *row) for b in benches for row in b.ARCH_ROWS):
        lines.append(f"{label[:28]:29}{_cell(seed):>9}"
                     f"{_icount_cell(icount['arm'], b, method):>8}"
                     f"{_icount_cell(icount['arm64'], b, method):>8}"
                     f"{_icount_cell(icount['x86_64'], b, method):>8}"
                     f"{_cell(_ns(tcg['arm'], b, method)):>10}")
    lines += _tcg_units(tcg["arm"], benches)
    lines.append("")
    lines.append("speedups, getcpu way / rseq way (seed: arm32 ns; ours: icount):")
    for b, slow, fast, what, seed in ((b, *row) for b in benches
                                      for row in getattr(b, "ARCH_SPEEDUPS", ())):
        cells = [_speedup(_insn(icount[a], b, slow), _insn(icount[a], b, fast)) for a in ARCHES]
        lines.append(f"  {what:13} seed {seed:5} ours: x86_64 {cells[0]},"
                     f" arm64 {cells[1]}, arm {cells[2]}")
    lines.append("  (the seed's lock is liburcu's per-CPU lock; ours the lab's lock rows)")
    lines.append("vDSO getcpu: none on arm64 or arm (glibc's sched_getcpu makes the")
    lines.append("system call there unless glibc's rseq area gives the CPU).")
    lines += _abi_lines(icount)
    for a in ARCHES:
        r = icount[a] or tcg[a]
        if r is not None:
            info = r.keyvalues("lab-boot.info")
            qemu = info.first("qemu").replace("QEMU emulator version ", "")[:6]
            lines.append(f"{a}: run {r.name[:16]}, kernel {info.first('kernel_release')},"
                         f" QEMU {qemu}")
    used = [r for a in ARCHES for r in (icount[a], tcg[a]) if r is not None]
    return [Table("Architectures: the seed's arm32 table, x86_64 vs arm64 vs arm", rows=lines,
                  runs=used, facts={"accel": sorted({k[1] for k in found})})]
