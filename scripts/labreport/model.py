# SPDX-License-Identifier: MIT
"""model: what a report section returns. A Table is a title, lines before its header
(intro), its header, its rows and notes after them; a row (and the header) is a line of
text or a tuple of cells laid out by the table's fmt (a %-format). A table without a title
continues the one before it under the same heading. runs: the data/ runs its figures come
from (the report's provenance and host identity are theirs); facts: what the report's
machine block says about them (host, kernel, accel, qemu lines); plots: what it draws."""


class Table:
    """One table of the report (see the module's text)."""

    def __init__(self, title=None, header=(), rows=(), notes=(), intro=(), fmt=None,
                 runs=(), facts=None, plots=()):
        self.title = title
        self.intro = list(intro)
        self.header = list(header)  # rows: each a line or a tuple of cells
        self.rows = list(rows)
        self.notes = list(notes)
        self.fmt = fmt
        self.runs = list(runs)
        self.facts = facts or {}
        self.plots = list(plots)  # Plot objects drawn beside the report

    def line(self, row):
        """A row (or header line) as text: as it is, or its cells through fmt."""
        if isinstance(row, str):
            return row
        return (self.fmt % tuple(row)).rstrip()

    def body(self):
        """The table's lines under its heading."""
        return self.intro + [self.line(r) for r in self.header + self.rows] + self.notes


class Plot:
    """One plot a section asks for: PLOTS/NAME.png and .svg drawn by gnuplot from body (a
    gnuplot script body; {work} stands for the folder its data files are in) and data
    ({file name: tab-separated lines})."""

    def __init__(self, name, body, data):
        self.name = name
        self.body = body
        self.data = data
