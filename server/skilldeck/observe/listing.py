"""The skills listing a host sent to its model, read from one recorded request.

Each host writes its listing in its own format (observed in the releases named in
``docs/hosts.md``, "Host lab"):

- ``codex``: ``<skills_instructions>`` with a "Skill roots" table (`` `r0` = `/path` ``) and
  one line per skill, ``- name: description (file: r0/name/SKILL.md)``;
- ``claude``: "The following skills are available for use with the Skill tool:" and one
  line per skill, ``- name: description`` (``- folder (name): ...`` where they differ);
- ``xml``: ``<available_skills>`` with ``<skill><name/><description/><location/></skill>``
  elements (Gemini CLI, OpenCode, GitHub Copilot CLI);
- ``kimi``: "## Available skills" with ``### Project`` / ``### User`` / ``### Built-in``
  sections of ``- name: description`` and ``  Path: ...`` lines.

Entries are kept as sent: names as shown, descriptions as sent (XML escapes included),
paths as shown. A description that runs over several lines is kept with its line breaks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

Format = Literal["codex", "claude", "xml", "kimi"]

#: Where a format's listing starts (a regular expression over one text of the request).
MARKERS: dict[Format, str] = {
    "codex": r"<skills_instructions>",
    "claude": r"The following skills are available for use with the Skill tool:",
    "xml": r"<available_skills>\s*(?:<skill>|</available_skills>)",
    "kimi": r"## Available skills\n",
}


@dataclass(frozen=True)
class ListedEntry:
    """One entry of a listing, as sent."""

    name: str
    #: ``None``: the entry shows the name only.
    description: str | None
    #: The location the entry shows (a file, a short path, a scope word), if any.
    path: str | None
    #: The section the entry is listed under (Kimi Code's ``### Project``), if any.
    scope: str | None
    #: The entry's text exactly as sent.
    raw: str


@dataclass(frozen=True)
class Listing:
    """A host's skills listing: the text before its first entry (``header``), the entries
    in order, the text after the last one (``footer``) and, for Codex, the skill roots
    table (alias, folder)."""

    header: str
    entries: tuple[ListedEntry, ...]
    footer: str
    roots: tuple[tuple[str, str], ...] = ()


class NoListing(ValueError):
    """The request holds no listing in the expected format."""


def texts_of(body: str) -> Iterator[str]:
    """Every string of a request body (a JSON document), depth first; the body itself
    when it is not JSON."""
    try:
        document = json.loads(body)
    except ValueError:
        yield body
        return
    stack: list[object] = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))


def has_listing(body: str, fmt: Format) -> bool:
    """Whether the request body holds a listing of format ``fmt``."""
    pattern = re.compile(MARKERS[fmt])
    return any(pattern.search(text) for text in texts_of(body))


def read_listing(body: str, fmt: Format) -> Listing:
    """The listing in a request body (``NoListing`` when there is none)."""
    pattern = re.compile(MARKERS[fmt])
    for text in texts_of(body):
        match = pattern.search(text)
        if match is not None:
            return _READERS[fmt](text, match.start())
    raise NoListing(f"no {fmt} skills listing in the request")


def _entries_by_line(lines: list[str], starts: str = "- ") -> list[list[str]]:
    """Lines grouped into entries: an entry starts at a line beginning with ``starts``;
    the lines after it up to the next entry are its continuation."""
    groups: list[list[str]] = []
    for line in lines:
        if line.startswith(starts) or not groups:
            groups.append([line])
        else:
            groups[-1].append(line)
    return groups


_CODEX_ENTRY = re.compile(r"- (?P<name>.*?)(?:: (?P<text>.*))? \(file: (?P<path>[^()]*)\)\Z", re.S)
_CODEX_ROOT = re.compile(r"- `(?P<alias>[^`]+)` = `(?P<path>[^`]*)`")


def _codex(text: str, start: int) -> Listing:
    end_tag = "</skills_instructions>"
    end = text.find(end_tag, start)
    block = text[start : end + len(end_tag)] if end >= 0 else text[start:]
    lines = block.split("\n")
    roots: list[tuple[str, str]] = []
    header: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        root = _CODEX_ROOT.fullmatch(line)
        if root is not None:
            roots.append((root.group("alias"), root.group("path")))
            if not header or header[-1] != "{roots}":
                header.append("{roots}")
        elif line.startswith("- "):
            break
        else:
            header.append(line)
        index += 1
    body: list[str] = []
    while index < len(lines) and not lines[index].startswith(("#", "<")):
        body.append(lines[index])
        index += 1
    entries = []
    for group in _entries_by_line(body):
        raw = "\n".join(group)
        match = _CODEX_ENTRY.match(raw)
        if match is None:
            entries.append(ListedEntry(raw[2:], None, None, None, raw))
        else:
            entries.append(ListedEntry(match["name"], match["text"], match["path"], None, raw))
    return Listing("\n".join(header) + "\n", tuple(entries), "\n".join(lines[index:]), tuple(roots))


_CLAUDE_END = "\n\nToday's date is"


def _claude(text: str, start: int) -> Listing:
    end = text.rfind(_CLAUDE_END)
    block = text[start:end] if end > start else text[start:]
    first = block.find("\n- ")
    if first < 0:
        return Listing(block, (), "")
    header, rest = block[: first + 1], block[first + 1 :]
    entries = []
    for group in _entries_by_line(rest.split("\n")):
        raw = "\n".join(group).rstrip("\n")
        name, sep, description = raw[2:].partition(": ")
        entries.append(ListedEntry(name, description if sep else None, None, None, raw))
    footer = _CLAUDE_END.lstrip("\n") if end > start else ""
    return Listing(header, tuple(entries), footer)


_XML_SKILL = re.compile(r"<skill>(.*?)</skill>", re.S)


def _xml_field(element: str, tag: str) -> str | None:
    match = re.search(rf"<{tag}>(.*?)</{tag}>", element, re.S)
    return match.group(1) if match is not None else None


def _lines_before(text: str, start: int, most: int = 6) -> list[str]:
    """The lines just before ``start`` that introduce the listing: back to a blank line or
    a closing tag (the end of the section before), at most ``most`` of them."""
    lines = text[:start].split("\n")[:-1]
    kept: list[str] = []
    while lines and not lines[-1].strip():
        kept.append(lines.pop() + "\n")
    for line in reversed(lines[-most:]):
        if not line.strip() or line.lstrip().startswith("</"):
            break
        kept.append(line + "\n")
    return kept[::-1]


def _xml(text: str, start: int) -> Listing:
    end_tag = "</available_skills>"
    end = text.find(end_tag, start)
    block = text[start:end] if end >= 0 else text[start:]
    header = "".join(_lines_before(text, start)) + "<available_skills>\n"
    entries = []
    for match in _XML_SKILL.finditer(block):
        element = match.group(1)
        entries.append(
            ListedEntry(
                _xml_field(element, "name") or "",
                _xml_field(element, "description"),
                _xml_field(element, "location"),
                None,
                match.group(0),
            )
        )
    return Listing(header, tuple(entries), end_tag if end >= 0 else "")


_KIMI_SCOPE = re.compile(r"### (?P<scope>.+)")
_KIMI_PATH = "  Path: "


def _kimi(text: str, start: int) -> Listing:
    block = text[start:]
    following = re.search(r"\n#{1,2} ", block[3:])
    if following is not None:
        block = block[: following.start() + 3]
    lines = block.split("\n")
    index = 0
    header: list[str] = []
    while index < len(lines) and not _KIMI_SCOPE.fullmatch(lines[index]):
        header.append(lines[index])
        index += 1
    entries: list[ListedEntry] = []
    scope: str | None = None
    body: list[str] = []

    def flush() -> None:
        for group in _entries_by_line(body):
            if not group or not group[0].startswith("- "):
                continue
            while group and not group[-1]:
                group.pop()
            path: str | None = None
            if group and group[-1].startswith(_KIMI_PATH):
                path = group.pop()[len(_KIMI_PATH) :]
            raw = "\n".join(group)
            name, sep, description = raw[2:].partition(": ")
            full_raw = raw + (f"\n{_KIMI_PATH}{path}" if path is not None else "")
            entries.append(ListedEntry(name, description if sep else None, path, scope, full_raw))
        body.clear()

    for line in lines[index:]:
        heading = _KIMI_SCOPE.fullmatch(line)
        if heading is not None:
            flush()
            scope = heading.group("scope")
        else:
            body.append(line)
    flush()
    return Listing("\n".join(header) + "\n", tuple(entries), "")


_READERS = {"codex": _codex, "claude": _claude, "xml": _xml, "kimi": _kimi}
