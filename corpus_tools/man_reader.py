"""Unix manual pages (roff: man(7) and BSD mdoc(7) macros) read as documents (session 49, issues 34 and 36).

A folder of manual pages (`man2/openat2.2`, `ssh.1`) is its system's reference. Before session 49 `context1 index`
skipped `.1` … `.9` files as an unsupported type; read as plain text they are roff source: `.TH`, `.SH`, `.BR`,
`\\fB…\\fP`, `\\-`, `.TP`, tbl tables, a licence in `.\\"` comments, and a redirect page (`.so man2/stat.2`) is a
document of one line. This reader writes what `man` shows, in the parts the Markdown reader writes
(markup.SectionWriter):
  - the title a reader of `whatis` sees, from NAME: "openat2(2) — open and possibly create a file (extended)";
  - a section per `.SH` / `.Sh` (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, ERRORS, VERSIONS, SEE ALSO …) and `.SS`;
  - a tagged paragraph (`.TP`, `.IP`, mdoc's `.It`) as its tag on one line and its text under it, one paragraph, so
    an option or an error stays with what it says; the tag's option / error / constant names are recorded as names
    the page defines (defined_names.py: "When does openat2 fail with E2BIG?" finds the E2BIG entry), and the page's
    own names (NAME's "stat, fstat, lstat") on its NAME line;
  - `.nf`/`.fi`, `.EX`/`.EE`, mdoc's `.Bd -literal` as code parts (the SYNOPSIS's prototypes too); tbl tables
    (`.TS`/`.TE`) through render_table;
  - comments (the licence header) and layout requests (`.in`, `.sp`, `.ad`, `.PD` …) dropped and counted; a macro
    the reader does not know is dropped with its line kept as text when it carries words (counted as "unknown").
A page is a manual page by its content (`.TH` or `.Dd`/`.Dt` among its first control lines), not by its suffix:
`looks_like_man`. A redirect page (`.so man2/stat.2` and nothing else) is no document: `redirect_target` names the
page it points to, whose names it adds (the loader folds them in, `aliases`).
"""

from __future__ import annotations

import re
from collections import Counter

from corpus_tools.markup import MarkupDocument, SectionWriter, split_lines

# man1 … man9 pages, their lettered sub-sections (.3p, .1ssl, .3perl), Tcl's .n and the generic .man
_SUFFIX = re.compile(r"^\.(?:[1-9][a-z]{0,6}|n|man)$", re.IGNORECASE)
_HEAD_LINES = 80  # control lines looked at for .TH / .Dd: a licence header of comments comes first
_SO = re.compile(r"^[.']\s*so\s+(\S+)\s*$")
_COMMENT = re.compile(r'^[.\']\s*\\"|^\\"|^[.\']\s*$')
_INLINE_COMMENT = re.compile(r'\\".*$|\\#.*$')
# named characters (groff_char(7)) a page commonly writes
_CHARS = {"em": "—", "en": "–", "aq": "'", "dq": '"', "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "bu": "•",
          "co": "©", "rg": "®", "tm": "™", "mi": "-", "hy": "-", "pl": "+", "mu": "×", "di": "÷", "<=": "≤",
          ">=": "≥", "!=": "≠", "ti": "~", "ha": "^", "rs": "\\", "sl": "/", "ba": "|", "or": "|", "de": "°",
          "+-": "±", "->": "→", "<-": "←", "ua": "↑", "da": "↓", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›",
          "ga": "`", "aa": "´", "at": "@", "sh": "#", "Do": "$", "lB": "[", "rB": "]", "lC": "{", "rC": "}",
          "R": "®", "Tm": "™", "ss": "ß", "ff": "ff", "fi": "fi", "fl": "fl", "pc": "·", "sc": "§", "ps": "¶"}
_ESCAPE = re.compile(r"\\(?:f(?:\[[^\]]*\]|\(..|.)|s[-+]?(?:\d|\(\d\d|\[\d+\])|\*(?:\[[^\]]*\]|\(..|.)|\((..)|"
                     r"\[([^\]]*)\]|[kz].|[hvwoxlLDNbSHRYZ]'[^']*'|.)")
_FONT_MACROS = {"B", "I", "SM", "SB", "BR", "RB", "IR", "RI", "BI", "IB"}
_ALTERNATING = {"BR", "RB", "IR", "RI", "BI", "IB"}
_BREAKS = {"PP", "P", "LP", "HP", "sp", "br", "Pp", "Lp"}
_LAYOUT = {"in", "ad", "na", "nh", "hy", "PD", "ft", "ta", "ti", "ne", "fam", "UC", "nr", "ds", "ll", "ps", "vs",
           "RS", "RE", "ce", "ul", "cu", "bp", "pl", "ns", "rs", "tr", "ss", "cs", "lf", "Os", "mso",
           "Bk", "Ek", "Sm", "Ud", "DT", "AT", "PU", "YS", "ie", "if", "el", "EQ", "EN"}
# what a tag defines: an option (-r, --read-only), an error or constant (EACCES, O_TMPFILE), a name holding "_",
# a configuration keyword in CamelCase (sshd_config's AllowTcpForwarding)
_CODE_TAG = re.compile(r"^(?:--?[A-Za-z0-9][\w-]*|[A-Z][A-Z0-9_]{2,}|[A-Za-z_]\w*_\w+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)$")
# mdoc macros that may stand inside a line, with what they write before their arguments
_MDOC_INLINE = {"Fl": "-", "Ar": "", "Cm": "", "Ic": "", "Li": "", "Pa": "", "Va": "", "Ev": "", "Er": "",
                "Dv": "", "Sy": "", "Em": "", "Nm": None, "Fn": "", "Fa": "", "Ft": "", "Ms": "", "Tn": "",
                "Ad": "", "Cd": "", "Ux": "UNIX", "Ox": "OpenBSD", "Nx": "NetBSD", "Fx": "FreeBSD", "Bx": "BSD",
                "Xr": "", "Op": "", "Oo": "[", "Oc": "]", "Dq": "", "Qq": "", "Sq": "", "Pq": "", "Bq": "",
                "Brq": "", "Aq": "", "Ql": "", "Do": "“", "Dc": "”", "Qo": '"', "Qc": '"', "Po": "(", "Pc": ")",
                "Ns": "", "No": "", "Pf": "", "Eo": "", "Ec": "", "An": "", "Lk": "", "Mt": "", "St": "", "At": "AT&T UNIX",
                "Lb": "", "In": "", "Vt": "", "Fo": "", "Fc": ")", "Dx": "DragonFly", "Bsx": "BSD/OS"}
_MDOC_WRAP = {"Op": ("[", "]"), "Dq": ("“", "”"), "Qq": ('"', '"'), "Sq": ("‘", "’"), "Pq": ("(", ")"),
              "Bq": ("[", "]"), "Brq": ("{", "}"), "Aq": ("<", ">"), "Ql": ("‘", "’")}
_PUNCT = re.compile(r"^[.,:;)\]?!]+$")


def is_man_suffix(suffix: str) -> bool:
    """Whether a file suffix is one manual pages use (.1 … .9 with letters after, .n, .man)."""
    return bool(_SUFFIX.match(suffix))


def _control_lines(text: str, limit: int = _HEAD_LINES) -> list[str]:
    """The first `limit` non-blank, non-comment lines."""
    out = []
    for line in split_lines(text):
        if not line.strip() or _COMMENT.match(line):
            continue
        out.append(line.strip())
        if len(out) >= limit:
            break
    return out


def redirect_target(text: str) -> str | None:
    """The page a redirect page (`.so man2/stat.2`, nothing else but comments) points to; None for any other."""
    lines = _control_lines(text, 3)
    if len(lines) == 1:
        match = _SO.match(lines[0])
        if match:
            return match.group(1)
    return None


def looks_like_man(text: str, macros: bool = False) -> bool:
    """Whether `text` is a manual page: `.TH` (man) or `.Dd` / `.Dt` (mdoc) among its first control lines, or a
    redirect page. A `notes.1` of prose, or a rotated `syslog.1`, is not. With `macros` (CorpusConfig.man_macros),
    the lines of the page's own macro definitions (`.de NAME` … `..`) and register settings (`.nr`, `.ds`) before
    its `.TH` are not counted: a page rst2man or pandoc wrote (unbound.conf(5)) defines its macros first, and its
    `.TH` came as the 30th control line (session 50)."""
    if redirect_target(text):
        return True
    lines = _control_lines(text, 200 if macros else 12)
    if macros:
        kept, inside = [], False
        for line in lines:
            if inside:
                inside = not re.match(r"^[.']\s*\.\s*$", line)
            elif re.match(r"^[.']\s*(?:de1?|am1?|dei|ami)\s", line):
                inside = True
            elif not re.match(r"^[.']\s*(?:nr|ds|ds1|if|ie|el|ig|rr|rm|als|do|ec|eo|cc|c2|hy|nh|ad|na)\b", line):
                kept.append(line)
        lines = kept[:12]
    for line in lines:
        if re.match(r"^[.']\s*(?:TH|Dd|Dt)\b", line):
            return True
    return False


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a page's bytes: UTF-8 (a BOM dropped), else ISO-8859-1, as groff reads a page that
    declares no coding (a byte-wise guess reads "naïve" in Latin-1 as Czech "naďve")."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def _args(rest: str) -> list[str]:
    """A request's arguments: blank-separated words, "double quoted" words whole ("" = a quote)."""
    out: list[str] = []
    i, n = 0, len(rest)
    while i < n:
        while i < n and rest[i] in " \t":
            i += 1
        if i >= n:
            break
        if rest[i] == '"':
            i += 1
            word = []
            while i < n:
                if rest[i] == '"':
                    if i + 1 < n and rest[i + 1] == '"':
                        word.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                word.append(rest[i])
                i += 1
            out.append("".join(word))
        else:
            j = i
            while j < n and rest[j] not in " \t":
                j += 2 if rest[j] == "\\" else 1  # an escape ("\ ", an unbreakable space) is part of the word
            out.append(rest[i:j])
            i = j
    return out


def inline(text: str) -> str:
    """Roff escapes to text: fonts and sizes dropped, `\\-` → "-", named characters (`\\(em`) as they print."""
    if "\\" not in text:
        return text

    def sub(match: re.Match[str]) -> str:
        whole = match.group(0)
        name = match.group(1) or match.group(2)
        if name is not None:
            return _CHARS.get(name, "")
        second = whole[1:2]
        if second in ("f", "s", "*", "k", "z", "h", "v", "w", "o", "x", "l", "L", "D", "N", "b", "S", "H", "R",
                      "Y", "Z"):
            if second == "*" and whole[2:] in ("R", "(Tm", "[Tm]"):
                return "®" if whole[2:] == "R" else "™"
            if second == "*" and whole[2:] in ("(lq", "[lq]"):
                return "“"
            if second == "*" and whole[2:] in ("(rq", "[rq]"):
                return "”"
            if second == "N":
                code = whole[3:-1]
                return chr(int(code)) if code.isdigit() and int(code) < 0x110000 else ""
            return ""
        return {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "'": "´", "`": "`", ".": ".",
                "|": "", "^": "", "&": "", "%": "", ":": "", "/": "", ",": "", "c": "", "t": "\t", "\"": "",
                "(": "", "[": ""}.get(second, "")

    return _ESCAPE.sub(sub, text)


# a number register's value interpolated (`\n[rst2man-indent-level]`, `\n(PD`, `\nx`): layout, no words
_REGISTER = re.compile(r"(?<!\\)\\n[+-]?(?:\[[^\]]*\]|\(..|[^\[(])")


class _Reader:
    def __init__(self, aliases: tuple[str, ...] = (), macros: bool = False) -> None:
        self.macros = macros  # CorpusConfig.man_macros: a page's own macro definitions and registers are layout
        self.defined: set[str] = set()  # the macros the page defines (.de NAME) whose every line is a request
        self.defining: tuple[str, list[str]] | None = None  # the macro being defined, and its lines so far
        self.out = SectionWriter()
        self.dropped: Counter[str] = Counter()
        self.notes: list[str] = []
        self.fill: list[str] = []  # words of the paragraph being filled
        self.code: list[str] | None = None  # lines of a no-fill block (.nf / .EX / .Bd -literal)
        self.section = ""
        self.title_name = ""
        self.man_section = ""
        self.names: list[str] = []
        self.description = ""
        self.name_text: list[str] = []
        self.aliases = aliases
        self.pending_tag = False  # .TP: the next text line is the tag
        self.tag_parts: list[str] = []  # .TQ: several tag lines
        self.mdoc = False
        self.lists: list[str] = []  # mdoc .Bl kinds, innermost last
        self.skip_until: str | None = None  # ".." ending a .de definition

    # --- writing -------------------------------------------------------------------------------------------
    def flush(self) -> None:
        if self.fill:
            text = " ".join(" ".join(self.fill).split())
            self.fill = []
            if text:
                if self.section == "NAME":
                    self.name_text.append(text)
                self.out.line(text)
        self.out.line("")

    def add_text(self, text: str) -> None:
        if self.code is not None:
            self.code.append(text.expandtabs(8))
            return
        if self.pending_tag:
            self.tag(text)
            return
        if text.strip():
            self.fill.append(text.strip())

    def tag(self, text: str) -> None:
        """A tagged paragraph's tag (.TP's next line, .IP's argument, .It): its own line, names recorded."""
        self.pending_tag = False
        self.flush_words_only()
        tag = " ".join(text.split())
        if not tag:
            return
        names = [w.strip(",;") for w in re.split(r"[\s,|]+", tag) if _CODE_TAG.match(w.strip(",;[]=<>"))]
        names = [n.strip("[]=<>").split("=")[0] for n in names][:4]
        if names and tag.startswith("-"):  # "-c config_file": the option is defined, its argument is not
            names = [n for n in names if n.startswith("-")]
        if names and len(tag.split()) <= 8:
            program = self.title_name if self.man_section[:1] in ("1", "8") else ""
            self.out.define(*dict.fromkeys(names), program=program)
        self.out.line(tag)

    def flush_words_only(self) -> None:
        """The filled paragraph written, then a blank line, before a tag starts a new entry."""
        self.flush()

    def heading(self, level: int, text: str) -> None:
        self.end_code()
        self.flush()
        self.pending_tag = False
        text = " ".join(inline(text).split())
        if level == 1:
            self.section = text.upper()
        self.out.heading(level, text)

    def start_code(self) -> None:
        self.flush()
        if self.code is None:
            self.code = []

    def end_code(self) -> None:
        if self.code is not None:
            lines, self.code = self.code, None
            if any(line.strip() for line in lines):
                self.out.code(lines)

    # --- requests ------------------------------------------------------------------------------------------
    def request(self, name: str, rest: str) -> None:
        args = [inline(a) for a in _args(rest)]
        if name == "TH":
            self.title_name = args[0].lower() if args and args[0].isupper() else (args[0] if args else "")
            self.man_section = args[1] if len(args) > 1 else ""
        elif name == "Dt":
            self.mdoc = True
            self.title_name = args[0].lower() if args and args[0].isupper() else (args[0] if args else "")
            self.man_section = args[1] if len(args) > 1 else ""
        elif name == "Dd":
            self.mdoc = True
        elif name in ("SH", "Sh"):
            self.heading(1, " ".join(args))
            if not args:
                self.pending_heading = 1
        elif name in ("SS", "Ss"):
            self.heading(2, " ".join(args))
        elif name in _BREAKS:
            self.end_code() if name in ("sp", "br") and self.code is None else None
            if self.code is not None:
                self.code.append("")
            else:
                self.flush()
        elif name in _FONT_MACROS:
            if not args:
                self.pending_font = True
                return
            text = "".join(args) if name in _ALTERNATING else " ".join(args)
            self.add_text(text)
        elif name in ("TP", "TQ"):
            self.flush()
            self.pending_tag = True
        elif name == "IP":
            self.flush()
            if args and args[0] not in ("\\(bu", "•", "*", "-", "\u2022") and not re.fullmatch(r"\d+\.?", args[0]):
                self.tag(args[0])
        elif name in ("nf", "EX", "Vb"):
            self.start_code()
        elif name in ("fi", "EE", "Ve"):
            self.end_code()
        elif name == "TS":
            self.table_lines = []
            self.in_table = True
        elif name in ("UR", "MT"):
            self.url = args[0] if args else ""
        elif name in ("UE", "ME"):
            self.add_text((" ".join(args)).strip())
        elif name == "SY":
            self.flush()
            self.add_text(" ".join(args))
        elif name == "OP":
            self.add_text("[" + " ".join(args) + "]")
        elif name == "de" or name == "ig" or self.macros and name in ("de1", "dei", "am", "am1", "ami"):
            self.skip_until = ".."
            self.dropped["definition"] += 1
            if self.macros and name != "ig" and args:
                self.defining = (args[0], [])
        elif self.macros and name in self.defined:
            # rst2man's `.INDENT 0.0` / `.UNINDENT`: a macro the page defines of requests alone sets layout (read as an
            # unknown macro, "0.0" came into the text); one whose body writes text (tz's `.q "TZif"`) prints its words
            self.dropped["layout"] += 1
        elif name == "so":
            self.dropped["include"] += 1
        elif name in _LAYOUT or name in ("q",):
            if name == "q":  # man-pages' own quoting macro: its words in quotes
                self.add_text("“" + " ".join(args) + "”")
            else:
                self.dropped["layout"] += 1
        elif self.mdoc and self.mdoc_request(name, rest):
            pass
        else:
            self.dropped["unknown macro"] += 1
            if args:  # its words are the page's text (a local macro that prints them)
                self.add_text(" ".join(args))

    # --- mdoc ----------------------------------------------------------------------------------------------
    def mdoc_words(self, tokens: list[str]) -> str:
        """An mdoc line's words with its callable macros applied (`Fl r Ar file` → "-r file")."""
        out: list[str] = []
        glue_next = False
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok in _MDOC_WRAP:  # wraps the rest of the line; closing punctuation stays outside
                rest = tokens[i + 1 :]
                cut = len(rest)
                while cut and _PUNCT.match(rest[cut - 1]):
                    cut -= 1
                inner, trail = self.mdoc_words(rest[:cut]), "".join(rest[cut:])
                open_, close = _MDOC_WRAP[tok]
                out.append(f"{open_}{inner}{close}{trail}")
                break
            if tok == "Ns":
                glue_next = True
                i += 1
                continue
            if tok == "Xr" and i + 2 < len(tokens) + 1 and i + 1 < len(tokens):
                page = tokens[i + 1]
                sec = tokens[i + 2] if i + 2 < len(tokens) and tokens[i + 2].isalnum() else ""
                word = f"{page}({sec})" if sec else page
                i += 3 if sec else 2
            elif tok == "Fl":
                # `.Fl Fl oneshot`: mdoc's long option, "--oneshot" (read as "- -oneshot" before; man_macros)
                double = self.macros and i + 1 < len(tokens) and tokens[i + 1] == "Fl"
                i += 2 if double else 1
                word = "--" if double else "-"
                nxt = tokens[i] if i < len(tokens) else ""
                if nxt and nxt not in _MDOC_INLINE and not _PUNCT.match(nxt):
                    word += nxt
                    i += 1
            elif tok == "Nm":
                nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
                if nxt and nxt not in _MDOC_INLINE and not _PUNCT.match(nxt):
                    word = nxt
                    i += 2
                else:
                    word = self.names[0] if self.names else self.title_name
                    i += 1
            elif tok in _MDOC_INLINE:
                word = _MDOC_INLINE[tok] or ""
                i += 1
                if not word:
                    continue
            else:
                word = tok
                i += 1
            if out and (glue_next or _PUNCT.match(word)):
                out[-1] += word
            elif word:
                out.append(word)
            glue_next = False
        return " ".join(out)

    def mdoc_request(self, name: str, rest: str) -> bool:
        tokens = [inline(t) for t in _args(rest)]
        if name == "Nm":
            words = self.mdoc_words(["Nm", *tokens])
            if self.section == "NAME":
                for t in tokens:
                    if not _PUNCT.match(t):
                        self.names.append(t.strip(","))
                self.fill.append(words)
            else:
                self.add_text(words)
        elif name == "Nd":
            self.description = " ".join(tokens)
            self.fill.append("— " + self.description)
        elif name == "Bl":
            self.flush()
            self.lists.append(tokens[0] if tokens else "-tag")
        elif name == "El":
            self.flush()
            if self.lists:
                self.lists.pop()
        elif name == "It":
            self.flush()
            kind = self.lists[-1] if self.lists else "-tag"
            words = self.mdoc_words(tokens)
            if kind in ("-bullet", "-dash", "-hyphen", "-enum", "-item"):
                self.fill.append("•" if kind != "-enum" else "")
                if words:
                    self.fill.append(words)
            elif kind == "-column":
                self.fill.append(words.replace(" Ta ", " | "))
            else:
                self.tag(words)
        elif name == "Bd":
            self.flush()
            if any(t in ("-literal", "-unfilled", "-code") for t in tokens):
                self.start_code()
        elif name == "Ed":
            self.end_code()
        elif name in ("D1", "Dl"):
            self.flush()
            self.out.code([self.mdoc_words(tokens)]) if name == "Dl" else self.add_text(self.mdoc_words(tokens))
            self.flush()
        elif name in _MDOC_INLINE or name in ("Fd", "Rv", "Ex"):
            if name == "Rv":
                self.add_text("The function returns the value 0 if successful; otherwise the value -1 is "
                              "returned and the global variable errno is set to indicate the error.")
            elif name == "Ex":
                self.add_text("The utility exits 0 on success, and >0 if an error occurs.")
            else:
                self.add_text(self.mdoc_words([name, *tokens]))
        else:
            return False
        return True

    # --- tables --------------------------------------------------------------------------------------------
    def table(self, lines: list[str], closed: bool) -> None:
        """A tbl(1) table: options and format lines (up to the one ending in ".") dropped, rows split on tab."""
        tab = "\t"
        body_at = 0
        for i, line in enumerate(lines):
            m = re.search(r"tab\s*\((.)\)", line)
            if m:
                tab = m.group(1)
            if line.rstrip().endswith("."):
                body_at = i + 1
                break
        rows: list[list[str]] = []
        block: list[str] | None = None
        for line in lines[body_at:]:
            if block is not None:  # a T{ … T} text block: one cell over several lines
                if line.startswith("T}"):
                    rows[-1][-1] = " ".join(inline(" ".join(block)).split())
                    rest = line[2:].lstrip(tab)
                    rows[-1].extend(inline(c).strip() for c in rest.split(tab) if rest)
                    block = None
                else:
                    block.append(line if not line.startswith(".") else "")
                continue
            if not line.strip() or line.strip() in ("_", "=", ".T&") or line.startswith(".\\\""):
                continue
            if line.startswith(".") and not line.startswith(".T&"):
                continue
            cells = line.split(tab)
            if cells and cells[-1].endswith("T{"):
                cells[-1] = cells[-1][:-2]
                rows.append([inline(c).strip() for c in cells])
                block = []
                continue
            rows.append([inline(c).strip() for c in cells])
        if not closed:
            self.notes.append("a table (.TS) not closed by .TE: read to the end of the page")
        self.flush()
        if rows:
            self.out.table(rows, header=True)

    # --- the page ------------------------------------------------------------------------------------------
    def read(self, text: str) -> MarkupDocument:
        self.pending_font = False
        self.pending_heading = 0
        self.in_table = False
        self.table_lines: list[str] = []
        self.url = ""
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # tabs kept: tbl splits cells on them
        joined: list[str] = []
        carry = ""
        for line in lines:  # a line ending in "\" continues on the next
            if line.endswith("\\") and not line.endswith("\\\\"):
                carry += line[:-1]
                continue
            joined.append(carry + line)
            carry = ""
        if carry:
            joined.append(carry)
        for raw in joined:
            if self.macros and "\\n" in raw:
                raw = _REGISTER.sub("", raw)
            if self.skip_until is not None:
                if raw.strip() == self.skip_until:
                    self.skip_until = None
                    if self.defining is not None:
                        name, body = self.defining
                        if all(line.lstrip()[:1] in (".", "'") for line in body if line.strip()):
                            self.defined.add(name)
                        self.defining = None
                elif self.defining is not None:
                    self.defining[1].append(raw)
                continue
            if self.in_table:
                if re.match(r"^[.']\s*TE\b", raw):
                    self.in_table = False
                    self.table(self.table_lines, closed=True)
                    self.table_lines = []
                else:
                    self.table_lines.append(raw)
                continue
            if _COMMENT.match(raw):
                if raw.strip() not in (".", "'"):
                    self.dropped["comment"] += 1
                continue
            line = _INLINE_COMMENT.sub("", raw) if '\\"' in raw or "\\#" in raw else raw
            if line[:1] in (".", "'") and len(line) > 1:
                m = re.match(r"^[.']\s*(\S+)\s*(.*)$", line)
                if m:
                    self.request(m.group(1), m.group(2))
                    continue
            text_line = inline(line)
            if self.pending_heading:
                self.heading(self.pending_heading, text_line)
                self.pending_heading = 0
                continue
            if self.pending_font:
                self.pending_font = False
            if self.mdoc and self.code is None:
                text_line = text_line
            self.add_text(text_line if self.code is not None else text_line.strip())
        if self.in_table:
            self.table(self.table_lines, closed=False)
        if self.code is not None:
            self.notes.append("a no-fill block (.nf / .EX) not closed: read to the end of the page as code")
            self.end_code()
        self.flush()
        return self.document()

    def document(self) -> MarkupDocument:
        if not self.mdoc and self.name_text:
            line = " ".join(self.name_text)
            head, _sep, description = re.split(r"\s+([-–—])\s+", line, maxsplit=1) if re.search(
                r"\s+[-–—]\s+", line) else [line, "", ""]
            self.names = [n.strip() for n in head.split(",") if n.strip()]
            self.description = description.strip() if description else ""
        names = list(dict.fromkeys([*self.names, *(a for a in self.aliases if a not in self.names)]))
        if not names and self.title_name:
            names = [self.title_name]
        metadata: dict[str, str] = {}
        title = None
        if names:
            shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
            section = f"({self.man_section})" if self.man_section else ""
            title = f"{shown}{section}" + (f" — {self.description}" if self.description else "")
            metadata = {"man_names": ", ".join(names), "man_section": self.man_section,
                        "man_description": self.description}
            extra = [a for a in self.aliases if a not in self.names]
            if extra:  # the names only redirect pages give (NAME's own are "man_names" first)
                metadata["man_aliases"] = ", ".join(extra)
        doc = self.out.document(title, metadata, self.notes)
        dropped = Counter(doc.dropped)
        dropped.update(self.dropped)
        parts = doc.parts
        if names and parts:  # the page's names are defined where it opens (its NAME line)
            first = parts[0]
            extra = tuple((first.start, n) for n in names if all(n != d for _at, d in first.defines))
            parts = (type(first)(first.start, first.end, first.page, first.section, first.kind, first.context,
                                 first.defines + extra, first.programs), *parts[1:])
        return MarkupDocument(title, doc.text, parts, metadata, doc.notes, dict(dropped), doc.headings,
                              doc.code_blocks, doc.tables)


def read_man(text: str, aliases: tuple[str, ...] = (), macros: bool = False) -> MarkupDocument:
    """A manual page's text read (see the module docstring); aliases: names redirect pages give it; `macros`
    (CorpusConfig.man_macros): the page's own macro definitions (`.de1`, `.am` too) and the macros they define,
    and number registers (`\\n[…]`), are layout (rst2man's and pandoc's pages)."""
    return _Reader(aliases, macros).read(text)
