# SPDX-License-Identifier: MIT
"""header: the report's machine block, built from what the sections' tables say: the lab
commits and hosts of the runs they read, the host CPU and kernel, the kernels, QEMU, the
accelerators. A fact a table gives as a fallback ("host?", "kernel?") is used only when
no table gives the fact itself."""

import labdata
from labreport import runs as R
from labreport.fmt import fold, unique
from labreport.model import Table


def used_runs(tables):
    """Every run the tables read, once, oldest first."""
    seen = {}
    for t in tables:
        for run in t.runs:
            seen.setdefault(run.name, run)
    return [seen[k] for k in sorted(seen)]


def facts(tables, name):
    """Every table's lines of one fact, in table order, without repeats; the fallback
    ("name?") when none has the fact itself."""
    found = [x for t in tables for x in t.facts.get(name, [])]
    return unique(found or [x for t in tables for x in t.facts.get(name + "?", [])])


def mixed_note(runs):
    """Say so when the runs come from more than one host or lab commit: each section
    names its runs, and nothing is averaged across them."""
    hosts = R.hosts(runs)
    commits = unique(c.split()[0] for c in R.commits(runs))
    if len(hosts) < 2 and len(commits) < 2:
        return []
    lines = fold("NOTE: these runs come from %d host%s and %d lab commit%s; each section "
                 "names its runs; no figure combines runs of different hosts."
                 % (len(hosts), "s"[:len(hosts) != 1], len(commits), "s"[:len(commits) != 1]))
    for h in hosts:
        first, *rest = fold("  host: " + h, 68)
        lines += [first] + ["    " + x for x in rest]
    return lines


def accel_notes(accels):
    """What TCG and icount figures are (and are not)."""
    lines = []
    if "tcg" in accels:
        lines += ["NOTE: TCG figures are emulator figures (QEMU's translator on this",
                  "host), not timings of any CPU."]
    if "icount" in accels:
        lines += ["NOTE: under icount one guest ns is one instruction: those figures",
                  "are instruction counts, comparable only with other icount runs."]
    return lines


def booted(runs):
    """What each run booted, by content (image and initramfs sha256, their first 8 hex
    digits): runs of the same bytes are the same experiment on any host; runs from before
    the lab recorded the hashes say nothing."""
    lines = []
    for run in runs:
        seen = []
        for path in sorted(run.path.glob("**/lab-boot*.info")):
            m = labdata.read_keyvalues(path)
            img, ird = m.first("image_sha256"), m.first("initramfs_sha256")
            if img and img not in ("none", "unknown") and (img, ird) not in seen:
                seen.append((img, ird))
                lines.append("booted: %s %s image %s initramfs %s"
                             % (run.name[:16], m.first("variant") or "?", img[:8], (ird or "?")[:8]))
    return lines


def machine(tables):
    """The machine block: lab commits, host, kernels, QEMU, accelerators."""
    runs = used_runs(tables)
    lines = fold("lab commit: " + " ".join(R.commits(runs)))
    lines += facts(tables, "host") + facts(tables, "kernel") + mixed_note(runs)
    lines += ["qemu: " + q for q in facts(tables, "qemu")] + booted(runs)
    accels = sorted(set(facts(tables, "accel")) - {"none"})
    lines += ["guest accelerators: " + (" ".join(accels) or "none")] + accel_notes(accels)
    return Table("Machine, kernels, accelerators", rows=lines)
