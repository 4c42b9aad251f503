# SPDX-License-Identifier: MIT
"""labdata: the one reader of data/ runs (and of lab-ab's TSV output).

A run is a directory under DATA named by scripts/bench-lib.sh's run_dir_finish; hidden ones
(.run.* temporaries of an unfinished run) are never read. A run holds CSV files (a header
line, RFC 4180 quoting) and "key: value" files (*.meta, *.info). Every CSV of the lab is
parsed here and nowhere else.
"""

import csv
import io
import math
import re
from pathlib import Path

# Bytes that are not UTF-8 pass through unchanged instead of stopping the report.
ENCODING = {"encoding": "utf-8", "errors": "surrogateescape"}
# A value of the samples stream (lab/ab-input.h): a decimal number in ASCII. Python's float()
# also takes "1_0", "inf", other scripts' digits and spaces, which lab-ab does not.
DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def parse_table(text, delimiter=","):
    """Rows of a CSV text with a header line, as dicts by column name (missing cells "")."""
    # TSV (lab-ab's output) has no quoting; a '"' there is an ordinary character.
    quoting = csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter,
                            quoting=quoting, restval="")
    return list(reader)


def read_header(path):
    """The column names of the CSV file at path (its header line)."""
    with open(path, newline="", **ENCODING) as f:
        return next(csv.reader(f), [])


def read_csv(path):
    """Rows of the CSV file at path (see parse_table)."""
    with open(path, newline="", **ENCODING) as f:
        return parse_table(f.read())


class KeyValues:
    """A "key: value" file: its pairs in file order; a key may repeat."""

    def __init__(self, pairs=()):
        self.pairs = list(pairs)

    def all(self, key):
        """Every value of key, in file order."""
        return [v for k, v in self.pairs if k == key]

    def first(self, key, default=""):
        """The first value of key, or default."""
        values = self.all(key)
        return values[0] if values else default

    def joined(self, key):
        """Every value of key, one per line (as `sed -n s/^key: //p` prints them)."""
        return "\n".join(self.all(key))


def parse_keyvalues(text):
    """The pairs of "key: value" lines; other lines (comments, blank) are skipped."""
    pairs = []
    for line in text.split("\n"):
        key, sep, value = line.partition(": ")
        if sep:
            pairs.append((key, value))
    return KeyValues(pairs)


def read_keyvalues(path):
    """The "key: value" file at path; an absent file reads as empty."""
    try:
        return parse_keyvalues(Path(path).read_text(**ENCODING))
    except FileNotFoundError:
        return KeyValues()


class Run:
    """One run directory; its files are read when first asked for, then kept."""

    def __init__(self, path):
        self.path = Path(path)
        self.name = self.path.name
        self._csv = {}
        # Figures keyed on the kernel, glibc state in the name (a parse run --by-kernel).
        self.by_kernel = False

    def has(self, name):
        """Whether the run holds a non-empty file called name."""
        p = self.path / name
        return p.is_file() and p.stat().st_size > 0

    def csv(self, name):
        """The rows of the run's CSV file called name."""
        if name not in self._csv:
            self._csv[name] = read_csv(self.path / name)
        return self._csv[name]

    def keyvalues(self, name):
        """The run's "key: value" file called name (*.meta, *.info); empty if absent."""
        return read_keyvalues(self.path / name)

    def files(self, pattern):
        """Names of the run's non-empty files matching a glob pattern, sorted."""
        return sorted(p.name for p in self.path.glob(pattern) if self.has(p.name))


def runs(data):
    """The run directories under data, oldest first (their names start with the UTC date)."""
    return [Run(p) for p in sorted(Path(data).iterdir(), key=lambda p: p.name)
            if p.is_dir() and not p.name.startswith(".")]


class SamplesError(ValueError):
    """A CSV that cannot become lab-ab's samples stream (the message is one line)."""


def shown(cell):
    """A cell in quotes for a one-line message: line breaks and tabs escaped as Python would."""
    return "'%s'" % cell if cell.isprintable() else repr(cell)


def ab_samples(path, key=None, unit=None, pair=None, variant="variant", value="value",
               accel="accel"):
    """lab-ab's samples stream (lib/include/lab/ab-input.h) from the CSV at path: one line a
    row, key<TAB>variant<TAB>accel<TAB>unit<TAB>pair<TAB>value. key names columns (comma-
    separated) whose values, joined by ",", split the comparisons; accel is optional (empty
    when the CSV has no such column); unit and pair fields are empty unless named. Rows keep
    their order; blank lines are skipped. Raises SamplesError."""
    with open(path, newline="", **ENCODING) as f:
        rows = list(csv.reader(f))
    if not rows:
        raise SamplesError("%s: empty file, no CSV header" % path)
    header = rows[0]

    def col(name, what="column"):
        if name not in header:
            raise SamplesError("%s: no %s '%s' in the header" % (path, what, name))
        return header.index(name)

    cv, cx = col(variant), col(value)
    ca = header.index(accel) if accel in header else None
    ck = [col(k, "key column") for k in key.split(",") if k] if key else []
    cu = col(unit) if unit else None
    cp = col(pair) if pair else None
    out = []
    for n, r in enumerate(rows[1:], 2):
        if not r:
            continue
        if len(r) != len(header):
            raise SamplesError("%s:%d: %d fields, the header has %d"
                               % (path, n, len(r), len(header)))
        x = r[cx].strip(" \r")
        if not (DECIMAL.fullmatch(x) and math.isfinite(float(x))):
            raise SamplesError("%s:%d: %s is not a number: %s" % (path, n, value, shown(r[cx])))
        fields = [",".join(r[i] for i in ck), r[cv], "" if ca is None else r[ca],
                  "" if cu is None else r[cu], "" if cp is None else r[cp]]
        if any("\t" in f or "\n" in f or "\r" in f for f in fields):
            raise SamplesError("%s:%d: a label holds a tab or a line break" % (path, n))
        out.append("\t".join(fields + [x]) + "\n")
    return "".join(out)
