"""The prose the model reads in files that are not Markdown: comments and docstrings of
code, the text values of JSON and YAML files (a tool manifest's ``description``, a
``_comment`` field), and the comments of a frontmatter.

An agent reads a bundle's scripts and manifests as text before it runs them, and an MCP
tool's docstring or a manifest's ``description`` is handed to the model as the tool's
description: an instruction there steers it as one in the body does. Each function here
returns the file's text *masked*: the same length and the same lines, with everything
but that prose blanked, so the instruction grammar
(:func:`~skilldeck.engine.safety._instructions.instruction_hits`, with its negation,
quotation and teaching rules) runs on it unchanged and its offsets are the file's.
Comment marks and string quotes are blanked too: a comment is not a quotation.
"""

from __future__ import annotations

import io
import json
import re
import tokenize

#: The languages whose comments are ``#`` to the end of the line.
_HASH_COMMENTS = frozenset({"sh", "powershell", "ruby", "yaml", "toml", "config:make",
                            "config:just", "config:docker", "config:workflow"})  # fmt: skip


#: Files whose comments are ``//`` and ``/* */``.
_C_LIKE = (
    ".ts", ".tsx", ".mts", ".cts", ".go", ".rs", ".java", ".kt", ".kts", ".c", ".h", ".cc",
    ".cpp", ".hpp", ".cs", ".swift", ".php", ".scala", ".dart", ".groovy",
)  # fmt: skip
_TAG = re.compile(r"</?[A-Za-z][\w-]*>")


def code_prose(language: str | None, relative: str, text: str) -> str | None:
    """``text`` masked to the prose the model reads in it (see the module), or ``None``
    when the file holds no such prose the scan judges. Markup tags in it
    (``<IMPORTANT>``) are blanked: nothing renders them, the model reads through."""
    masked = _masked(language, relative, text)
    if masked is None or "<" not in masked:
        return masked
    return _TAG.sub(lambda m: " " * len(m.group(0)), masked)


def _masked(language: str | None, relative: str, text: str) -> str | None:
    lowered = relative.lower()
    if language == "python":
        return _python(text)
    if language == "javascript" or lowered.endswith(_C_LIKE):
        return _c_like(text)
    if lowered.endswith(".json") or language in ("config:vscode", "config:agent"):
        return _json(text)
    if lowered.endswith((".yml", ".yaml")):
        return _yaml(text)
    if language in _HASH_COMMENTS or lowered.endswith(
        (".rb", ".ps1", ".psm1", ".toml", ".ini", ".cfg", ".conf", ".r", ".pl", ".tf")
    ):
        return _hash_comments(text)
    return None


def _blank(text: str) -> list[str]:
    return ["\n" if char == "\n" else " " for char in text]


def _keep(out: list[str], text: str, start: int, end: int) -> None:
    out[start:end] = list(text[start:end])


def _python(text: str) -> str | None:
    """Comments, docstrings and the strings given as a ``description=`` / ``instructions=``
    keyword (an MCP tool's description), unquoted."""
    if "#" not in text and '"""' not in text and "'''" not in text and "description" not in text:
        return None
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)

    def offset(row: int, column: int) -> int:
        return starts[row - 1] + column if row - 1 < len(starts) else len(text)

    out = _blank(text)
    kept = False
    previous = tokenize.NEWLINE
    keyword = ""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    for token in tokens:
        kind = token.type
        if kind == tokenize.COMMENT:
            start = offset(*token.start) + 1
            _keep(out, text, start, offset(*token.end))
            kept = True
        elif kind == tokenize.STRING and (
            previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL)
            or keyword in ("description", "instructions", "prompt", "system_prompt")
        ):
            start, end = offset(*token.start), offset(*token.end)
            body = re.match(r"[rRbBuUfF]*(\"\"\"|'''|\"|')", text[start:end])
            quote = len(body.group(0)) if body else 0
            close = len(body.group(1)) if body else 0
            _keep(out, text, start + quote, end - close)
            kept = True
        if kind == tokenize.NAME:
            keyword = token.string
        elif kind == tokenize.OP and token.string in ("=", ":"):
            pass
        elif kind not in (tokenize.NL, tokenize.COMMENT):
            keyword = ""
        if kind not in (tokenize.NL, tokenize.COMMENT):
            previous = kind
    return "".join(out) if kept else None


_C_TOKEN = re.compile(
    r"//(?P<line>[^\n]*)|/\*(?P<block>.*?)(?:\*/|$)|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'"
    r"|`(?:\\.|[^`\\])*`",
    re.DOTALL,
)


def _c_like(text: str) -> str | None:
    """JavaScript and TypeScript comments (``//``, ``/* */``; strings skipped)."""
    if "//" not in text and "/*" not in text:
        return None
    out = _blank(text)
    kept = False
    for match in _C_TOKEN.finditer(text):
        for group in ("line", "block"):
            if match.group(group) is not None:
                _keep(out, text, match.start(group), match.end(group))
                kept = True
    if not kept:
        return None
    masked = "".join(out)
    # a JSDoc line's leading `*` is not prose
    return re.sub(r"(?m)^(\s*)\*(?=\s)", lambda m: m.group(1) + " ", masked)


_JSON_STRING = re.compile(r'"((?:\\.|[^"\\\n])*)"(\s*:)?')


def _json(text: str) -> str | None:
    """A JSON document's string values of more than two words (keys and short values
    left out), unquoted."""
    if " " not in text:
        return None
    out = _blank(text)
    kept = False
    for match in _JSON_STRING.finditer(text):
        if match.group(2) is not None:
            continue  # a key
        value = match.group(1)
        if value.count(" ") < 2:
            continue
        try:
            decoded = json.loads(f'"{value}"')
        except ValueError:
            continue
        if len(decoded) == len(value):
            _keep(out, text, match.start(1), match.end(1))
        else:  # escapes: spell the decoded text where it stands, padded to keep offsets
            piece = decoded[: len(value)].ljust(len(value))
            out[match.start(1) : match.end(1)] = list(piece.replace("\n", " "))
        kept = True
    return "".join(out) if kept else None


def _yaml(text: str) -> str | None:
    """A YAML file's comments and text values, unquoted (its keys left out)."""
    out = _blank(text)
    kept = False
    at = 0
    for line in text.split("\n"):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if stripped.startswith("#"):
            _keep(out, text, at + indent + 1, at + len(line))
            kept = True
        elif stripped:
            key = re.match(r"(?:-\s+)?[\w.\"'-]+\s*:(?:\s+|$)", stripped)
            start = indent + (key.end() if key else (2 if stripped.startswith("- ") else 0))
            value = line[start:]
            if value.count(" ") >= 2:
                _keep(out, text, at + start, at + len(line))
                for quote in ("'", '"'):
                    for index in range(at + start, at + len(line)):
                        if out[index] == quote:
                            out[index] = " "
                kept = True
        at += len(line) + 1
    return "".join(out) if kept else None


def _hash_comments(text: str) -> str | None:
    """``#`` comments (at a line's start, or after a space), the ``#!`` line left out."""
    if "#" not in text:
        return None
    out = _blank(text)
    kept = False
    at = 0
    for line in text.split("\n"):
        mark = line.find("#")
        while mark > 0 and line[mark - 1] not in " \t":
            mark = line.find("#", mark + 1)
        if mark >= 0 and not line.startswith("#!") and not line[mark:].startswith("#{"):
            _keep(out, text, at + mark + 1, at + len(line))
            kept = True
        at += len(line) + 1
    return "".join(out) if kept else None


def frontmatter_comments(head: str) -> str | None:
    """The comments of a frontmatter (``head``: the text up to the body), masked; a
    rendered view (GitHub's frontmatter table) shows none of them."""
    if "#" not in head:
        return None
    masked = _hash_comments(head)
    if masked is None or not masked.strip():
        return None
    return masked
