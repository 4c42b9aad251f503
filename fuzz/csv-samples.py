# SPDX-License-Identifier: MIT
"""Fuzz the lab's CSV reader where it turns a run into lab-ab's samples stream
(scripts/labdata.py ab_samples, what scripts/ab-csv calls), with Hypothesis generating CSVs:
well-formed ones and ones broken in the ways files break (a cell too many or too few, quotes,
line breaks and tabs inside cells, numbers Python takes but the stream's format does not:
"1_0", "inf", Unicode digits and spaces).

Properties, from the formats' definitions (lab/ab-input.h), not from the reader:
 - a refusal is SamplesError with a one-line message; nothing else is ever raised;
 - an accepted CSV gives one stream line per non-blank row, six tab-separated fields, the
   labels as the cells and the value a decimal number equal to the cell;
 - lab-ab reads every stream the reader accepts (differential: no read error from lab-ab).

usage: csv-samples.py LAB_AB SECONDS [SEED]   prints "examples N accepted A" and exits 0, or
the first counterexample (shrunk by Hypothesis) and exits 1.
"""

import math
import os
import re
import subprocess
import sys
import tempfile
import time

from hypothesis import HealthCheck, given, settings, seed as hseed, strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import labdata  # noqa: E402

DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
COLUMNS = ["variant", "value", "accel", "round", "key", "threads", "extra"]
CLEAN = st.one_of(
    st.sampled_from(["a", "b", "rseq-y", "rseq-n", "tcg", "icount", "1", "2", ""]),
    st.from_regex(DECIMAL, fullmatch=True),
)
JUNK = st.one_of(
    # numbers as Python's float() reads them, and near misses
    st.sampled_from(["1_0", "inf", "-inf", "nan", "0x1p3", "1e999", " 1 ", "1\r", "\r", "1 2",
                     "--1", "1e", ".", "+"]),
    # Unicode: digits and spaces of other scripts, mixed into numbers
    st.builds(lambda a, b, c: a + b + c, st.sampled_from(["", "1", "-"]),
              st.sampled_from(["\u0661", "\u0662\u0663", "\uff11", "\u20031", "\u00a0", "\u2028"]),
              st.sampled_from(["", "2", ".5"])),
    st.text(alphabet=st.sampled_from('ab1.,"\t\r\n \\#x\u00e9'), max_size=6),
)


def quote(cell):
    return '"%s"' % cell.replace('"', '""') if any(c in cell for c in ',"\r\n') else cell


@st.composite
def csv_text(draw):
    # Most CSVs nearly clean, so that acceptance is common and one flaw is what it meets.
    junk = draw(st.sampled_from([0, 0.02, 0.1, 0.5]))
    header = draw(st.permutations(COLUMNS))[:draw(st.integers(2, 5))]
    if draw(st.floats(0, 1)) >= junk:
        header = ["variant", "value"] + [h for h in header if h not in ("variant", "value")]
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        width = len(header) + (draw(st.sampled_from([0, 1, -1])) if draw(st.floats(0, 1)) < junk else 0)
        rows.append([draw(JUNK if draw(st.floats(0, 1)) < junk else CLEAN)
                     for _ in range(max(width, 0))])
    if rows and draw(st.booleans()):  # one flaw in a clean CSV: what an edit or a tool leaves
        r = draw(st.integers(0, len(rows) - 1))
        if rows[r]:
            rows[r][draw(st.integers(0, len(rows[r]) - 1))] = draw(JUNK)
    raw = draw(st.floats(0, 1)) < junk  # written without quoting: broken on purpose
    lines = [",".join(header)] + [",".join(r if raw else [quote(c) for c in r]) for r in rows]
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\r\n"]))
    # the reader's options: columns of the header, now and then one it lacks
    names = st.sampled_from(header if draw(st.floats(0, 1)) >= junk else COLUMNS + ["nosuch"])
    opts = {}
    for opt in ("key", "unit", "pair"):
        if draw(st.booleans()):
            opts[opt] = draw(names)
    if "key" in opts and draw(st.booleans()):
        opts["key"] += "," + draw(names)
    return text, opts



def lab_ab_reads(stream):
    """lab-ab reads the stream without a read error (a refusal to compare is fine)."""
    p = subprocess.run([LAB_AB, "--samples", "-"], input=stream, capture_output=True,
                       text=True, errors="surrogateescape")
    return not re.search(r"lab-ab: -:\d+:", p.stderr), p.stderr


EXAMPLES = ACCEPTED = 0


@settings(max_examples=500, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(csv_text())
def reader_properties(c):
    global EXAMPLES, ACCEPTED
    text, opts = c
    EXAMPLES += 1
    with tempfile.NamedTemporaryFile("w", suffix=".csv", newline="", delete=False,
                                     encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    try:
        try:
            stream = labdata.ab_samples(f.name, **opts)
        except labdata.SamplesError as e:
            assert "\n" not in str(e) and str(e), "a refusal of more than one line: %r" % str(e)
            return
    finally:
        os.unlink(f.name)
    ACCEPTED += 1
    lines = stream.split("\n")
    assert lines[-1] == "", "the stream does not end with a line break"
    for line in lines[:-1]:
        fields = line.split("\t")
        assert len(fields) == 6, "a stream line of %d fields: %r" % (len(fields), line)
        assert DECIMAL.fullmatch(fields[5]), "a value the stream's format does not allow: %r" % fields[5]
        assert math.isfinite(float(fields[5]))
    if lines[:-1]:
        ok, err = lab_ab_reads(stream)
        assert ok, "lab-ab cannot read what the reader accepted: %s" % err.strip()


if __name__ == "__main__":
    LAB_AB, seconds = sys.argv[1], float(sys.argv[2])
    base = int(sys.argv[3]) if len(sys.argv) > 3 else int(time.time())
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        hseed(base + i)(reader_properties)()
        i += 1
    print("examples %d accepted %d" % (EXAMPLES, ACCEPTED))
