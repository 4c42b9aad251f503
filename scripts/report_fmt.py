# SPDX-License-Identifier: MIT
"""report_fmt: number conversion and line folding for the report, as the lab's earlier
awk/bash report did them, so that the same data/ still gives the same report.txt."""

import math
import re
from decimal import Decimal, ROUND_HALF_EVEN, localcontext
from fractions import Fraction

_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
_SPECIAL = re.compile(r"\s*[-+](nan|inf)", re.IGNORECASE)


def num(text):
    """A CSV/TSV cell as a number: its leading number, else 0 (awk's rule, so a "nan"
    or an empty cell counts as 0; only a signed "+nan"/"-inf" is special)."""
    if text is None:
        return 0.0
    m = _NUMBER.match(text)
    if m:
        return float(m.group(0))
    m = _SPECIAL.match(text)
    return float(m.group(0)) if m else 0.0


def is_number(text):
    """Whether a cell is wholly a number (then awk compares it as one, else as text)."""
    m = _NUMBER.match(text) or _SPECIAL.match(text)
    return bool(m) and text[m.end():].strip() == ""


def positive(text):
    """Whether a cell counts as > 0 (awk: numerically if it is a number, else as text)."""
    if text is None:
        return False
    return num(text) > 0 if is_number(text) else text > "0"


def equals(text, number):
    """Whether a cell equals a number (awk: numerically if it is a number, else as text)."""
    return num(text) == number if is_number(text) else text == "%g" % number


def ratio(a, b):
    """a / b, inf or nan when b is 0 (a figure of 0 must not stop the report)."""
    if b:
        return a / b
    return math.nan if a == 0 else math.copysign(math.inf, a)


def awk_str(x):
    """A computed number as awk's print writes it: integers whole, others "%.6g"."""
    if math.isfinite(x) and x == int(x) and abs(x) < 2**53:
        return "%d" % x
    return "%.6g" % x


def _long_double(value):
    """value rounded to a 64-bit significand (an x87 long double), exactly."""
    if value == 0:
        return value
    mag = abs(value)
    exp = mag.numerator.bit_length() - mag.denominator.bit_length()
    while mag >= Fraction(2) ** (exp + 1):
        exp += 1
    while mag < Fraction(2) ** exp:
        exp -= 1
    unit = Fraction(2) ** (exp - 63)
    sign = -1 if value < 0 else 1
    return sign * round(mag / unit) * unit


def signed_1dp(text):
    """text as bash's printf '%+.1f' prints it: bash reads it as a long double, so a
    decimal tie such as 0.15 rounds the way that long double lies, not as a double."""
    try:
        value = Decimal(text.strip())
    except ArithmeticError:
        value = Decimal(0)  # bash prints 0 for a non-number (and complains)
    if not value.is_finite() or value.is_zero():
        return "%+.1f" % float(value)
    exact = _long_double(Fraction(value))
    with localcontext() as ctx:
        ctx.prec = 200
        d = Decimal(exact.numerator) / Decimal(exact.denominator)
        return format(d.quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN), "+.1f")


def fold(line, width=72):
    """One line broken as `fold -s -w width` breaks it: after the last blank that fits,
    else at the width. Returns the lines."""
    out = []
    while len(line) > width:
        cut = line.rfind(" ", 0, width)
        cut = cut + 1 if cut >= 0 else width
        out.append(line[:cut])
        line = line[cut:]
    out.append(line)
    return out


def fold_all(lines, width=72):
    """Every line folded (see fold)."""
    return [part for line in lines for part in fold(line, width)]
