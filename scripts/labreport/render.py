# SPDX-License-Identifier: MIT
"""render: the report's tables as text (report.txt: <= 72 columns, mail-ready) and as
Markdown (report.md: headings, each table's fixed-width lines in a code fence). The one
place that knows either format."""

from labreport.fmt import WIDTH


def _text_heading(title):
    return ["", title, "-" * len(title.encode("utf-8", "surrogateescape"))]


def _blocks(tables):
    """(title, lines) per heading: an untitled table joins the block before it."""
    blocks = []
    for t in tables:
        if t.title is not None or not blocks:
            blocks.append((t.title, []))
        blocks[-1][1].extend(line.rstrip() for line in t.body())
    return blocks


def text(title, lead, tables):
    """The whole text report: its title, lead lines, then each table under its heading."""
    out = [title, "=" * len(title)] + list(lead)
    for heading, lines in _blocks(tables):
        out += (_text_heading(heading) if heading else []) + lines
    return "\n".join(out) + "\n"


def markdown(lead, tables):
    """The whole Markdown report (for the README's results): "## Results", lead lines,
    then per heading a ### heading and its lines in a code fence."""
    out = ["## Results"] + list(lead)
    for heading, lines in _blocks(tables):
        out += (["", "### " + heading, ""] if heading else []) + ["```"] + lines + ["```"]
    return "\n".join(out) + "\n"


def too_wide(text_):
    """(line number, line) of each line wider than the text report may be."""
    return [(n, line) for n, line in enumerate(text_.split("\n"), 1) if len(line) > WIDTH]
