# SPDX-License-Identifier: MIT
"""show: one section's tables as text, for tests and for a look at one section:
`cd scripts && python3 -m labreport.show SECTION DATA`, SECTION a report.py path or an
axis (arch, kernels)."""

import sys

import labdata
from labreport import axis_arch, axis_kernels, loader, render

AXES = {"arch": axis_arch, "kernels": axis_kernels}


def main(section, data):
    mod = AXES[section] if section in AXES else loader.load(section)
    tables = mod.tables(labdata.runs(data))
    if tables:
        out = render.text("", [], tables)
        sys.stdout.write(out.split("\n", 2)[2].lstrip("\n"))
    return 0


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.exit(main(*sys.argv[1:3]))
