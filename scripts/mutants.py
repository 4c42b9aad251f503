# SPDX-License-Identifier: MIT
"""mutants: mutants generated from the lab's source with standard operators (scripts/mutate
--sample). A site is one place in one file where an operator applies; a mutant is a site and
its replacement, named file:line:col:operator. The operators:

  rel     a comparison turned to its negation (< and >=, == and !=; shell -lt and -ge, ...)
  bool    && and || swapped (Python: and, or)
  neg     a logical negation dropped (C !x, Python not x, shell ! cmd)
  const   an integer literal n made n+1, n-1 or 0 (0 made 1)
  stmt    a one-line statement deleted (C ";", shell ":", Python "pass")
  cond    an if/while condition made always true or always false
  swap    the two arguments of a two-argument call swapped
  ret     a returned value inverted (C return !x, Python return not x)

Comments, strings and #include lines are never mutated; shell here-documents are skipped,
except those closed by PY, which are Python. Sites are sampled at random with a recorded
seed, so a sample is rerun exactly on the same tree.
"""

import io
import os
import random
import re
import subprocess
import tokenize
from pathlib import Path

SOURCE_DIRS = ("lib", "bench", "scripts", "lava", "kernel")
# Not the lab's code: tests, their fixtures, the examples the tests feed to the checker.
SKIP = re.compile(r"(^|/)(tests|fixtures|examples)/|\.(md|t|csv|txt|json|jinja2|config|patch)$")

REL_C = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
REL_SH = {"-lt": "-ge", "-ge": "-lt", "-gt": "-le", "-le": "-gt", "-eq": "-ne", "-ne": "-eq",
          "==": "!=", "!=": "=="}
C_NOT_STMT = re.compile(r"^(return|if|else|for|while|do|switch|case|default|goto|break|continue|"
                        r"struct|union|enum|typedef|static|const|extern|unsigned|signed|int|char|"
                        r"long|short|float|double|void|bool|size_t|ssize_t|uint\w*|int\w*_t|"
                        r"#|\}|\{)")
SH_NOT_STMT = re.compile(r"^(if|then|else|elif|fi|for|while|until|do|done|case|esac|function|"
                         r"local|declare|readonly|export|return|exit|set|shift|\{|\}|\(|\)|;;|"
                         r"[A-Za-z_][A-Za-z_0-9-]*\(\))")


class Mutant:
    def __init__(self, path, line, col, op, old, new):
        self.path, self.line, self.col, self.op, self.old, self.new = path, line, col, op, old, new

    @property
    def id(self):
        return "%s:%d:%d:%s" % (self.path, self.line, self.col, self.op)

    def apply(self, text):
        """text with this mutant applied (its old text must be at its line and column)."""
        lines = text.split("\n")
        s = lines[self.line - 1]
        c = self.col - 1
        if s[c:c + len(self.old)] != self.old:
            raise ValueError("%s: the text at the site is not %r" % (self.id, self.old))
        lines[self.line - 1] = s[:c] + self.new + s[c + len(self.old):]
        return "\n".join(lines)


def language(path, text):
    if path.endswith((".c", ".h")):
        return "c"
    if path.endswith(".py"):
        return "py"
    first = text.split("\n", 1)[0]
    if path.endswith(".sh") or re.match(r"#!.*\b(ba)?sh\b", first):
        return "sh"
    if re.match(r"#!.*python", first):
        return "py"
    return None


def blank_c(text):
    """C text with comments, strings, characters and #include lines blanked (same layout)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else c)
            i = j
        else:
            out.append(c)
            i += 1
    blanked = "".join(out)
    return "\n".join(" " * len(l) if re.match(r"\s*#\s*(include|pragma|error)", l) else l
                     for l in blanked.split("\n"))


def blank_sh(text):
    """Shell text with comments and quoted strings blanked; here-documents blanked too, and
    returned apart when closed by PY (Python): (blanked text, [(first line, body)])."""
    lines, out, py = text.split("\n"), [], []
    k, q = 0, None  # a quote open across lines stays open
    while k < len(lines):
        line, res, i = lines[k], [], 0
        heredoc = None if q else re.search(r"<<-?\s*['\"]?([A-Za-z_]+)['\"]?", line)
        while i < len(line):
            c = line[i]
            if q:
                if c == q:
                    q = None
                    res.append(c)
                elif c == "\\" and q == '"':
                    res.append("  ")
                    i += 1
                else:
                    res.append(" ")
            elif c in "'\"":
                q = c
                res.append(c)
            elif c == "\\":
                res.append(line[i:i + 2])
                i += 1
            elif c == "#" and (i == 0 or line[i - 1] in " \t;(") :
                res.append(" " * (len(line) - i))
                break
            else:
                res.append(c)
            i += 1
        out.append("".join(res)[:len(line)].ljust(len(line)))
        k += 1
        if heredoc:
            end, start = heredoc.group(1), k
            while k < len(lines) and lines[k].strip() != end:
                out.append(" " * len(lines[k]))
                k += 1
            if end == "PY":
                py.append((start + 1, "\n".join(lines[start:k])))
            if k < len(lines):
                out.append(" " * len(lines[k]))
                k += 1
    return "\n".join(out), py


def c_sites(path, text):
    b = blank_c(text)
    prevs = b.split("\n")
    for ln, (s, raw) in enumerate(zip(prevs, text.split("\n")), 1):
        if re.match(r"\s*#\s*(include|if|ifdef|ifndef|elif|else|endif|pragma)", s):
            continue
        for m in re.finditer(r"(?<![<>=!&|+\-*/%^-])(<=|>=|==|!=|<|>)(?![<>=])", s):
            if m.group(1) in "<>" and re.match(r"\s*#", s):
                continue
            yield Mutant(path, ln, m.start() + 1, "rel", m.group(1), REL_C[m.group(1)])
        yield from bool_sites(path, ln, s)
        for m in re.finditer(r"!(?=[A-Za-z_(])", s):
            yield Mutant(path, ln, m.start() + 1, "neg", "!", "")
        yield from const_sites(path, ln, s, raw)
        st, prev = s.strip(), prevs[ln - 2].rstrip() if ln > 1 else ""
        # a whole statement on its line: an assignment or a call, the line before ended
        if st.endswith(";") and not C_NOT_STMT.match(st) and st.count("(") == st.count(")") \
                and ("=" in st or re.match(r"[A-Za-z_][\w.>-]*\s*\(", st)) \
                and (not prev or prev.endswith((";", "{", "}", ")", ":"))):
            col = len(s) - len(s.lstrip()) + 1
            yield Mutant(path, ln, col, "stmt", raw.strip(), ";")
        m = re.search(r"\b(if|while)\s*\(", s)
        if m:
            j, depth = m.end(), 1
            while j < len(s) and depth:
                depth += {"(": 1, ")": -1}.get(s[j], 0)
                j += 1
            if depth == 0:
                cond = raw[m.end():j - 1]
                for v in ("1", "0"):
                    yield Mutant(path, ln, m.end() + 1, "cond", cond, v)
        yield from swap_sites(path, ln, s, raw)
        m = re.search(r"\breturn\s+([^;]+);", s)
        if m and not re.fullmatch(r"\s*-?\d+\s*|\s*NULL\s*", m.group(1)):
            yield Mutant(path, ln, m.start(1) + 1, "ret", raw[m.start(1):m.end(1)],
                         "!(%s)" % raw[m.start(1):m.end(1)])


def bool_sites(path, ln, s):
    """&& made || and || made && (C and shell)."""
    for m in re.finditer(r"&&|\|\|", s):
        yield Mutant(path, ln, m.start() + 1, "bool", m.group(0),
                     "||" if m.group(0) == "&&" else "&&")


def const_values(v):
    """What an integer literal v becomes: v+1, v-1 and 0 (0 becomes 1)."""
    return [1] if v == 0 else [v + 1, v - 1] + ([0] if v > 1 else [])


def const_sites(path, ln, s, raw):
    for m in re.finditer(r"(?<![\w.$\-])(0x[0-9a-fA-F]+|\d+)(?![\w.])", s):
        v = int(m.group(1), 0) if not re.fullmatch(r"0\d+", m.group(1)) else int(m.group(1), 8)
        for w in const_values(v):
            yield Mutant(path, ln, m.start() + 1, "const", raw[m.start():m.end()], str(w))


def swap_sites(path, ln, s, raw):
    for m in re.finditer(r"\b[A-Za-z_]\w*\(\s*([\w.>\-\[\]&*]+)\s*,\s*([\w.>\-\[\]&*]+)\s*\)", s):
        a, b = raw[m.start(1):m.end(1)], raw[m.start(2):m.end(2)]
        if a != b and s[m.start(1):m.end(1)].strip() and s[m.start(2):m.end(2)].strip():
            yield Mutant(path, ln, m.start(1) + 1, "swap", raw[m.start(1):m.end(2)],
                         "%s, %s" % (b, a))


def sh_sites(path, text):
    b, heredocs = blank_sh(text)
    raws = text.split("\n")
    for ln, (s, raw) in enumerate(zip(b.split("\n"), raws), 1):
        for m in re.finditer(r"(?<=\s)(-lt|-le|-gt|-ge|-eq|-ne|==|!=)(?=\s)", s):
            yield Mutant(path, ln, m.start() + 1, "rel", m.group(1), REL_SH[m.group(1)])
        yield from bool_sites(path, ln, s)
        for m in re.finditer(r"(?<=[\s\[(])! (?=\S)", s):
            yield Mutant(path, ln, m.start() + 1, "neg", "! ", "")
        for m in re.finditer(r"(?<![\w.$/:,%])(?<![^:]-)(\d+)(?![\w.%/:])", s):
            if s[:m.start()].rstrip().endswith(("<", ">", ">&", "<&")) or re.search(r"[0-9]>&?$", s[:m.end() + 1]):
                continue  # a file descriptor of a redirection
            v = int(m.group(1))
            for w in const_values(v):
                yield Mutant(path, ln, m.start() + 1, "const", m.group(1), str(w))
        st = s.strip()
        prev = b.split("\n")[ln - 2].rstrip() if ln > 1 else ""
        if st and not SH_NOT_STMT.match(st) and not st.endswith(("\\", "|", "&&", "||", "{", "(")) \
                and not prev.endswith(("\\", "|", "&&", "||")) and "<<" not in st \
                and st.count("(") == st.count(")") and not st.startswith(("'", '"')):
            col = len(s) - len(s.lstrip()) + 1
            yield Mutant(path, ln, col, "stmt", raw.strip(), ":")
        m = re.match(r"(\s*)(if|elif|while)\s+(.+?);\s*(then|do)\b", s)
        if m:
            cond = raw[m.start(3):m.end(3)]
            for v in ("true", "false"):
                yield Mutant(path, ln, m.start(3) + 1, "cond", cond, v)
    for first, body in heredocs:
        for mu in py_sites(path, body):
            mu.line += first - 1
            yield mu


def py_sites(path, text):
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return
    raws = text.split("\n")
    for k, t in enumerate(toks):
        ln, col = t.start
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        prv = toks[k - 1] if k else None
        if t.type == tokenize.OP and t.string in REL_C:
            yield Mutant(path, ln, col + 1, "rel", t.string, REL_C[t.string])
        elif t.type == tokenize.NAME and t.string in ("and", "or"):
            yield Mutant(path, ln, col + 1, "bool", t.string, "or" if t.string == "and" else "and")
        elif t.type == tokenize.NAME and t.string == "not" and nxt and nxt.string != "in" \
                and not (prv and prv.string == "is"):
            if raws[ln - 1][col:col + 4] == "not ":
                yield Mutant(path, ln, col + 1, "neg", "not ", "")
        elif t.type == tokenize.NUMBER and re.fullmatch(r"\d+|0x[0-9a-fA-F]+", t.string):
            v = int(t.string, 0)
            for w in const_values(v):
                yield Mutant(path, ln, col + 1, "const", t.string, str(w))
    # line-level operators, on one physical line each
    for ln, raw in enumerate(raws, 1):
        st = raw.strip()
        ind = len(raw) - len(raw.lstrip()) + 1
        m = re.match(r"(\s*)(if|elif|while) (.+):\s*$", raw)
        if m and "#" not in m.group(3) and not m.group(3).rstrip().endswith(("(", "[", "{", ",")):
            for v in ("True", "False"):
                yield Mutant(path, ln, m.start(3) + 1, "cond", m.group(3), v)
        m = re.match(r"(\s*)return (.+)$", raw)
        if m and "#" not in m.group(2) and m.group(2).count("(") == m.group(2).count(")") \
                and not m.group(2).rstrip().endswith((",", "(", "[", "{", "\\")):
            yield Mutant(path, ln, m.start(2) + 1, "ret", m.group(2), "not (%s)" % m.group(2))
        if st and re.match(r"[A-Za-z_][\w.\[\]'\"]*(\s*[-+*/|&]?=\s*|\()", st) \
                and not re.match(r"(def|class|if|elif|else|for|while|try|except|finally|with|"
                                 r"return|import|from|global|nonlocal|assert|lambda)\b", st) \
                and st.count("(") == st.count(")") and st.count("[") == st.count("]") \
                and st.count("{") == st.count("}") and not st.endswith(("\\", ":", ",")) \
                and '"""' not in st and "'''" not in st:
            nxt = raws[ln] if ln < len(raws) else ""
            if not nxt.strip().startswith((".", ")", "]", "}")):
                yield Mutant(path, ln, ind, "stmt", st, "pass")
        for mu in swap_sites(path, ln, raw, raw):
            yield mu


def sites(root, path):
    """Every mutant of the file at root/path (a path relative to root)."""
    try:
        text = (Path(root) / path).read_text()
    except (UnicodeDecodeError, OSError):
        return []
    lang = language(path, text)
    gen = {"c": c_sites, "sh": sh_sites, "py": py_sites}.get(lang)
    if not gen:
        return []
    seen, out = set(), []
    for m in gen(path, text):
        if m is None or (m.line, m.col, m.op, m.new) in seen or m.old == m.new:
            continue
        seen.add((m.line, m.col, m.op, m.new))
        m.lang = lang
        out.append(m)
    return out


def source_files(root):
    files = subprocess.run(["git", "-C", str(root), "ls-files", "--", *SOURCE_DIRS],
                           capture_output=True, text=True, check=True).stdout.split()
    # a symlink is its target under another name: mutated there, the target would change
    return [f for f in files if not SKIP.search(f) and not os.path.islink(os.path.join(root, f))]


def area(path):
    """What the score is kept by: lib, bench/<name>, scripts, lava, kernel."""
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "bench" and len(parts) > 2 else parts[0]


def sample(root, n, seed):
    """n mutants drawn at random (seeded) from every site of every source file, one mutant a
    site at most (a site's replacement drawn too)."""
    rng = random.Random(seed)
    by_site = {}
    for f in source_files(root):
        for m in sites(root, f):
            by_site.setdefault((m.path, m.line, m.col, m.op), []).append(m)
    keys = sorted(by_site)
    picked = rng.sample(keys, min(n, len(keys)))
    return [rng.choice(by_site[k]) for k in picked], len(keys)


def wilson(k, n, z=1.96):
    """The 95 % Wilson interval of a proportion k/n, as (low, high)."""
    if not n:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (max(0.0, c - h), min(1.0, c + h))


def tests_for(map_path, path):
    """The tests that touch path (test-map's OUT), those mapped to every file included; the
    narrowest first (fewest files touched: a unit test of the file before a whole pipeline's),
    so a mutant's first failure, which ends its run, comes early."""
    touches = {}
    for line in open(map_path):
        t, _, f = line.rstrip("\n").partition("\t")
        touches.setdefault(t, set()).add(f)
    out = [t for t, fs in touches.items() if path in fs or "*" in fs]
    return sorted(out, key=lambda t: ("*" in touches[t], len(touches[t]), t))


def main(argv):
    import json
    import sys
    if argv[:1] == ["plan"] and len(argv) == 4:
        ms, nsites = sample(argv[1], int(argv[2]), int(argv[3]))
        json.dump({"sites": nsites, "mutants": [dict(m.__dict__, id=m.id, area=area(m.path))
                                                for m in ms]}, sys.stdout)
    elif argv[:1] == ["apply"] and len(argv) == 4:
        d = json.load(open(argv[1]))["mutants"][int(argv[2])]
        p = Path(argv[3]) / d["path"]
        m = Mutant(d["path"], d["line"], d["col"], d["op"], d["old"], d["new"])
        p.write_text(m.apply(p.read_text()))
        print("\t".join([d["id"], d["area"], d["lang"], d["op"], d["path"]]))
    elif argv[:1] == ["tests"] and len(argv) == 3:
        print(" ".join(tests_for(argv[1], argv[2])))
    else:
        sys.exit("usage: mutants.py plan ROOT N SEED | apply PLAN K ROOT | tests MAP FILE")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
