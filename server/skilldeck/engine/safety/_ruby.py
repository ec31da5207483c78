"""Ruby read statement by statement (SD1011-SD1013, SD1025, SD1026, SD1053).

No pure-Python Ruby parser is kept up (``tree-sitter-ruby`` is compiled, and the bundled
server must stay pure Python), so Ruby is read at the token level: comments and string
literals found by Ruby's quoting rules (``"..."`` with ``#{...}``, ``'...'``, backquotes,
``%x(...)``), statements split at line ends (a line ending in an operator, a comma or an
open bracket, or a next line starting with ``.``, continues), and each statement's value
followed through the variables it assigns: where its data comes from (a credential file,
``ENV`` as a whole or a token in it, a download, a decoded payload) and what it reaches
(``eval``, ``system``, ``exec``, backquotes, ``instance_eval``; ``Net::HTTP``,
``HTTParty``, ``RestClient``, ``Faraday``, ``URI.open``, sockets; a file written). The
verdicts are the other analysers' (:class:`~skilldeck.engine.safety._flow.Verdicts`, and
:class:`~skilldeck.engine.safety._shell.ShellAnalysis` for files written: persistence, a
skill's own files).
"""

from __future__ import annotations

import re

from skilldeck.engine.safety._flow import (
    ANALYSE,
    UNKNOWN,
    Label,
    Line,
    Verdicts,
    placeholder_host,
    sensitive_path,
    token_label,
    url_host,
)
from skilldeck.engine.safety._hits import Hit, shorten
from skilldeck.engine.safety._shell import ShellAnalysis, Value

_STRING = re.compile(
    r'"(?:\\.|#\{[^}]*\}|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`|%x\((?:[^()]|\([^()]*\))*\)'
)
_NAME = re.compile(r"(?<![\w@$:.])(@{0,2}[a-z_]\w*|\$[a-z_]\w*)", re.IGNORECASE)
_ASSIGN = re.compile(r"^\s*(@{0,2}[a-z_]\w*|\$[a-z_]\w*)\s*(\+=|\|\|=|<<|=)(?!=)\s*(.*)$", re.S)
_WHOLE_ENV = re.compile(r"\bENV\b(?!\s*\[|\s*\.\s*(?:fetch|key\?|include\?|has_key\?|\[\]))")
_ENV_VAR = re.compile(r"\bENV\s*(?:\[\s*|\.fetch\(\s*)['\"](\w+)['\"]")
_DOWNLOAD = re.compile(
    r"\bURI\s*\.\s*open\b|\bURI\s*\(.*?\)\s*\.\s*(?:open|read)\b|URI\.parse\(.*?\)\.(?:open|read)"
    r"|\bNet::HTTP\s*\.\s*get(?:_response)?\b|\bHTTParty\s*\.\s*get\b|\bRestClient\s*\.\s*get\b"
    r"|\bFaraday\s*\.\s*get\b|\b(?:Kernel\.)?open\s*\(\s*['\"]https?://|\bHTTP\s*\.\s*get\b"
    r"|\bOpen3\.capture2e?\(\s*['\"](?:curl|wget)\b",
)
_DECODE = re.compile(
    r"\bBase64\s*\.\s*(?:strict_|urlsafe_)?decode64\b|\.unpack1?\(\s*['\"][mMuH]|"
    r"\.pack\(\s*['\"][UcC]\*|\bZlib::Inflate\b|\bZlib\.inflate\b|\.reverse\b|\.tr\(\s*['\"]A-Za-z",
)
_EXEC = re.compile(
    r"(?<![\w.])(?:Kernel\s*\.\s*)?(?:eval|instance_eval|class_eval|module_eval|instance_exec|"
    r"system|exec|spawn|load|require)\b|\bbinding\s*\.\s*eval\b|\bIO\s*\.\s*popen\b|"
    r"\bOpen3\s*\.\s*\w+|\.send\(\s*:(?:eval|system|exec)\b|^\s*`|[=(\s]`|%x\("
)
_SHELL_CALL = re.compile(r"(?:\bsystem|\bexec|\bspawn|\bIO\s*\.\s*popen|%x)\s*\(?\s*$|`$")
_SINK = re.compile(
    r"\bNet::HTTP\b|\bHTTParty\b|\bRestClient\b|\bFaraday\b|\bURI\s*\.\s*open\b|\bTCPSocket\b|"
    r"\bUDPSocket\b|\bSocket\s*\.\s*tcp\b|\bResolv\b|\bNet::SMTP\b|\bHTTP\s*\.\s*post\b|"
    r"\bExcon\b|\bTyphoeus\b",
)
_WRITE = re.compile(r"\bFile\s*\.\s*(write|open|binwrite)\s*\(")


def _args(code: str, at: int) -> list[str]:
    """The top-level arguments of the call whose ``(`` is at ``at``."""
    masked = _STRING.sub(lambda m: "\x01" * len(m.group(0)), code)
    depth = 0
    parts: list[str] = []
    begin = at + 1
    for index in range(at, len(code)):
        char = masked[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                parts.append(code[begin:index].strip())
                return [p for p in parts if p]
        elif char == "," and depth == 1:
            parts.append(code[begin:index].strip())
            begin = index + 1
    parts.append(code[begin:].strip())
    return [p for p in parts if p]


_HANDLE = re.compile(r"(?:do|\{)\s*\|\s*(\w+)\s*\|")


class RubyAnalysis:
    """One Ruby file's statements over values, reporting to ``verdicts``."""

    def __init__(self, text: str, verdicts: Verdicts) -> None:
        self.text = text
        self.verdicts = verdicts
        self.line = verdicts.line_of
        self.vars: dict[str, Value] = {}
        self.handles: dict[str, str] = {}
        self.shell = ShellAnalysis(text, verdicts, nested=1)

    def run(self) -> None:
        for start, end in _statements(self.text):
            self.statement(start, end)
        self._reverse_shell()

    def statement(self, start: int, end: int) -> None:
        code = self.text[start:end]
        line = self.line(start)
        assign = _ASSIGN.match(code)
        target = assign.group(1) if assign and assign.group(2) != "<<" else None
        rhs = assign.group(3) if assign is not None and target else code
        value = self.value(rhs, line)
        if _EXEC.search(rhs):
            self.verdicts.execute(value.taint, start, end, command=code)
            self._nested_shell(rhs, start, end)
        if _SINK.search(rhs):
            host = self._host(rhs)
            self.verdicts.send(value.taint, start, end, command=code, host=host)
        self._writes(code, value, start, end)
        if target is not None:
            if assign and assign.group(2) in ("+=", "||=") and target in self.vars:
                old = self.vars[target]
                value = Value(old.shape + value.shape, old.taint | value.taint)
            self.vars[target] = value

    def value(self, expr: str, line: int) -> Value:
        """The value of a Ruby expression: its text where known, and its labels."""
        taint: set[Label] = set()
        literals = [m.group(0) for m in _STRING.finditer(expr)]
        for name in _NAME.findall(_STRING.sub(" ", expr)):
            held = self.vars.get(name)
            if held is not None:
                taint |= held.taint
        pieces = [self._literal(lit) for lit in literals]
        joined = _file_join(expr)
        label = sensitive_path(joined, line) if joined is not None else None
        if label is not None:
            taint.add(label)  # the path the pieces spell, not each piece
        else:
            for piece in pieces:
                label = sensitive_path(piece, line)
                if label is not None:
                    taint.add(label)
        if _WHOLE_ENV.search(_STRING.sub(" ", expr)):
            taint.add(Label("env", "the whole environment (`ENV`)", line))
        for name in _ENV_VAR.findall(expr):
            label = token_label(name, line)
            if label is not None:
                taint.add(label)
        if _DOWNLOAD.search(expr):
            url = next((p for p in pieces if "://" in p), None) or self._url_var(expr)
            taint.add(Label("download", shorten(url or "a URL", 80), line))
        if _DECODE.search(expr):
            taint.add(Label("decode", "a decoded payload", line))
        shape = pieces[0] if len(literals) == 1 and expr.strip() == literals[0] else UNKNOWN
        if (
            shape == UNKNOWN
            and len(literals) == 1
            and re.fullmatch(r"\s*URI\(\s*\S+\s*\)\s*", expr)
        ):
            shape = pieces[0]
        if shape == UNKNOWN:
            name = expr.strip()
            if name in self.vars:
                shape = self.vars[name].shape
        return Value(shape, frozenset(taint))

    def _literal(self, literal: str) -> str:
        body = literal[3:-1] if literal.startswith("%x") else literal[1:-1]
        if literal[0] in '"`%':
            body = re.sub(
                r"#\{\s*(?:Dir\.home|ENV\[['\"]HOME['\"]\]|Dir\.home\(\))\s*\}", "~", body
            )
            body = re.sub(
                r"#\{\s*(@{0,2}\w+)\s*\}",
                lambda m: self.vars[m.group(1)].shape if m.group(1) in self.vars else UNKNOWN,
                body,
            )
            body = re.sub(r"#\{[^}]*\}", UNKNOWN, body)
        return body

    def _url_var(self, expr: str) -> str | None:
        for name in _NAME.findall(_STRING.sub(" ", expr)):
            held = self.vars.get(name)
            if held is not None and "://" in held.shape:
                return held.shape
        return None

    def _host(self, expr: str) -> str | None:
        for literal in _STRING.finditer(expr):
            host = url_host(self._literal(literal.group(0)))
            if host is not None:
                return host
        url = self._url_var(expr)
        if url is not None:
            return url_host(url)
        socket = re.search(r"TCPSocket\s*\.\s*(?:new|open)\(\s*['\"]([^'\"]+)['\"]", expr)
        return socket.group(1) if socket else None

    def _nested_shell(self, rhs: str, start: int, end: int) -> None:
        """``system("curl ... | sh")``, backquotes, ``%x(...)``: the command judged as shell."""
        for literal in _STRING.finditer(rhs):
            before = rhs[: literal.start()]
            if not (literal.group(0)[0] in "`%" or _SHELL_CALL.search(before)):
                continue
            command = self._literal(literal.group(0))
            found = ANALYSE["script"]("sh", command.replace(UNKNOWN, "x"), True)
            for hit in found[0] if found else ():
                self.verdicts.add(hit.code, start, end, **dict(hit.fields[1:]))

    def _writes(self, code: str, value: Value, start: int, end: int) -> None:
        write = _WRITE.search(code)
        if write is not None:
            args = _args(code, write.end() - 1)
            path = self._path(args[0]) if args else UNKNOWN
            handle = _HANDLE.search(code)
            if handle is not None:
                self.handles[handle.group(1)] = path
            if write.group(1) in ("write", "binwrite") and len(args) > 1:
                content = self.value(args[1], self.line(start))
                append = any(re.search(r"mode:\s*['\"]a", a) for a in args[2:])
                self.shell.write(path, content, append=append, start=start, end=end, command=code)
        for handle_name, path in list(self.handles.items()):
            writes = (
                rf"^\s*{re.escape(handle_name)}\s*(?:\.\s*(?:puts|write|print)\b|<<)\s*\(?(.*)$"
            )
            match = re.match(writes, code, re.S)
            if match:
                content = self.value(match.group(1), self.line(start))
                self.shell.write(path, content, append=True, start=start, end=end, command=code)

    def _path(self, expr: str) -> str:
        joined = _file_join(expr)
        if joined is not None:
            return joined
        expanded = re.match(r"\s*File\.expand_path\(\s*(.+?)\s*[,)]", expr)
        if expanded:
            expr = expanded.group(1)
        literal = _STRING.search(expr)
        if literal is not None and literal.start() == len(expr) - len(expr.lstrip()):
            return self._literal(literal.group(0))
        held = self.vars.get(expr.strip())
        return held.shape if held is not None else UNKNOWN

    def _reverse_shell(self) -> None:
        text = self.text
        socket = re.search(r"TCPSocket\s*\.\s*(?:new|open)\(\s*(['\"]?)([^,'\")]+)\1", text)
        if socket is None:
            return
        if not re.search(r"/bin/(?:ba|z)?sh|\bsh\s+-i|cmd\.exe|\bbash\b", text):
            return
        if not re.search(r"\b(?:exec|spawn|IO\.popen|system|Open3)\b", text):
            return
        host = socket.group(2).strip()
        if socket.group(1) == "" and host in self.vars:
            host = self.vars[host].shape
        if placeholder_host(host):
            return
        line_end = text.find("\n", socket.start())
        command = text[socket.start() : len(text) if line_end < 0 else line_end]
        self.verdicts.add("SD1025", socket.start(), socket.end(), host=host,
                          command=shorten(command))  # fmt: skip


def _file_join(expr: str) -> str | None:
    match = re.search(r"File\s*\.\s*join\(\s*(.+?)\)", expr)
    if match is None:
        return None
    parts = []
    for piece in match.group(1).split(","):
        part = piece.strip()
        if part in ("Dir.home", "Dir.home()", "ENV['HOME']", 'ENV["HOME"]', "Dir.home()"):
            parts.append("~")
        elif part[:1] in "'\"":
            parts.append(part[1:-1])
        else:
            parts.append(UNKNOWN)
    return "/".join(parts)


def _code_only(text: str) -> str:
    """``text`` with comments blanked (strings kept), the same length."""
    out = list(text)
    index = 0
    length = len(text)
    while index < length:
        char = text[index]
        if char in "\"'`":
            close = index + 1
            while close < length and text[close] != char:
                close += 2 if text[close] == "\\" else 1
            index = close + 1
            continue
        if char == "#" and not text.startswith("#{", index):
            line_end = text.find("\n", index)
            line_end = length if line_end < 0 else line_end
            out[index:line_end] = " " * (line_end - index)
            index = line_end
            continue
        if text.startswith("=begin", index) and (index == 0 or text[index - 1] == "\n"):
            close = text.find("\n=end", index)
            close = length if close < 0 else close + 5
            out[index:close] = ["\n" if c == "\n" else " " for c in text[index:close]]
            index = close
            continue
        index += 1
    return "".join(out)


_CONTINUES = re.compile(r"(?:[-+*/%&|^,(\[{\\.]|\|\||&&|=|\bdo|\bdo\s*\|[^|]*\|)\s*$")


def _statements(text: str) -> list[tuple[int, int]]:
    """Where each statement is: lines, joined where one continues the next; ``;`` splits."""
    code = _code_only(text)
    found: list[tuple[int, int]] = []
    start: int | None = None
    at = 0
    lines = code.split("\n")
    for index, line in enumerate(lines):
        following = lines[index + 1].lstrip() if index + 1 < len(lines) else ""
        if line.strip():
            if start is None:
                start = at + len(line) - len(line.lstrip())
            stripped = line.rstrip()
            opens = stripped.count("(") - stripped.count(")")
            if (
                not (_CONTINUES.search(stripped) and not stripped.endswith(("do", "|")))
                and not (following.startswith(".") or following.startswith("&."))
                and opens <= 0
            ):
                found += _split_semicolons(text, start, at + len(stripped))
                start = None
        at += len(line) + 1
    if start is not None:
        found += _split_semicolons(text, start, len(text))
    return found


def _split_semicolons(text: str, start: int, end: int) -> list[tuple[int, int]]:
    chunk = text[start:end]
    if ";" not in chunk:
        return [(start, end)]
    masked = _STRING.sub(lambda m: " " * len(m.group(0)), chunk)
    found = []
    at = 0
    for part in masked.split(";"):
        if part.strip():
            lead = len(part) - len(part.lstrip())
            found.append((start + at + lead, start + at + len(part.rstrip())))
        at += len(part) + 1
    return found


def ruby_hits(text: str, start: int, end: int) -> tuple[list[Hit], tuple[int, ...]]:
    """The SD1011-SD1013, SD1025, SD1026 and SD1053 hits of the Ruby code ``text[start:end]``
    (offsets into ``text``); it never fails to read (no parse errors)."""
    code = text[start:end]
    verdicts = Verdicts(Line(code))
    RubyAnalysis(code, verdicts).run()
    hits = [Hit(h.code, h.start + start, h.end + start, h.fields) for h in verdicts.hits]
    return hits, ()
