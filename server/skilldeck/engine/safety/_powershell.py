"""What a PowerShell script does with secrets, downloads and decoded payloads, read at the
level of its tokens (no pure-Python PowerShell parser exists: ``tree-sitter-powershell``
is compiled; ``docs/safety.md``).

The tokenizer follows PowerShell's lexical rules (about_Parsing, about_Quoting_Rules):
single- and double-quoted strings and here-strings (with ``$var``, ``${...}``,
``$env:NAME`` and ``$(...)`` inside double quotes), backtick escapes, ``#`` and ``<# #>``
comments, variables, ``-Parameters``, operators. Statements are split at line breaks
and ``;`` outside brackets and braces, pipelines at ``|``. Each pipeline element is a
command (cmdlets the analysis knows; any other command goes to the shell analysis with
its arguments, so ``npm config set`` or ``curl`` mean the same) or an expression whose
calls are recognised by name (``(New-Object Net.WebClient).DownloadString(...)``,
``[Convert]::FromBase64String(...)``, ``[ScriptBlock]::Create(...)``). ``$x = ...``
assignments carry shapes and labels from statement to statement.

What a token-level reading misses: script blocks run later (their statements are read
in place), functions called with arguments, splatting, and anything built by
``-join``/``-f`` beyond string pieces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from skilldeck.engine.safety._flow import (
    CLEAN,
    UNKNOWN,
    Label,
    Line,
    Taint,
    Verdicts,
    placeholder_host,
    sensitive_path,
    token_label,
    url_host,
)
from skilldeck.engine.safety._hits import Hit, shorten
from skilldeck.engine.safety._shell import ShellAnalysis, Value, installed_does
from skilldeck.engine.safety._shell_parse import Simple


@dataclass(frozen=True, slots=True)
class Token:
    """``kind``: ``word``, ``param``, ``var``, ``str``, ``op``, ``nl``, ``num``."""

    kind: str
    text: str
    start: int
    end: int
    #: a string's pieces: literal text or a variable / subexpression's source
    pieces: tuple[tuple[str, str], ...] = ()


_OPS = (
    "::",
    "+=",
    "-=",
    "|",
    ";",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    "=",
    ".",
    "&",
    "@(",
    "@{",
    "+",
    "!",
    ">>",
    ">",
    "<",
)


def tokenize(text: str) -> tuple[list[Token], int]:
    """The tokens of ``text`` and the number of lexical errors (an unterminated string
    or comment)."""
    tokens: list[Token] = []
    errors = 0
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char in " \t\r\f":
            i += 1
        elif char == "`" and i + 1 < n and text[i + 1] in "\r\n":
            i += 2
        elif char == "\n":
            tokens.append(Token("nl", "\n", i, i + 1))
            i += 1
        elif char == "#":
            stop = text.find("\n", i)
            i = n if stop < 0 else stop
        elif text.startswith("<#", i):
            stop = text.find("#>", i + 2)
            if stop < 0:
                errors += 1
                i = n
            else:
                i = stop + 2
        elif text.startswith(('@"', "@'"), i) and text[i + 2 : i + 3] in ("\n", "\r"):
            quote = text[i + 1]
            close = re.compile(rf"^{quote}@", re.MULTILINE).search(text, i + 3)
            stop = close.start() if close else n
            errors += close is None
            body = text[i + 3 : stop].lstrip("\r\n")
            pieces = _expandable(body) if quote == '"' else ((body, ""),)
            tokens.append(Token("str", body, i, close.end() if close else n, pieces))
            i = close.end() if close else n
        elif char in "'\u2018\u2019":
            j = i + 1
            out: list[str] = []
            while j < n:
                if text[j] in "'\u2018\u2019":
                    if j + 1 < n and text[j + 1] in "'\u2018\u2019":
                        out.append("'")
                        j += 2
                        continue
                    break
                out.append(text[j])
                j += 1
            errors += j >= n
            value = "".join(out)
            tokens.append(Token("str", value, i, min(j + 1, n), ((value, ""),)))
            i = j + 1
        elif char in '"\u201c\u201d':
            j = i + 1
            while j < n and text[j] not in '"\u201c\u201d':
                if text[j] == "`":
                    j += 2
                    continue
                if text.startswith("$(", j):
                    j = _balanced(text, j + 1)
                    continue
                j += 1
            errors += j >= n
            body = text[i + 1 : min(j, n)]
            tokens.append(Token("str", body, i, min(j + 1, n), _expandable(body)))
            i = j + 1
        elif char == "$":
            if text.startswith("${", i):
                stop = text.find("}", i)
                stop = n if stop < 0 else stop + 1
            elif text.startswith("$(", i):
                stop = _balanced(text, i + 1)
                tokens.append(Token("sub", text[i + 2 : stop - 1], i, stop))
                i = stop
                continue
            else:
                match = re.compile(r"\$(?:[\w]+:)?[\w?^$]+").match(text, i)
                stop = match.end() if match else i + 1
            tokens.append(Token("var", text[i:stop], i, stop))
            i = stop
        elif (
            char == "-"
            and i + 1 < n
            and (text[i + 1].isalpha() or text[i + 1] == "-")
            and (not tokens or tokens[-1].end < i or tokens[-1].kind in ("op", "nl"))
        ):
            match = re.compile(r"-{1,2}[\w-]+(?::)?").match(text, i)
            stop = match.end() if match else i + 1
            tokens.append(Token("param", text[i:stop].rstrip(":"), i, stop))
            i = stop
        elif char.isdigit():
            match = re.compile(r"\d[\w.]*").match(text, i)
            stop = match.end() if match else i + 1
            tokens.append(Token("num", text[i:stop], i, stop))
            i = stop
        else:
            op = next((o for o in _OPS if text.startswith(o, i)), None)
            if op is not None and not (op == "." and i + 1 < n and (text[i + 1] in "/\\")):
                tokens.append(Token("op", op, i, i + len(op)))
                i += len(op)
                continue
            match = re.compile(r"[^\s|;(){}\[\],=`'\"$#]+").match(text, i)
            stop = match.end() if match and match.end() > i else i + 1
            word = text[i:stop]
            if "." in word and not re.match(r"^[\w\\/:~-]*[\\/]|^\w+\.\w+$|^\.", word):
                head, _dot, _rest = word.partition(".")
                if head:
                    stop = i + len(head)
                    word = head
            tokens.append(Token("word", word, i, stop))
            i = stop
    return tokens, errors


def _balanced(text: str, at: int) -> int:
    """The end (exclusive) of the parenthesised text opening at ``text[at] == "("``."""
    depth = 0
    i = at
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _expandable(body: str) -> tuple[tuple[str, str], ...]:
    """A double-quoted string's pieces: ``("text", "")`` and ``("", "$var")``."""
    pieces: list[tuple[str, str]] = []
    buffer: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char == "`" and i + 1 < len(body):
            buffer.append({"n": "\n", "t": "\t", "0": "\0"}.get(body[i + 1], body[i + 1]))
            i += 2
            continue
        if char == "$":
            if body.startswith("$(", i):
                stop = _balanced(body, i + 1)
            elif body.startswith("${", i):
                stop = body.find("}", i)
                stop = len(body) if stop < 0 else stop + 1
            else:
                match = re.compile(r"\$(?:[\w]+:)?\w+").match(body, i)
                stop = match.end() if match else i + 1
            if stop > i + 1:
                if buffer:
                    pieces.append(("".join(buffer), ""))
                    buffer = []
                pieces.append(("", body[i:stop]))
                i = stop
                continue
        buffer.append(char)
        i += 1
    if buffer:
        pieces.append(("".join(buffer), ""))
    return tuple(pieces)


def _union(taints: Iterable[Taint]) -> Taint:
    out: set[Label] = set()
    for taint in taints:
        out |= taint
    return frozenset(out)


_DOWNLOAD = frozenset(
    {"invoke-webrequest", "iwr", "invoke-restmethod", "irm", "wget", "curl", "start-bitstransfer"}
)
_EXEC = frozenset({"invoke-expression", "iex"})
_READ = frozenset(
    {
        "get-content",
        "gc",
        "cat",
        "type",
        "get-item",
        "gi",
        "copy-item",
        "cp",
        "copy",
        "compress-archive",
        "import-csv",
        "import-clixml",
    }
)
_WRITE = frozenset({"set-content", "sc", "add-content", "ac", "out-file", "tee-object", "tee"})
_ENV_DUMP = re.compile(r"^(?:get-childitem|gci|ls|dir|get-item|gi)$")
_PROFILE = re.compile(r"\$profile|microsoft\.powershell_profile\.ps1|profile\.ps1", re.IGNORECASE)
_RUN_KEY = re.compile(r"currentversion\\run(?:once)?\b", re.IGNORECASE)


class PowerShellAnalysis:
    """Runs a script's statements over values (token level), reporting to ``verdicts``."""

    def __init__(self, text: str, verdicts: Verdicts) -> None:
        self.text = text
        self.verdicts = verdicts
        self.line = verdicts.line_of
        self.vars: dict[str, Value] = {}
        self.shell = ShellAnalysis(text, verdicts, nested=1)
        self.tcp_hosts: list[str] = []
        self.runs_code = False
        self.streams = False

    def run(self, tokens: list[Token]) -> None:
        for statement in _statements(tokens):
            self.statement(statement)
        if self.tcp_hosts and self.runs_code and self.streams:
            host = next((h for h in self.tcp_hosts if not placeholder_host(h)), None)
            if host is not None:
                self.verdicts.add(
                    "SD1025", 0, min(200, len(self.text)), host=host, command=shorten(self.text)
                )

    def statement(self, tokens: list[Token]) -> None:
        target: str | None = None
        member: list[str] = []
        append = False
        if len(tokens) > 2 and tokens[0].kind == "var":
            index = 1
            while (
                index + 1 < len(tokens)
                and tokens[index].text == "."
                and tokens[index + 1].kind == "word"
            ):
                member.append(tokens[index + 1].text)
                index += 2
            if index < len(tokens) and tokens[index].text in ("=", "+="):
                target = tokens[0].text.strip("${}").lower()
                append = tokens[index].text == "+="
                tokens = tokens[index + 1 :]
        value = self.pipeline(tokens)
        if tokens:
            source = self.text[tokens[0].start : tokens[-1].end]
            spelled = _char_codes(source)
            if spelled is None and "+" in source and _CONCAT.match(source):
                value = Value("".join(re.findall(r"""['"]([^'"]*)['"]""", source)), value.taint)
            if spelled is not None:
                line = self.line(tokens[0].start)
                value = Value(spelled, value.taint | {Label("decode", "character codes", line)})
        if target is not None:
            start, end = tokens[0].start if tokens else 0, tokens[-1].end if tokens else 0
            if member:
                self.verdicts.safeguards(
                    f'"{member[-1]}": "{value.shape}"', start, end, command=self.text[start:end]
                )
            if member:
                old = self.vars.get(target, Value(UNKNOWN))
                self.vars[target] = Value(old.shape, old.taint | value.taint)
            elif append and target in self.vars:
                old = self.vars[target]
                self.vars[target] = Value(old.shape + value.shape, old.taint | value.taint)
            else:
                self.vars[target] = value

    def pipeline(self, tokens: list[Token]) -> Value:
        data = Value("")
        elements = _split(tokens, "|")
        for index, element in enumerate(elements):
            if element:
                data = self.element(element, data, elements, index)
        return data

    def element(
        self, tokens: list[Token], stdin: Value, elements: list[list[Token]], index: int
    ) -> Value:
        start, end = tokens[0].start, tokens[-1].end
        text = self.text[start:end]
        line = self.line(start)
        lowered = text.lower()
        call = tokens[1:] if tokens[0].text in ("&", ".") else tokens
        head = call[0] if call else tokens[0]
        name = head.text.lower() if head.kind == "word" else ""
        values = self.values(call[1:] if name else tokens)
        taint = _union(v.taint for v in values)
        params = self._params(call[1:]) if name else {}

        if (
            name
            and name.rsplit("\\", 1)[-1]
            in (
                "powershell",
                "powershell.exe",
                "pwsh",
                "pwsh.exe",
            )
            and any(
                re.fullmatch(
                    r"-(?:e|ec|en|enc|enco|encod|encode|encodedcommand)", p.text, re.IGNORECASE
                )
                for p in call
                if p.kind == "param"
            )
        ):
            self.verdicts.add("SD1012", start, end, command=shorten(text))
            return Value(UNKNOWN)
        # --- sources ---
        if (
            _ENV_DUMP.match(name)
            and re.search(r"\benv:\s*(?:\\|$|\*)?", lowered)
            and not re.search(r"env:\\?\w", lowered.split(name, 1)[1].replace("env:*", ""))
        ):
            return Value(UNKNOWN, frozenset({Label("env", "the whole environment", line)}))
        if "getenvironmentvariables" in lowered:
            return Value(UNKNOWN, frozenset({Label("env", "the whole environment", line)}))
        if name in ("get-storedcredential", "get-secret", "cmdkey") or "passwordvault" in lowered:
            return Value(UNKNOWN, frozenset({Label("secret", "the credential store", line)}))
        # --- runs ---
        if name in _EXEC or re.search(
            r"\[scriptblock\]::create|\.invokescript\(|invoke-command"
            r"\s+-scriptblock\s+\(\[scriptblock\]",
            lowered,
        ):
            self.runs_code = True
            code = _union([taint, stdin.taint])
            fed = elements[index - 1] if index and name in _EXEC else None
            s = elements[0][0].start if fed else start
            self.verdicts.execute(
                code | self._expr_taint(tokens, line), s, end, command=self.text[s:end]
            )
            return Value(UNKNOWN)
        invoked = _invoked(text, self.vars)
        if invoked is not None and invoked.strip("'\" ").lower() in _EXEC:
            # `& $x $payload` with `$x = "I" + "E" + "X"`, `.( 'ie' + 'x') $payload`
            self.runs_code = True
            rest = self.values(tokens[2:]) if head.kind in ("var", "str", "word") else values
            code = _union([*(v.taint for v in rest), stdin.taint, self._expr_taint(tokens, line)])
            self.verdicts.execute(code, start, end, command=text)
            if "decode" not in {label.kind for label in code}:
                self.verdicts.add("SD1012", start, end, command=shorten(text))
            return Value(UNKNOWN)
        if tokens[0].text in ("&", ".") and head.kind in ("var", "str", "word") and not name:
            value = self.values([head])[0]
            held = self.shell.state.files.get(_norm(value.shape))
            self.verdicts.execute(
                value.taint | (held.taint if held else CLEAN), start, end, command=text
            )
            return Value(UNKNOWN)
        if name in ("start-process", "saps", "start"):
            target = params.get("-filepath") or (values[0] if values else Value(UNKNOWN))
            held = self.shell.state.files.get(_norm(target.shape))
            self.verdicts.execute(
                target.taint | (held.taint if held else CLEAN), start, end, command=text
            )
            arguments = params.get("-argumentlist")
            if arguments is not None and re.search(
                r"-e(?:nc|ncodedcommand)?\s", arguments.shape, re.IGNORECASE
            ):
                self.verdicts.add("SD1012", start, end, command=shorten(text))
            return Value(UNKNOWN)
        # --- downloads and sends ---
        if name in _DOWNLOAD:
            url = params.get("-uri") or next((v for v in values if "://" in v.shape), None)
            url = url or (values[0] if values else Value(UNKNOWN))
            data = _union(
                [
                    (params.get("-body") or Value("")).taint,
                    (params.get("-headers") or Value("")).taint,
                    url.taint,
                    self._read_taint(params.get("-infile"), line),
                    stdin.taint
                    if params.get("-method") and params["-method"].shape.lower() in ("post", "put")
                    else CLEAN,
                ]
            )
            self.verdicts.send(
                data, start, end, command=text, host=url_host(url.shape), url=url.shape
            )
            label = Label("download", shorten(url.shape, 80), line)
            out = params.get("-outfile") or params.get("-destination")
            if out is not None:
                self.shell.write(
                    out.shape,
                    Value(UNKNOWN, frozenset({label})),
                    append=False,
                    start=start,
                    end=end,
                    command=text,
                )
                return Value("")
            return Value(UNKNOWN, frozenset({label}))
        if name in ("send-mailmessage",):
            server = params.get("-smtpserver")
            data = _union(
                [
                    self._read_taint(params.get("-attachments"), line),
                    (params.get("-body") or Value("")).taint,
                    stdin.taint,
                ]
            )
            self.verdicts.send(
                data, start, end, command=text, host=server.shape if server else None
            )
            return Value("")
        if name in ("resolve-dnsname", "nslookup", "test-connection", "ping"):
            for token in call[1:]:
                if (
                    token.kind == "str"
                    and token.pieces
                    and token.pieces[-1][1] == ""
                    and any(p[1] for p in token.pieces[:-1])
                ):
                    domain = token.pieces[-1][0].lstrip(".")
                    value = self.values([token])[0]
                    if "." in domain and not self.verdicts.send(
                        value.taint, start, end, command=text, host=domain, how="dns"
                    ):
                        self.verdicts.add(
                            "SD1028", start, end, domain=domain, command=shorten(text)
                        )
            return Value(UNKNOWN)
        # --- reads and writes ---
        if name in _READ:
            path = (
                params.get("-path")
                or params.get("-literalpath")
                or (values[0] if values else Value(UNKNOWN))
            )
            read = self._read_taint(path, line)
            if name in ("copy-item", "cp", "copy", "compress-archive"):
                dest = (
                    params.get("-destination")
                    or params.get("-destinationpath")
                    or (values[1] if len(values) > 1 else None)
                )
                if dest is not None:
                    self.shell.state.files[_norm(dest.shape)] = Value(UNKNOWN, read)
                return Value("")
            held = self.shell.state.files.get(_norm(path.shape))
            return Value(held.shape if held else UNKNOWN, read)
        if name in _WRITE or (name == "out-file"):
            path = (
                params.get("-path")
                or params.get("-filepath")
                or params.get("-literalpath")
                or (values[0] if values else Value(UNKNOWN))
            )
            content = params.get("-value") or (
                values[1] if len(values) > 1 and not params else None
            )
            content = content or stdin
            self._write(
                path.shape,
                content,
                name in ("add-content", "ac") or "-append" in params,
                start,
                end,
                text,
            )
            return Value("")
        if name in ("set-itemproperty", "new-itemproperty", "sp") or (
            name == "reg" and values and values[0].shape.lower() == "add"
        ):
            if _RUN_KEY.search(text):
                content = (
                    params.get("-value")
                    or params.get("/d")
                    or Value(" ".join(v.shape for v in values))
                )
                self._installed("a registry Run key", content, start, end, text)
            return Value("")
        if name in ("register-scheduledtask", "new-scheduledtaskaction", "schtasks"):
            content = Value(" ".join(v.shape for v in values), taint)
            self._installed("a scheduled task", content, start, end, text)
            return Value("")
        if name in (
            "convertto-json",
            "convertfrom-json",
            "out-string",
            "select-object",
            "where-object",
            "foreach-object",
            "%",
            "?",
            "sort-object",
            "format-list",
            "write-output",
            "echo",
            "write-host",
        ):
            shape = stdin.shape if name in ("convertto-json", "out-string") else UNKNOWN
            return Value(shape, stdin.taint | taint)
        if (
            name
            and not name.startswith(("$", "["))
            and head.kind == "word"
            and not re.match(r"^[a-z]+-[a-z]+$", name)
            and not any(t.text in ("::", "(") for t in call[:2])
        ):
            # a program: the shell analysis knows it (npm, curl.exe, nc, ...)
            fake = Simple([], [], [], start, end)
            words = [Value(head.text.removesuffix(".exe")), *values]
            return self.shell._dispatch(fake, words, stdin, text)
        # --- expressions ---
        return Value(_expr_shape(values), _union([taint, self._expr_taint(tokens, line)]))

    def _expr_taint(self, tokens: list[Token], line: int) -> Taint:
        """Labels from the calls of an expression: downloads, decodes, sockets, sends."""
        text = self.text[tokens[0].start : tokens[-1].end] if tokens else ""
        lowered = text.lower()
        taint: set[Label] = set()
        start, end = (tokens[0].start, tokens[-1].end) if tokens else (0, 0)
        strings = [t for t in tokens if t.kind in ("str", "var", "sub")]
        args = self.values(strings)
        urls = [a for a in args if "://" in a.shape]
        if re.search(r"\.download(?:string|data)\s*\(", lowered):
            taint.add(Label("download", shorten(urls[0].shape if urls else UNKNOWN, 80), line))
        if ".downloadfile(" in lowered and len(args) >= 2:
            label = Label("download", shorten(args[0].shape, 80), line)
            self.shell.write(
                args[1].shape,
                Value(UNKNOWN, frozenset({label})),
                append=False,
                start=start,
                end=end,
                command=text,
            )
        if re.search(r"\.upload(?:string|file|data|values)\s*\(", lowered):
            data = _union(a.taint for a in args[1:])
            if ".uploadfile(" in lowered and len(args) >= 2:
                data |= self._read_taint(args[1], line)
            self.verdicts.send(
                data, start, end, command=text, host=url_host(args[0].shape) if args else None
            )
        if re.search(r"frombase64string|\[convert\]::frombase64|-encodedcommand", lowered):
            taint.add(Label("decode", "FromBase64String", line))
        if re.search(r"net\.sockets\.tcpclient", lowered) and args:
            self.tcp_hosts.append(args[0].shape)
        if ".getstream(" in lowered:
            self.streams = True
        if "getenvironmentvariables" in lowered:
            taint.add(Label("env", "the whole environment", line))
        for token in tokens:
            if token.kind == "sub":
                inner, _errors = tokenize(token.text)
                for statement in _statements(inner):
                    taint |= self.pipeline(statement).taint
        return frozenset(taint)

    def _installed(self, place: str, content: Value, start: int, end: int, text: str) -> None:
        does = installed_does(content.shape)
        if any(label.kind == "download" for label in content.taint):
            does.append("runs a download")
        if does:
            what = f"installs {place} that " + (
                does[0] if len(does) == 1 else ", ".join(does[:-1]) + " and " + does[-1]
            )
            self.verdicts.add("SD1026", start, end, what=what, command=shorten(text))

    def _write(  # noqa: PLR0917 - the call's parts
        self, path: str, content: Value, append: bool, start: int, end: int, text: str
    ) -> None:
        if _PROFILE.search(path):
            path = "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1"
        self.shell.write(path, content, append=append, start=start, end=end, command=text)

    def _read_taint(self, value: Value | None, line: int) -> Taint:
        if value is None:
            return CLEAN
        label = sensitive_path(value.shape.replace("\\", "/"), line)
        held = self.shell.state.files.get(_norm(value.shape))
        taint = value.taint | (held.taint if held else CLEAN)
        return taint | {label} if label is not None else taint

    def values(self, tokens: list[Token]) -> list[Value]:
        """Each argument's value (parameter names kept as words; a parenthesised group
        evaluated as one value)."""
        out: list[Value] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token.kind == "op" and token.text in ("(", "@("):
                stop = _closing(tokens, index)
                inner = tokens[index + 1 : stop]
                taint = _union(self.pipeline(s).taint for s in _statements(inner))
                out.append(
                    Value(
                        UNKNOWN,
                        taint | self._expr_taint(inner, self.line(token.start)) if inner else taint,
                    )
                )
                index = stop + 1
                continue
            out.append(self._value(token))
            index += 1
        return out

    def _value(self, token: Token) -> Value:
        if token.kind == "str":
            return self._string(token)
        if token.kind == "var":
            return self._var(token.text)
        if token.kind == "sub":
            inner, _errors = tokenize(token.text)
            return Value(UNKNOWN, _union(self.pipeline(s).taint for s in _statements(inner)))
        return Value(token.text)

    def _params(self, tokens: list[Token]) -> dict[str, Value]:
        """``-Name value`` pairs of a command, values resolved."""
        found: dict[str, Value] = {}
        for index, token in enumerate(tokens):
            if token.kind != "param":
                continue
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            key = token.text.lower()
            if (
                following is None
                or following.kind in ("param", "nl")
                or (following.kind == "op" and following.text not in ("(", "@("))
            ):
                found[key] = Value("True")
            elif following.kind == "op":
                stop = _closing(tokens, index + 1)
                found[key] = self.values(tokens[index + 1 : stop + 1])[0]
            else:
                found[key] = self._value(following)
        return found

    def _string(self, token: Token) -> Value:
        shapes: list[str] = []
        taint: Taint = CLEAN
        for literal, reference in token.pieces:
            if not reference:
                shapes.append(literal)
                continue
            if reference.startswith("$("):
                inner, _errors = tokenize(reference[2:-1])
                inner_taint = _union(self.pipeline(s).taint for s in _statements(inner))
                shapes.append(UNKNOWN)
                taint |= inner_taint
                continue
            value = self._var(reference)
            shapes.append(value.shape)
            taint |= value.taint
        return Value("".join(shapes), taint)

    def _var(self, text: str) -> Value:
        name = text.strip("${}").lower()
        if name.startswith("env:"):
            variable = text.strip("${}")[4:]
            if variable.upper() in ("USERPROFILE", "HOME", "HOMEPATH"):
                return Value("~")
            if variable.upper() in ("APPDATA",):
                return Value("~/AppData/Roaming")
            if variable.upper() in ("LOCALAPPDATA",):
                return Value("~/AppData/Local")
            label = token_label(variable, 0)
            return Value(UNKNOWN, frozenset({label}) if label else CLEAN)
        if name == "home":
            return Value("~")
        if name == "profile":
            return Value("$PROFILE")
        return self.vars.get(name, Value(UNKNOWN))


_CHAR_ARRAY = re.compile(
    r"\[char\[\]\]\s*\(\s*((?:0x[0-9a-f]+|\d+)(?:\s*,\s*(?:0x[0-9a-f]+|\d+))*)\s*\)",
    re.IGNORECASE,
)
_CHAR_ONE = re.compile(r"\[char\]\s*\(?\s*(0x[0-9a-f]+|\d+)\s*\)?", re.IGNORECASE)


def _char_codes(text: str) -> str | None:
    """The text an expression spells from character codes (``[char[]](73,69,88) -join ''``,
    ``[char]73 + [char]69``), or ``None`` when it spells none."""
    if "[char" not in text.lower():
        return None
    found = _CHAR_ARRAY.search(text)
    try:
        if found is not None:
            return "".join(chr(int(n.strip(), 0)) for n in found.group(1).split(","))
        singles = _CHAR_ONE.findall(text)
        if len(singles) > 1:
            return "".join(chr(int(n, 0)) for n in singles)
    except (ValueError, OverflowError):
        return None
    return None


_CONCAT = re.compile(r"""^\s*(?:(['"])[^'"]*\1\s*\+?\s*)+$""")


def _invoked(text: str, variables: dict[str, Value]) -> str | None:
    """The command name a call operator invokes when the name is built (``& $x``, ``.(
    'ie' + 'x')``, ``&([char[]](73,69,88) -join '')``), else ``None``."""
    match = re.match(r"^[&.]\s*(?:\((.*?)\)|(\$[\w:{}]+))", text, re.DOTALL)
    if match is None:
        return None
    if match.group(2):
        value = variables.get(match.group(2).strip("${}").lower())
        return value.shape if value is not None else None
    inner = match.group(1)
    spelled = _char_codes(inner)
    if spelled is not None:
        return spelled
    if _CONCAT.match(inner):
        return "".join(re.findall(r"""['"]([^'"]*)['"]""", inner))
    return None


def _norm(shape: str) -> str:
    from skilldeck.engine.safety._shell import norm_path  # noqa: PLC0415

    return norm_path(shape.replace("\\", "/"))


def _expr_shape(values: list[Value]) -> str:
    return values[0].shape if len(values) == 1 else UNKNOWN


def _closing(tokens: list[Token], at: int) -> int:
    """The index of the token closing the bracket at ``tokens[at]``."""
    depth = 0
    for index in range(at, len(tokens)):
        token = tokens[index]
        if token.kind == "op" and token.text in ("(", "@(", "{", "@{", "["):
            depth += 1
        elif token.kind == "op" and token.text in (")", "}", "]"):
            depth -= 1
            if depth == 0:
                return index
    return len(tokens) - 1


def _split(tokens: list[Token], separator: str) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        if token.kind == "op" and token.text in ("(", "{", "[", "@(", "@{"):
            depth += 1
        elif token.kind == "op" and token.text in (")", "}", "]"):
            depth -= 1
        if token.kind == "op" and token.text == separator and depth <= 0:
            parts.append([])
            continue
        parts[-1].append(token)
    return parts


def _statements(tokens: list[Token]) -> list[list[Token]]:
    """Statements at line breaks and ``;`` outside parentheses; braces open blocks whose
    statements are read in place."""
    statements: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        if token.kind == "op" and token.text in ("(", "[", "@("):
            depth += 1
        elif token.kind == "op" and token.text in (")", "]"):
            depth = max(0, depth - 1)
        if depth == 0 and (
            token.kind == "nl" or (token.kind == "op" and token.text in (";", "{", "}", "@{"))
        ):
            if statements[-1]:
                statements.append([])
            continue
        statements[-1].append(token)
    return [s for s in statements if s]


def powershell_hits(
    text: str, start: int = 0, end: int | None = None
) -> tuple[list[Hit], tuple[int, ...]]:
    """The hits of the PowerShell code ``text[start:end]`` (offsets into ``text``), and
    its lexical error count."""
    end = len(text) if end is None else end
    code = text[start:end]
    tokens, errors = tokenize(code)
    verdicts = Verdicts(Line(code))
    analysis = PowerShellAnalysis(code, verdicts)
    analysis.run(tokens)
    hits = verdicts.hits
    if start:
        hits = [Hit(h.code, h.start + start, h.end + start, h.fields) for h in hits]
    return hits, (start,) * min(errors, 1)
