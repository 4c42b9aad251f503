# SPDX-License-Identifier: MIT
"""mm-cid's part of the report (found by labreport.loader): its rows on the kernel-release
axis (labreport.axis_kernels); its tables are its README's, from its runs."""

from labreport import axis_kernels as K

# The kernel-release axis: this bench's CSV, its meta, the meta's key naming the kernel.
KERNEL_AXIS = ("strategies.csv", "mm-cid.meta", "kernel_release kernel")


def tables(runs):
    """No section of its own in the report."""
    return []


def kernel_rows(run, accel):
    """(figure name, label, value) of an mm-cid run: the reads, then the strategies
    (ns per op and the slots touched)."""
    out = []
    if run.has("reads.csv"):
        for r in run.csv("reads.csv"):
            name = "mm-cid read %s %s" % (r.get("field", ""), r.get("area", ""))
            out.append((name, "read %s (%s area)" % (r.get("field", ""), r.get("area", "")),
                        K.value(r, accel, ns="ns_per_read")))
    if run.has("strategies.csv"):
        for r in run.csv("strategies.csv"):
            what = "%s by %s, %s thr, %s CPUs" % (r.get("strategy", ""), r.get("index", ""),
                                                  r.get("threads", ""), r.get("cpus_allowed", ""))
            v = K.value(r, accel)
            if r.get("status") == "ok" and r.get("slots_touched"):
                v += " /%s" % r["slots_touched"]
            out.append(("mm-cid " + what, what, v))
    return out
