"""A profile key's documentation as Markdown, shared by completion and hover.

Everything shown comes from :class:`~skilldeck.engine.rules.KeyInfo`; nothing about
a key is written here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from lsprotocol import types

from skilldeck.engine.rules import KeyInfo, Profile


def key_detail(info: KeyInfo) -> str:
    """One line: type, default and whether it is required (completion ``detail``)."""
    parts = [info.value_type]
    if info.required:
        parts.append("required")
    if info.default is not None:
        parts.append(f"default {info.default}")
    if not info.enforced:
        parts.append("not enforced")
    return " · ".join(parts)


def key_markdown(info: KeyInfo, profile: Profile, profile_source: str | None = None) -> str:
    """The full documentation of ``info`` under ``profile``.

    ``profile_source`` says where the profile setting came from (hover: ``default``,
    ``from `skilldeck.toml```...); completion leaves it out.
    """
    facts = [f"Type: {info.value_type}"]
    if info.values:
        facts.append("Values: " + ", ".join(f"`{value}`" for value in info.values))
    if info.default is not None:
        facts.append(f"Default: `{info.default}`")
    facts.append(f"Controls: {info.surface}")
    facts.append(
        "Enforced by skilldeck: " + ("yes" if info.enforced else "no (accepted, not acted on)")
    )
    if info.required:
        facts.append("Required")
    source = f" ({profile_source})" if profile_source is not None else ""
    facts.append(f"Profile: `{profile.name}`{source}")
    return f"**`{info.key}`**\n\n{info.documentation}\n\n" + "  \n".join(facts)


def unknown_key_markdown(key: str, profile: Profile) -> str:
    """What hover says about a key the profile does not document."""
    if profile.closed:
        return (
            f"**`{key}`** is not a key of the `{profile.name}` profile; "
            "vendor keys belong under `metadata`."
        )
    return (
        f"**`{key}`** is not documented by the `{profile.name}` profile; "
        "skilldeck keeps it as written and does not act on it."
    )


def markup(value: str, formats: Sequence[types.MarkupKind | str] | None) -> types.MarkupContent:
    """The Markdown ``value`` as Markdown when the client lists it in ``formats``, else
    turned into plain text (:func:`plain_text`): a client that does not list Markdown
    shows the text as it comes (eglot 1.9's completion documentation, its hover without
    markdown-mode), where ``**`` and backticks would be noise."""
    kinds = {f.value if isinstance(f, types.MarkupKind) else f for f in formats or ()}
    if "markdown" in kinds:
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=value)
    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=plain_text(value))


def documentation(
    value: str, formats: Sequence[types.MarkupKind | str] | None
) -> types.MarkupContent | str:
    """A completion item's documentation: :func:`markup` for a client that lists formats,
    plain text as a bare string for one that lists none (a string is plain text to every
    client; ``MarkupContent`` would name a kind it never said it takes)."""
    if not formats:
        return plain_text(value)
    return markup(value, formats)


_FENCE = re.compile(r"^(`{3,}|~{3,})")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"(`+)(.+?)\1")
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")


@functools.lru_cache(maxsize=256)
def plain_text(markdown: str) -> str:
    """The Markdown this server writes, as plain text: code fences dropped (their lines
    indented four spaces), the marks of strong text and inline code removed, ``[text](url)``
    as ``text (url)`` (``text`` alone when it is the URL), hard breaks and escapes
    resolved. What is inside a fence stays as written. Kept for the texts asked for again
    (a completion list's key documentation is the same at every keystroke)."""
    lines: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        opening = _FENCE.match(line)
        if fence is not None:
            if opening is not None and line.strip() == fence:
                fence = None
                continue
            lines.append("    " + line if line else line)
            continue
        if opening is not None:
            fence = opening.group(1)
            continue
        lines.append(_plain_line(line))
    return "\n".join(lines)


def _plain_line(line: str) -> str:
    if line.endswith("  "):
        line = line.rstrip(" ")
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(match.group(2).strip() if match.group(1) != "`" else match.group(2))
        return f"\x00{len(codes) - 1}\x00"

    line = _CODE.sub(keep_code, line)
    line = _LINK.sub(
        lambda m: m.group(1) if m.group(1) == m.group(2) else f"{m.group(1)} ({m.group(2)})", line
    )
    line = _STRONG.sub(r"\1", line)
    line = _ESCAPED.sub(r"\1", line)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], line)
