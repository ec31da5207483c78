"""How a host writes its skill listing, as text: the whitespace it keeps, where it cuts
an entry and with which ellipsis, what it escapes, and each entry exactly as sent (the
formats observed by the host lab, ``docs/hosts.md``).

Pure functions over strings: the view (:mod:`skilldeck.engine.host_views`) decides what
is listed; this module writes it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from skilldeck.engine.hosts._table import Host
from skilldeck.engine.text import collapse_whitespace

_BREAKS = re.compile(r"[\t\r\n]+")
#: What a Codex listing says before its skill roots table (observed, 0.171.0).
CODEX_INTRO = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
CLAUDE_INTRO = "The following skills are available for use with the Skill tool:"
KIMI_INTRO = "## Available skills"


@dataclass(frozen=True)
class Written:
    """One entry of a listing, ready to write: the name as shown, the text it shows
    (``None``: the name alone), the location it shows, and its section (Kimi Code's
    ``Project`` / ``User``)."""

    name: str
    text: str | None
    location: str | None = None
    section: str | None = None


def shape(host: Host, text: str) -> str:
    """``text`` with the whitespace ``host``'s listing keeps (``CatalogRules.whitespace``)."""
    how = host.catalog.whitespace
    if how == "collapse":
        return collapse_whitespace(text)
    if how == "breaks":
        return _BREAKS.sub(" ", text).strip()
    if how == "trim":
        return text.strip()
    return text


def cut(host: Host, text: str, cap: int | None = None) -> str:
    """``text`` cut to the host's per-entry cap (or ``cap``), the ellipsis included."""
    limit = cap if cap is not None else host.catalog.entry_cap
    if limit is None or len(text) <= limit:
        return text
    ellipsis = host.catalog.ellipsis
    return text[: max(limit - len(ellipsis), 0)] + ellipsis


def escaped(host: Host, text: str) -> str:
    """``text`` as the host escapes it in its listing."""
    how = host.catalog.escape
    if how == "angle":
        return text.replace("<", "&lt;").replace(">", "&gt;")
    if how == "xml":
        return (
            text.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
            .replace("'", "&apos;")
        )
    return text


def entry_text(host: Host, entry: Written) -> str:
    """One entry exactly as ``host`` writes it (no line break after it)."""
    rules = host.catalog
    text = escaped(host, entry.text) if entry.text is not None else None
    name = escaped(host, entry.name) if rules.escape == "xml" else entry.name
    if rules.format == "codex":
        shown = f" {text}" if text else ""
        return f"- {name}:{shown} (file: {entry.location})"
    if rules.format == "xml":
        outer = "" if rules.escape == "xml" else "  "
        inner = outer + "  "
        return (
            f"{outer}<skill>\n{inner}<name>{name}</name>\n"
            f"{inner}<description>{text or ''}</description>\n"
            f"{inner}<location>{entry.location or ''}</location>\n{outer}</skill>"
        )
    line = f"- {name}" + (f": {text}" if text is not None else "")
    if rules.format == "kimi" and entry.location is not None:
        line += f"\n  Path: {entry.location}"
    return line


def listing_text(
    host: Host, entries: Sequence[Written], roots: Sequence[tuple[str, str]] = ()
) -> str:
    """The whole listing as ``host`` sends it to its model, as far as it is observed:
    the opening line(s), Codex's skill roots table, the entries (Kimi Code: under their
    sections). The prose hosts add after the listing (how to use a skill) is not
    reproduced."""
    rules = host.catalog
    written = [entry_text(host, entry) for entry in entries]
    if rules.format == "codex":
        lines = ["<skills_instructions>", "## Skills", CODEX_INTRO]
        if roots:
            lines.append("### Skill roots")
            lines.extend(f"- `{alias}` = `{path}`" for alias, path in roots)
        lines.append("### Available skills")
        lines.extend(written)
        lines.append("</skills_instructions>")
        return "\n".join(lines) + "\n"
    if rules.format == "claude":
        return CLAUDE_INTRO + "\n\n" + "\n".join(written) + "\n"
    if rules.format == "xml":
        return "<available_skills>\n" + "".join(f"{w}\n" for w in written) + "</available_skills>\n"
    if rules.format == "kimi":
        out = [KIMI_INTRO, ""]
        section: str | None = None
        for entry, text in zip(entries, written, strict=True):
            if entry.section != section:
                section = entry.section
                out.append(f"### {section}")
            out.append(text)
        return "\n".join(out) + "\n"
    return "".join(f"{w}\n" for w in written)


def codex_roots_text(roots: Sequence[tuple[str, str]]) -> str:
    """Codex's skill roots table as it counts against the budget."""
    return "### Skill roots\n" + "".join(f"- `{alias}` = `{path}`\n" for alias, path in roots)


def claude_label(folder: str, display: str | None, first_with_display: bool) -> str:
    """Claude Code's name of an entry: the folder, with the frontmatter name beside it
    (``folder (name)``) where the two differ, the name is made of letters, digits,
    ``_``, ``:``, ``.`` and ``-`` (256 at most), and no entry before it shows that name
    (``first_with_display``)."""
    if (
        display is None
        or display == folder
        or folder.endswith(f":{display}")
        or len(display) > 256
        or not first_with_display
        or re.fullmatch(r"[\w:.-]+", display) is None
    ):
        return folder
    return f"{folder} ({display})"
