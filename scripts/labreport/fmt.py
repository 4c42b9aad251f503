# SPDX-License-Identifier: MIT
"""fmt: numbers from CSV/TSV cells and lines folded to the report's width, plain Python."""

import math

WIDTH = 72


def num(text, default=0.0):
    """A cell as a float; default when it is empty or not a number."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def number(text):
    """A cell as a finite float, or None (empty, not a number, nan, inf)."""
    v = num(text, None)
    return v if v is not None and math.isfinite(v) else None


def fold(line, width=WIDTH):
    """One line broken after the last blank that fits, else at the width."""
    out = []
    while len(line) > width:
        cut = line.rfind(" ", 0, width)
        cut = cut + 1 if cut >= 0 else width
        out.append(line[:cut].rstrip())
        line = line[cut:]
    out.append(line)
    return out


def fold_all(lines, width=WIDTH):
    """Every line folded (see fold)."""
    return [part for line in lines for part in fold(line, width)]


def unique(values):
    """values without repeats, in the order they first appear."""
    return list(dict.fromkeys(values))
