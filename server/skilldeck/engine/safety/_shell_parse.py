"""A tolerant parser of POSIX shell and bash, for the safety analysis of scripts.

It reads the shell command language (POSIX.1-2017 XCU 2, with bash's additions that
scripts use: ``[[ ]]``, ``$'...'``, ``<(...)``, ``&>``, ``|&``, arrays, ``function``):
lists, pipelines, simple commands with their assignments and redirections, compound
commands (subshells, brace groups, ``if``, ``while``/``until``, ``for``/``select``,
``case``, function definitions), and inside words the quoting and the expansions
(``$NAME``, ``${...}``, ``$(...)``, backquotes, arithmetic, here-documents), each part
with its offsets in the text. What it cannot make sense of it reads on as words and
counts in :attr:`ShellParser.errors` (an unterminated quote or substitution, a
compound command never closed): the caller then also runs the line patterns, so a
parse error never hides what they would find.

Why not a library: ``bashlex`` (PyPI 0.18, GPLv3+: cannot ship inside an MIT
extension) refused 114 of 143 real scripts and parsed 0.1 MB/s; tree-sitter-bash is
compiled, and the editor's bundled server must be pure Python with the same findings
(``docs/safety.md`` has the measurements).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Characters that end an unquoted word.
_META = frozenset(" \t\n|&;()<>")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME = _NAME_START | frozenset("0123456789")
_SPECIAL = frozenset("@*#?$!-0123456789")
_RESERVED_END = frozenset({"then", "elif", "else", "fi", "do", "done", "esac", "}", "in"})
_MAX_DEPTH = 60


@dataclass(slots=True)
class Var:
    """``$name`` / ``${name...}``; ``inner`` holds the parts of an operator's word
    (``${X:-$(cmd)}``)."""

    name: str
    start: int
    inner: list[Part] = field(default_factory=list)


@dataclass(slots=True)
class Sub:
    """A command substitution (``$(...)``, backquotes) or a process substitution
    (``<(...)``, ``>(...)``)."""

    body: Script
    kind: str
    start: int


Part = str | Var | Sub


@dataclass(slots=True)
class Word:
    """One word: its parts (literal text, expansions, substitutions) and offsets."""

    parts: list[Part]
    start: int
    end: int
    quoted: bool = False

    def literal(self) -> str | None:
        """The word's text when it holds no expansion."""
        if all(isinstance(part, str) for part in self.parts):
            return "".join(part for part in self.parts if isinstance(part, str))
        return None


@dataclass(slots=True)
class Redirect:
    """``[fd]op target``; a here-document's body is ``heredoc`` (its parts)."""

    fd: str
    op: str
    target: Word | None
    start: int
    heredoc: Word | None = None


@dataclass(slots=True)
class Simple:
    """A simple command: assignments, words, redirections."""

    assigns: list[tuple[str, Word]]
    words: list[Word]
    redirects: list[Redirect]
    start: int
    end: int


@dataclass(slots=True)
class Group:
    """A compound command (subshell, brace group, ``if``, loops, ``case``) as its body,
    in order; ``loop_var`` and ``items`` for ``for``/``select``."""

    body: Script
    redirects: list[Redirect]
    start: int
    end: int
    loop_var: str | None = None
    items: list[Word] = field(default_factory=list)


@dataclass(slots=True)
class FuncDef:
    """``name () compound`` or ``function name compound``."""

    name: str
    body: Group
    start: int
    end: int


Command = Simple | Group | FuncDef


@dataclass(slots=True)
class Pipeline:
    """Commands joined by ``|``; ``then`` is the operator after it (``;``, ``&&``, ...)."""

    commands: list[Command]
    start: int
    end: int


@dataclass(slots=True)
class Script:
    """A list of pipelines, in order."""

    pipelines: list[Pipeline]


@dataclass(slots=True)
class _Heredoc:
    delimiter: str
    strip_tabs: bool
    expand: bool
    redirect: Redirect


class ShellParser:
    """Parses ``text[start:end]``; :meth:`parse` returns the :class:`Script`."""

    def __init__(self, text: str, start: int = 0, end: int | None = None) -> None:
        self.text = text
        self.i = start
        self.end = len(text) if end is None else end
        #: Where each parse error was met (offsets).
        self.error_at: list[int] = []
        self._pending: list[_Heredoc] = []
        self._depth = 0

    @property
    def errors(self) -> int:
        """How many parse errors were met."""
        return len(self.error_at)

    def _error(self) -> None:
        self.error_at.append(self.i)

    def parse(self) -> Script:
        script = self._list(frozenset(), closer=None)
        while self.i < self.end:  # a stray closer: skip it and read on
            self._error()
            self.i += 1
            script.pipelines += self._list(frozenset(), closer=None).pipelines
        return script

    # --- lists and pipelines ------------------------------------------------------------

    def _peek(self, offset: int = 0) -> str:
        at = self.i + offset
        return self.text[at] if at < self.end else ""

    def _blank(self) -> None:
        text, end = self.text, self.end
        while self.i < end:
            char = text[self.i]
            if char in " \t\r":
                self.i += 1
            elif char == "\\" and self._peek(1) == "\n":
                self.i += 2
            elif char == "#":
                stop = text.find("\n", self.i, end)
                self.i = end if stop < 0 else stop
            else:
                return

    def _blank_lines(self) -> None:
        """Blanks and line breaks (each line break reads the here-documents it ends)."""
        self._blank()
        while self._peek() == "\n":
            self._newline()
            self._blank()

    def _newline(self) -> None:
        """Consume a newline and the here-document bodies that start after it."""
        self.i += 1
        pending, self._pending = self._pending, []
        for heredoc in pending:
            self._heredoc_body(heredoc)

    def _reserved(self) -> str | None:
        """The reserved word at the current position, if one is there."""
        text = self.text
        at = self.i
        if at >= self.end or text[at] not in _RESERVED_START:
            return None
        match = _BARE.match(text, at, self.end)
        stop = match.end() if match else at
        word = text[at:stop]
        if word in ("{", "}", "!", "[["):
            return word
        if word.isalpha() and word in _KEYWORDS and (stop >= self.end or text[stop] in _META):
            return word
        return None

    def _list(self, terms: frozenset[str], closer: str | None) -> Script:
        pipelines: list[Pipeline] = []
        self._depth += 1
        try:
            while True:
                self._blank()
                if self.i >= self.end:
                    if terms or closer:
                        self._error()
                    return Script(pipelines)
                char = self.text[self.i]
                if char == "\n":
                    self._newline()
                    continue
                if char in ";&|":
                    if (
                        closer is None
                        and terms == _CASE_ITEM_END
                        and self.text.startswith(";;", self.i)
                    ):
                        return Script(pipelines)
                    if char == ";" and self.text.startswith(";;", self.i) and "esac" in terms:
                        return Script(pipelines)
                    self.i += 1
                    continue
                if char == ")" and closer == ")":
                    return Script(pipelines)
                if char == "`" and closer == "`":
                    return Script(pipelines)
                if char == ")":
                    if "esac" in terms:
                        return Script(pipelines)
                    self._error()
                    self.i += 1
                    continue
                word = self._reserved()
                if word is not None and word in terms:
                    return Script(pipelines)
                if self._depth > _MAX_DEPTH:
                    self._error()
                    self.i = self.end
                    return Script(pipelines)
                pipeline = self._pipeline()
                if pipeline is None:
                    self._error()
                    self.i += 1
                    continue
                pipelines.append(pipeline)
        finally:
            self._depth -= 1

    def _pipeline(self) -> Pipeline | None:
        start = self.i
        commands: list[Command] = []
        while True:
            self._blank()
            if self._reserved() == "!":
                self.i += 1
                continue
            command = self._command()
            if command is None:
                break
            commands.append(command)
            self._blank()
            if self._peek() == "|" and self._peek(1) != "|":
                self.i += 2 if self._peek(1) == "&" else 1
                self._blank_lines()  # a pipe may be followed by line breaks
                continue
            break
        if not commands:
            return None
        return Pipeline(commands, start, self.i)

    # --- commands ---------------------------------------------------------------------

    def _command(self) -> Command | None:
        if self.i >= self.end:
            return None
        word = self._reserved()
        start = self.i
        if word in _COMPOUND or self._peek() == "(":
            group = self._compound(word)
            group.redirects += self._redirects()
            group.end = self.i
            return group
        if word == "function":
            self.i += len("function")
            self._blank()
            name_word = self._word()
            self._blank()
            if self.text.startswith("()", self.i):
                self.i += 2
            return self._function(name_word.literal() or "", start)
        if word is not None and word in _RESERVED_END:
            return None
        if word == "[[":
            return self._test_command(start)
        return self._simple(start)

    def _function(self, name: str, start: int) -> FuncDef:
        self._blank_lines()
        body = self._compound(self._reserved())
        body.redirects += self._redirects()
        body.end = self.i
        return FuncDef(name, body, start, self.i)

    def _compound(self, word: str | None) -> Group:
        start = self.i
        if self._peek() == "(":
            if self._peek(1) == "(":  # (( arithmetic ))
                self._skip_balanced("((", "))")
                return Group(Script([]), [], start, self.i)
            self.i += 1
            body = self._list(frozenset(), closer=")")
            if self._peek() == ")":
                self.i += 1
            return Group(body, [], start, self.i)
        if word is None or word not in _COMPOUND:
            self._error()
            return Group(Script([]), [], start, self.i)
        self.i += len(word)
        if word == "{":
            body = self._list(frozenset({"}"}), closer=None)
            self._expect("}")
            return Group(body, [], start, self.i)
        if word in ("while", "until"):
            body = self._list(frozenset({"do"}), closer=None)
            self._expect("do")
            body.pipelines += self._list(frozenset({"done"}), closer=None).pipelines
            self._expect("done")
            return Group(body, [], start, self.i)
        if word == "if":
            pipelines: list[Pipeline] = []
            while True:
                pipelines += self._list(frozenset({"then", "elif", "else", "fi"}), None).pipelines
                got = self._reserved()
                if got is None:
                    break
                self.i += len(got)
                if got == "fi":
                    break
            return Group(Script(pipelines), [], start, self.i)
        if word in ("for", "select"):
            return self._for(start)
        if word == "case":
            return self._case(start)
        return Group(Script([]), [], start, self.i)

    def _expect(self, word: str) -> None:
        self._blank()
        if self._reserved() == word:
            self.i += len(word)
        else:
            self._error()

    def _for(self, start: int) -> Group:
        self._blank()
        if self.text.startswith("((", self.i):
            self._skip_balanced("((", "))")
            name = None
            items: list[Word] = []
        else:
            name = self._word().literal()
            items = []
            self._blank_lines()
            if self._reserved() == "in":
                self.i += 2
                while True:
                    self._blank()
                    if self.i >= self.end or self.text[self.i] in ";\n&|()":
                        break
                    items.append(self._word())
        while True:
            self._blank()
            if self._peek() in (";", "\n"):
                if self._peek() == "\n":
                    self._newline()
                else:
                    self.i += 1
                continue
            break
        if self._reserved() == "do":
            self.i += 2
            body = self._list(frozenset({"done"}), closer=None)
            self._expect("done")
        elif self._reserved() == "{":
            self.i += 1
            body = self._list(frozenset({"}"}), closer=None)
            self._expect("}")
        else:
            self._error()
            body = Script([])
        return Group(body, [], start, self.i, loop_var=name, items=items)

    def _case(self, start: int) -> Group:
        self._blank()
        subject = self._word()
        self._blank_lines()
        if self._reserved() == "in":
            self.i += 2
        pipelines: list[Pipeline] = []
        while True:
            self._blank()
            if self.i >= self.end:
                self._error()
                break
            char = self.text[self.i]
            if char == "\n":
                self._newline()
                continue
            if self._reserved() == "esac":
                self.i += 4
                break
            if char == "(":
                self.i += 1
            while self.i < self.end:  # the patterns: words joined by |
                self._blank()
                char = self._peek()
                if char in (")", "\n", ""):
                    break
                if char in "|(":
                    self.i += 1
                else:
                    self._word()
            if self._peek() == ")":
                self.i += 1
            pipelines += self._list(_CASE_ITEM_END, closer=None).pipelines
            self._blank()
            for ender in (";;&", ";;", ";&"):
                if self.text.startswith(ender, self.i):
                    self.i += len(ender)
                    break
        group = Group(Script(pipelines), [], start, self.i)
        group.items = [subject]
        return group

    def _test_command(self, start: int) -> Simple:
        words: list[Word] = []
        self.i += 2
        words.append(Word(["[["], start, self.i))
        while self.i < self.end:
            self._blank()
            if self.text.startswith("]]", self.i):
                self.i += 2
                words.append(Word(["]]"], self.i - 2, self.i))
                break
            if self._peek() == "\n":
                self._newline()
                continue
            if self._peek() in "&|()<>;":
                self.i += 1
                continue
            words.append(self._word())
        return Simple([], words, self._redirects(), start, self.i)

    def _simple(self, start: int) -> Simple | None:
        assigns: list[tuple[str, Word]] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        while True:
            self._blank()
            if self.i >= self.end:
                break
            char = self.text[self.i]
            redirect = self._redirect()
            if redirect is not None:
                redirects.append(redirect)
                continue
            if char in _META and not (char in "<>" and self._peek(1) == "("):
                if char == "(" and words and not assigns and len(words) == 1:
                    # name () compound: a function definition
                    self._skip_balanced("(", ")")
                    name = words[0].literal() or ""
                    return self._function(name, start)  # type: ignore[return-value]
                break
            if not words:
                assign = self._assignment()
                if assign is not None:
                    assigns.append(assign)
                    continue
            words.append(self._word())
        if not (assigns or words or redirects):
            return None
        return Simple(assigns, words, redirects, start, self.i)

    def _assignment(self) -> tuple[str, Word] | None:
        text, at = self.text, self.i
        if at >= self.end or text[at] not in _NAME_START:
            return None
        stop = at + 1
        while stop < self.end and text[stop] in _NAME:
            stop += 1
        if text.startswith("[", stop):  # a[i]=...
            close = text.find("]", stop, self.end)
            if close < 0:
                return None
            stop = close + 1
        if text.startswith("+=", stop):
            value_at = stop + 2
        elif text.startswith("=", stop):
            value_at = stop + 1
        else:
            return None
        name = text[at:stop].split("[", 1)[0]
        self.i = value_at
        if self._peek() == "(":  # an array: name=(a b c)
            self.i += 1
            parts: list[Part] = []
            begin = self.i
            while self.i < self.end and self._peek() != ")":
                self._blank()
                if self._peek() == "\n":
                    self._newline()
                    continue
                if self._peek() == ")":
                    break
                item = self._word()
                if item.end == item.start:
                    self.i += 1
                    continue
                parts += [*item.parts, " "]
            if self._peek() == ")":
                self.i += 1
            return name, Word(parts[:-1], begin, self.i)
        if self.i >= self.end or text[self.i] in _META:
            return name, Word([], self.i, self.i)
        return name, self._word()

    # --- redirections and here-documents ----------------------------------------------

    def _redirect(self) -> Redirect | None:
        text, at = self.text, self.i
        if at >= self.end or text[at] not in _REDIRECT_START:
            return None
        stop = at
        while stop < self.end and text[stop].isdigit():
            stop += 1
        fd = text[at:stop]
        op = ""
        for candidate in ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"):
            if text.startswith(candidate, stop):
                op = candidate
                break
        if not op or (fd and op.startswith("&")):
            return None
        if op in ("<", ">") and text.startswith("(", stop + 1):
            return None  # a process substitution
        self.i = stop + len(op)
        self._blank()
        if op in ("<<", "<<-"):
            delimiter = self._word()
            raw = text[delimiter.start : delimiter.end]
            redirect = Redirect(fd, op, delimiter, at)
            self._pending.append(
                _Heredoc(
                    (delimiter.literal() or raw).strip(),
                    op == "<<-",
                    not any(q in raw for q in "'\"\\"),
                    redirect,
                )
            )
            return redirect
        if self.i >= self.end or (text[self.i] in _META and text[self.i] not in "<>"):
            self._error()
            return Redirect(fd, op, None, at)
        return Redirect(fd, op, self._word(), at)

    def _redirects(self) -> list[Redirect]:
        found: list[Redirect] = []
        while True:
            self._blank()
            redirect = self._redirect()
            if redirect is None:
                return found
            found.append(redirect)

    def _heredoc_body(self, heredoc: _Heredoc) -> None:
        text = self.text
        begin = self.i
        at = begin
        while at < self.end:
            stop = text.find("\n", at, self.end)
            line_end = self.end if stop < 0 else stop
            line = text[at:line_end]
            if (line.lstrip("\t") if heredoc.strip_tabs else line).rstrip(
                "\r"
            ) == heredoc.delimiter:
                body_end = at
                self.i = line_end
                break
            at = line_end + 1
        else:
            self._error()
            body_end = self.end
            self.i = self.end
        parts: list[Part] = (
            self._parts_until(begin, body_end) if heredoc.expand else [text[begin:body_end]]
        )
        heredoc.redirect.heredoc = Word(parts, begin, body_end, quoted=True)

    def _parts_until(self, begin: int, stop: int) -> list[Part]:
        """The parts of ``text[begin:stop]`` read as the inside of double quotes."""
        saved = self.i, self.end
        self.i, self.end = begin, stop
        parts: list[Part] = []
        buffer: list[str] = []
        while self.i < self.end:
            char = self.text[self.i]
            if char == "\\" and self.i + 1 < self.end and self.text[self.i + 1] in "$`\\\n":
                if self.text[self.i + 1] != "\n":
                    buffer.append(self.text[self.i + 1])
                self.i += 2
            elif char in "$`":
                expansion = self._expansion()
                if isinstance(expansion, str):
                    buffer.append(expansion)
                else:
                    if buffer:
                        parts.append("".join(buffer))
                        buffer = []
                    parts.append(expansion)
            else:
                buffer.append(char)
                self.i += 1
        if buffer:
            parts.append("".join(buffer))
        self.i, self.end = saved
        return parts

    # --- words ------------------------------------------------------------------------

    def _word(self) -> Word:
        text = self.text
        start = self.i
        parts: list[Part] = []
        buffer: list[str] = []
        quoted = False

        def flush() -> None:
            if buffer:
                parts.append("".join(buffer))
                buffer.clear()

        if self.i < self.end and text[self.i] in "<>" and self._peek(1) == "(":
            kind = text[self.i : self.i + 2]
            self.i += 2
            body = self._list(frozenset(), closer=")")
            if self._peek() == ")":
                self.i += 1
            parts.append(Sub(body, kind, start))
        while self.i < self.end:
            char = text[self.i]
            if char in _META:
                break
            if char == "\\":
                if self._peek(1) == "\n":
                    self.i += 2
                    continue
                buffer.append(self._peek(1))
                self.i += 2
                quoted = True
            elif char == "'":
                quoted = True
                close = text.find("'", self.i + 1, self.end)
                if close < 0:
                    self._error()
                    close = self.end
                buffer.append(text[self.i + 1 : close])
                self.i = close + 1
            elif char == '"':
                quoted = True
                self.i += 1
                inner = self._double_quoted()
                for part in inner:
                    if isinstance(part, str):
                        buffer.append(part)
                    else:
                        flush()
                        parts.append(part)
            elif char == "$" and self._peek(1) == "'":
                quoted = True
                buffer.append(self._ansi_c())
            elif char in "$`":
                expansion = self._expansion()
                if isinstance(expansion, str):
                    buffer.append(expansion)
                else:
                    flush()
                    parts.append(expansion)
            else:
                match = _PLAIN.match(text, self.i, self.end)
                if match is not None:
                    buffer.append(match.group())
                    self.i = match.end()
                else:
                    buffer.append(char)
                    self.i += 1
        flush()
        if self.i == start and self.i < self.end:  # never stand still
            self.i += 1
            parts.append(text[start])
        return Word(parts, start, self.i, quoted)

    def _double_quoted(self) -> list[Part]:
        text = self.text
        parts: list[Part] = []
        buffer: list[str] = []
        while True:
            if self.i >= self.end:
                self._error()
                break
            char = text[self.i]
            if char == '"':
                self.i += 1
                break
            if char == "\\" and self._peek(1) in ('"', "$", "`", "\\", "\n"):
                if self._peek(1) != "\n":
                    buffer.append(self._peek(1))
                self.i += 2
            elif char in "$`":
                expansion = self._expansion()
                if isinstance(expansion, str):
                    buffer.append(expansion)
                else:
                    if buffer:
                        parts.append("".join(buffer))
                        buffer = []
                    parts.append(expansion)
            else:
                match = _QUOTED_PLAIN.match(text, self.i, self.end)
                if match is not None:
                    buffer.append(match.group())
                    self.i = match.end()
                else:
                    buffer.append(char)
                    self.i += 1
        if buffer:
            parts.append("".join(buffer))
        return parts

    def _ansi_c(self) -> str:
        """``$'...'``, its escapes decoded (``$'\\x63url'`` is ``curl``)."""
        text = self.text
        self.i += 2
        out: list[str] = []
        while self.i < self.end and text[self.i] != "'":
            char = text[self.i]
            if char != "\\" or self.i + 1 >= self.end:
                out.append(char)
                self.i += 1
                continue
            code = text[self.i + 1]
            self.i += 2
            simple = {
                "n": "\n",
                "t": "\t",
                "r": "\r",
                "a": "\a",
                "b": "\b",
                "e": "\x1b",
                "E": "\x1b",
                "f": "\f",
                "v": "\v",
                "\\": "\\",
                "'": "'",
                '"': '"',
                "?": "?",
            }
            if code in simple:
                out.append(simple[code])
            elif code in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[code]
                digits = ""
                while len(digits) < width and self.i < self.end and text[self.i] in _HEX:
                    digits += text[self.i]
                    self.i += 1
                out.append(chr(min(int(digits, 16), 0x10FFFF)) if digits else "\\" + code)
            elif code in "01234567":
                digits = code
                while len(digits) < 3 and self.i < self.end and text[self.i] in "01234567":
                    digits += text[self.i]
                    self.i += 1
                out.append(chr(int(digits, 8)))
            else:
                out.append("\\" + code)
        if self.i >= self.end:
            self._error()
        self.i += 1
        return "".join(out)

    def _expansion(self) -> Part:
        """``$...`` or a backquoted substitution at the current position."""
        text = self.text
        start = self.i
        if text[self.i] == "`":
            close = self.i + 1
            while close < self.end and text[close] != "`":
                close += 2 if text[close] == "\\" else 1
            if close >= self.end:
                self._error()
                close = self.end
            nested = ShellParser(text, self.i + 1, close)
            nested._depth = self._depth + 1
            body = nested.parse() if nested._depth < _MAX_DEPTH else Script([])
            self.error_at += nested.error_at
            self.i = min(close + 1, self.end)
            return Sub(body, "`", start)
        nxt = self._peek(1)
        if nxt == "(":
            if self._peek(2) == "(":
                self._skip_balanced("$((", "))")
                return Var("((arithmetic))", start)
            self.i += 2
            body = self._list(frozenset(), closer=")")
            if self._peek() == ")":
                self.i += 1
            else:
                self._error()
            return Sub(body, "$(", start)
        if nxt == "{":
            self.i += 2
            name_start = self.i
            while self.i < self.end and (text[self.i] in _NAME or text[self.i] in "!#@*?"):
                self.i += 1
                if text[self.i - 1] in "@*?" or (
                    text[self.i - 1].isdigit() and self.i - 1 == name_start
                ):
                    break
            name = text[name_start : self.i].lstrip("!#") or text[name_start : self.i]
            inner: list[Part] = []
            depth = 1
            buffer: list[str] = []
            while self.i < self.end:
                char = text[self.i]
                if char == "}":
                    depth -= 1
                    if depth == 0:
                        self.i += 1
                        break
                if char == "{":
                    depth += 1
                if char == "\\":
                    buffer.append(text[self.i : self.i + 2])
                    self.i += 2
                    continue
                if char in "$`":
                    part = self._expansion()
                    if isinstance(part, str):
                        buffer.append(part)
                    else:
                        inner.append(part)
                    continue
                if char in "'\"":
                    inner += self._word_in_braces()
                    continue
                buffer.append(char)
                self.i += 1
            else:
                self._error()
            if buffer:
                inner.insert(0, "".join(buffer))
            return Var(name, start, inner)
        if nxt and nxt in _NAME_START:
            stop = self.i + 1
            while stop < self.end and text[stop] in _NAME:
                stop += 1
            self.i = stop
            return Var(text[start + 1 : stop], start)
        if nxt and nxt in _SPECIAL:
            self.i += 2
            return Var(nxt, start)
        self.i += 1
        return "$"

    def _word_in_braces(self) -> list[Part]:
        char = self.text[self.i]
        if char == "'":
            close = self.text.find("'", self.i + 1, self.end)
            close = self.end if close < 0 else close
            value = self.text[self.i + 1 : close]
            self.i = min(close + 1, self.end)
            return [value]
        self.i += 1
        return self._double_quoted()

    def _skip_balanced(self, opener: str, closer: str) -> None:
        self.i += len(opener)
        depth = 1
        while self.i < self.end and depth:
            if self.text.startswith(closer, self.i) and depth == 1:
                self.i += len(closer)
                return
            char = self.text[self.i]
            depth += char == "("
            depth -= char == ")"
            self.i += 1
        if depth:
            self._error()


_HEX = frozenset("0123456789abcdefABCDEF")
_REDIRECT_START = frozenset("0123456789<>&")
_RESERVED_START = frozenset("{}![iftdwuecsf")
_BARE = re.compile(r"[^ \t\n|&;()<>\"'`$\\]+")
#: A run of characters that stand for themselves in a word / inside double quotes.
_PLAIN = re.compile(r"[^ \t\n|&;()<>\\'\"$`]+")
_QUOTED_PLAIN = re.compile(r"[^\"\\$`]+")
_COMPOUND = frozenset({"{", "if", "while", "until", "for", "select", "case"})
_KEYWORDS = _COMPOUND | _RESERVED_END | frozenset({"function", "!"})
_CASE_ITEM_END = frozenset({"esac"})


def parse_shell(text: str, start: int = 0, end: int | None = None) -> tuple[Script, int]:
    """The :class:`Script` of ``text[start:end]`` and how many parse errors it met."""
    parser = ShellParser(text, start, end)
    try:
        script = parser.parse()
    except RecursionError:  # pragma: no cover - bounded by _MAX_DEPTH
        return Script([]), parser.errors + 1
    return script, parser.errors
