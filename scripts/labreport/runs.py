# SPDX-License-Identifier: MIT
"""runs: which data/ runs the report shows (RUNS=, the latest of a kind), and who made
them: each run's lab commit and host identity."""

import fnmatch

import labdata


class NotARun(Exception):
    """RUNS named a run that is not there."""


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


def latest_with(runs, name):
    """The latest run holding a non-empty file called name, or None."""
    found = [run for run in runs if run.has(name)]
    return found[-1] if found else None


def release_key(release):
    """A kernel release as numbers, for sorting (6.1.192 before 6.12.118)."""
    return tuple(int(x) if x.isdigit() else 0 for x in release.split("-")[0].split("."))


def meta(run):
    """Every "key: value" file of a run (*.meta, then *.info) as one, in file order."""
    pairs = []
    for name in run.files("*.meta") + run.files("*.info"):
        pairs += run.keyvalues(name).pairs
    return labdata.KeyValues(pairs)


def commit(m):
    """A run's lab commit, 12 hex digits, and whether the lab's sources differed from it
    (lab_dirty; older runs said "-dirty" whenever data/ or plots/ had changed too)."""
    c = m.first("lab_commit") or "unknown"
    if m.first("lab_dirty"):
        return "%s%s" % (c[:12], " (sources changed)" if m.first("lab_dirty") == "yes" else "")
    return c[:12] + (" (old: -dirty)" if c.endswith("-dirty") else "")


def host_identity(m):
    """(identity, hostname) of a run from its metadata. The identity is the host's CPU
    model, microcode and kernel (host_cpu, host_microcode, host_kernel) as a dict of the
    ones recorded; older runs lack some: a host run's own cpu_model and kernel_release
    stand in; without a CPU the identity is None (only the hostname, if any, is known)."""
    hostname = m.first("host")
    ident = {"cpu": m.first("host_cpu"), "microcode": m.first("host_microcode"),
             "kernel": m.first("host_kernel")}
    if not ident["cpu"] and m.first("variant") == "host":
        ident["cpu"] = m.first("cpu_model")
        ident["kernel"] = ident["kernel"] or m.first("kernel_release")
    if not ident["cpu"]:
        return None, hostname
    return {k: v for k, v in ident.items() if v}, hostname


def _agrees(a, b):
    """Whether two identities may be one host: every field both recorded is the same."""
    return all(a[k] == b[k] for k in a.keys() & b.keys())


def _describe(ident):
    """An identity as text: "CPU, microcode M, kernel K" (the parts recorded)."""
    return ", ".join([ident["cpu"]] + ["%s %s" % (k, ident[k]) for k in ("microcode", "kernel")
                                       if k in ident])


def host_label(run):
    """A run's host for a plot's title: its identity as recorded, else its hostname."""
    ident, hostname = host_identity(meta(run))
    return _describe(ident) if ident else hostname or "unknown host"


def hosts(runs):
    """The distinct hosts of runs, each "identity (hostnames)". Identities that agree on
    every field both recorded are one host (an older run's partial record joins the full
    one); a run that recorded only a hostname is a host of its own only when no identity
    has that hostname (it may be any of them); a run that recorded nothing is left out."""
    groups, bare = [], set()
    found = [host_identity(meta(run)) for run in runs]
    # The fullest records first, so that partial ones join them.
    for ident, hostname in sorted((f for f in found if f[0]), key=lambda f: -len(f[0])):
        for g in groups:
            if _agrees(g[0], ident):
                g[0].update(ident)
                g[1].add(hostname or "?")
                break
        else:
            groups.append((dict(ident), {hostname or "?"}))
    bare = {h for i, h in found if not i and h}
    names = {h for g in groups for h in g[1]}
    out = sorted("%s (%s)" % (_describe(i), ", ".join(sorted(h))) for i, h in groups)
    return out + ["%s (CPU not recorded)" % h for h in sorted(bare - names)]


def commits(runs):
    """The distinct lab commits of runs (commit text, sorted); a run that recorded none
    (an older kernel-size run) adds nothing."""
    return sorted({commit(m) for m in map(meta, runs) if m.first("lab_commit")})


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


def host_first(keys):
    """Environment keys sorted by variant, then accelerator, the host's first."""
    ordered = sorted(keys)
    return [k for k in ordered if k[0] == "host"] + [k for k in ordered if k[0] != "host"]
