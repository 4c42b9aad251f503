# SPDX-License-Identifier: MIT
"""axis_arch: the architecture axis of the report (not a bench): the seed's arm32 table (d7822b1e24f2, ARMv7
Cubietruck, ns) beside this lab's arm and arm64 guests, and x86_64 vs arm64 vs arm
instructions per operation. Reads the runs scripts/arch/run writes (data/*-arch-ARCH-VARIANT-
ACCEL/, rows labelled ARCH-VARIANT): under icount a figure is an instruction count, exact and
the same on any host; under TCG it is an emulator timing, labelled so."""

import figures
from labreport.model import Table
from labreport.rows import percent, spread

ARCHES = ("x86_64", "arm64", "arm")

# The seed's ARMv7 figures (ns), as its commit message gives them. Its getcpu rows were
# glibc's getcpu without rseq (2018): our rows measured with glibc's rseq off ("off:").
SEED_ARM32 = {
    "empty": 8.4, "rseq-own": 16.7, "sched_getcpu-rseq-off": 301.8, "syscall": 234.9,
    "off:counter-getcpu-atomic": 344.0, "off:counter-rseq": 31.4,
    "off:lock-cmpxchg": 751.0, "off:lock-rseq": 128.5,
}
OFF_CSV = "percpu-glibc-rseq-off.csv"

# (method, label) of the CPU reads and of the per-CPU rows, in the seed's order.
READS = (
    ("empty", "empty loop"),
    ("rseq-own", "rseq cpu_id read"),
    ("rseq-glibc", "glibc's rseq cpu_id read"),
    ("rseq-lazy", "rseq cpu_id (lazy register)"),
    ("sched_getcpu-rseq-on", "sched_getcpu, glibc rseq on"),
    ("sched_getcpu-rseq-off", "sched_getcpu, glibc rseq off"),
    ("vdso", "vDSO getcpu"),
    ("syscall", "getcpu system call"),
)
PERCPU = (
    ("off:counter-getcpu-atomic", "counter: getcpu+atomic [off]"),
    ("off:counter-rseq", "counter: rseq cs [off]"),
    ("off:lock-cmpxchg", "lock: getcpu + cmpxchg [off]"),
    ("off:lock-rseq", "lock: rseq try-lock [off]"),
    ("counter-getcpu-atomic", "counter: getcpu + atomic add"),
    ("counter-rseq-cpuid-atomic", "counter: rseq cpu_id+atomic"),
    ("counter-rseq", "counter: rseq critical sect."),
    ("counter-tls", "counter: thread-local floor"),
    ("list-cas", "list: getcpu + CAS push/pop"),
    ("list-rseq", "list: rseq push/pop"),
    ("lock-cmpxchg", "lock: getcpu + cmpxchg"),
    ("lock-rseq", "lock: rseq try-lock"),
)


def _arch_of(run):
    """The architecture of a scripts/arch/run run, or None for any other run."""
    if "-arch-" not in run.name:
        return None
    arch = run.keyvalues("cpu-read.meta").first("lab_arch")
    return arch if arch in ARCHES else None


def _latest(runs):
    """{(arch, accel): run}: the newest run of each architecture and accelerator."""
    found = {}
    for run in runs:
        arch = _arch_of(run)
        if arch and run.has("cpu-read.csv"):
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


def _where(method):
    """(CSV file, method) of a row name; "off:" rows come from the glibc-rseq-off pass."""
    if any(method == m for m, _ in READS):
        return "cpu-read.csv", method
    if method.startswith("off:"):
        return OFF_CSV, method[4:]
    return "percpu.csv", method


def _icount(run, method):
    """(figure, unit) under icount (figures.op_figure): counted instructions, or virtual ns
    where the program counted none (the per-CPU rows)."""
    csv_name, m = _where(method)
    return _figure(run, csv_name, m, figures.op_figure)


def _insn(run, method):
    return _icount(run, method)[0]


def _icount_cell(run, method):
    value, unit = _icount(run, method)
    return _cell(value, "v" if unit == "vns" else "")


def _ns(run, method):
    csv_name, m = _where(method)
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


def _tcg_units(run):
    """What the TCG column's figures rest on: the run's boots and the widest range between
    them (half of it, over the median), or that they are one boot's."""
    if run is None:
        return []
    boots = run.keyvalues("cpu-read.meta").first("guest_units").split(",")[0]
    if not boots:
        return ["arm TCG: one boot's figures (no interval: no rerun); emulator ns",
                "move by tens of % between boots (the kernel tables show it)."]
    widest = max((s for s in (spread(r.get("ns_per_op"), r.get("ns_min"), r.get("ns_max"))
                              for name in ("cpu-read.csv", "percpu.csv") if run.has(name)
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
    found = _latest(runs)
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
    for method, label in READS + PERCPU:
        seed = SEED_ARM32.get(method)
        lines.append(f"{label[:28]:29}{_cell(seed):>9}"
                     f"{_icount_cell(icount['arm'], method):>8}"
                     f"{_icount_cell(icount['arm64'], method):>8}"
                     f"{_icount_cell(icount['x86_64'], method):>8}"
                     f"{_cell(_ns(tcg['arm'], method)):>10}")
    lines += _tcg_units(tcg["arm"])
    lines.append("")
    lines.append("speedups, getcpu way / rseq way (seed: arm32 ns; ours: icount):")
    for slow, fast, what, seed in (
            ("off:counter-getcpu-atomic", "off:counter-rseq", "counter [off]", "11.0x"),
            ("off:lock-cmpxchg", "off:lock-rseq", "lock [off]", "5.8x"),
            ("counter-getcpu-atomic", "counter-rseq", "counter [on]", "-"),
            ("lock-cmpxchg", "lock-rseq", "lock [on]", "-")):
        cells = [_speedup(_insn(icount[a], slow), _insn(icount[a], fast)) for a in ARCHES]
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
