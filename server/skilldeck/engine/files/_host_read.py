"""How one host reads one skill file: the frontmatter it finds, the YAML it accepts or
repairs, the name and description it takes (or makes from the body), and whether it
offers the skill to its model at all.

The host's habits are data (:class:`~skilldeck.engine.hosts.Reading`, observed by the host
lab); this module applies them to a file. The YAML itself is read by the engine's own
reader (:func:`~skilldeck.engine.frontmatter.parse_frontmatter`); a host's repair is a
second reading of rewritten YAML, as the host does it.

Both front ends of a host's reading use it: the per-host view (``host_views``: what a host
lists, ``list --host``) and the host profiles' findings (``check --profile codex``,
:mod:`skilldeck.engine.files._host_reading`), so the two never disagree on whether a host
loads a file.

Invariant: reading a file never writes it, and every refusal names the host.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from skilldeck.engine.files._skill_read import SkillReadError, decode_skill_bytes, read_skill_bytes
from skilldeck.engine.frontmatter import (
    FrontmatterEntry,
    LineIndex,
    find_frontmatter,
    parse_frontmatter,
)
from skilldeck.engine.hosts import Host, Reading
from skilldeck.engine.registry import is_skill_name

_BOM = b"\xef\xbb\xbf"
_KEY_LINE = re.compile(r"^([A-Za-z0-9_-]+):[ \t]+(\S.*?)[ \t]*$")
_OPENCODE_KEY_LINE = re.compile(r"^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$")
_TAB_KEY = re.compile(r"^\t+(?=[A-Za-z0-9_-]+[ \t]*:)", re.MULTILINE)
_NAME_LINE = re.compile(r"^\s*name:\s*(.*)$")
_DESCRIPTION_LINE = re.compile(r"^\s*description:\s*(.*)$")
_CONTINUATION = re.compile(r"^[ \t]+\S")
_HEADING = re.compile(r"^#+\s*")
_COMMENT = re.compile(r"[ \t]+#.*\Z")


@dataclass(frozen=True)
class HostRead:
    """What a host makes of one skill file (``refusal``: why it does not load it).

    ``name`` is the name the host keys the skill by and lists; ``display`` the
    frontmatter name a host shows beside it (Claude Code: ``folder (name)``);
    ``description`` the text as the host holds it, before its listing shapes the
    whitespace; ``extra`` the text it adds after it (``when_to_use``); ``unlisted``:
    why a loaded skill is not offered to the model (``None``: it is). ``repaired``: the
    YAML loaded only after the host's repair; ``fallback``: the description was made
    from the body. ``name_only``: the host's settings list it without its text (Claude
    Code's ``skillOverrides``: set by the view, not by the file)."""

    refusal: str | None
    name: str = ""
    display: str | None = None
    description: str = ""
    extra: str | None = None
    unlisted: str | None = None
    repaired: bool = False
    fallback: bool = False
    name_only: bool = False


@dataclass(frozen=True)
class _Yaml:
    """A frontmatter as a host read it: its keys (``None``: it found none it can use),
    the document its spans point into, the raw YAML text, the body, why it is unusable,
    and whether the host's repair was needed."""

    entries: Mapping[str, FrontmatterEntry] | None
    document: str
    yaml: str | None
    body: str
    problem: str | None = None
    repaired: bool = False


def read_text(path: str) -> tuple[str, bool] | str:
    """The file's text and whether it starts with a UTF-8 byte order mark, or why it
    cannot be read."""
    try:
        data = read_skill_bytes(path)
        return decode_skill_bytes(data), data.startswith(_BOM)
    except SkillReadError as error:
        return error.finding.message
    except ValueError as error:  # pragma: no cover - decode guards
        return str(error)


def read_skill(
    host: Host,
    path: str,
    layout: str,
    expected_name: str,
    text: tuple[str, bool] | str,
    *,
    offer: bool = True,
) -> HostRead:
    """``host``'s reading of the skill file at ``path`` (its ``layout`` and the name its
    folder or file gives it; ``text`` from :func:`read_text`). ``offer=False``: whether
    a loaded skill is offered to the model is not judged (``unlisted`` then only says
    what the description makes of it; no file beside it is read)."""
    reading = host.reading
    label = host.label
    if isinstance(text, str):
        return HostRead(text)
    body_text, bom = text
    if bom and reading.bom == "drop":
        return HostRead(
            f"the file starts with a UTF-8 byte order mark: {label} finds no frontmatter "
            "after it (save the file without the BOM)"
        )
    flat = layout == "flat" and host.flat_fallbacks
    parsed = _frontmatter(reading, body_text)
    if reading.by_line:
        return _read_by_line(host, parsed, expected_name)
    entries = parsed.entries
    if entries is None:
        if reading.unreadable == "drop" and not flat:
            return HostRead(_unreadable(host, parsed.problem))
        entries = {}
    name, display, refusal = _name(host, entries, parsed.document, expected_name, flat)
    if refusal is not None:
        return HostRead(refusal)
    description, fallback, verdict = _description(host, entries, parsed, flat, path)
    if verdict is not None and verdict.startswith("drop:"):
        return HostRead(verdict[5:])
    unlisted = verdict
    extra = None
    for key in reading.when_to_use:
        value = entries.get(key)
        if value is not None and isinstance(value.value, str) and value.value.strip():
            extra = value.value
            break
    if unlisted is None and offer:
        unlisted = _unlisted(host, entries, path)
    return HostRead(None, name, display, description, extra, unlisted, parsed.repaired, fallback)


def reads_frontmatter(reading: Reading, text: str) -> tuple[bool, bool]:
    """Whether a host with ``reading`` finds keys it can use in the frontmatter of
    ``text``, and whether only its repair of the YAML made them readable."""
    parsed = _frontmatter(reading, text)
    return parsed.entries is not None, parsed.repaired


def _unreadable(host: Host, problem: str | None) -> str:
    why = problem or "no frontmatter"
    if host.reading.repair != "none":
        return f"{why}; {host.label}'s repair of the YAML does not save it either"
    return why


def _frontmatter(reading: Reading, text: str) -> _Yaml:
    """The frontmatter of ``text`` as a host reads it (see :class:`_Yaml`)."""
    bounds = find_frontmatter(text)
    if bounds is None:
        return _Yaml(None, text, None, text, "no frontmatter: the file does not start with '---'")
    if isinstance(bounds, str):
        return _Yaml(None, text, None, text, "the frontmatter's closing '---' line is missing")
    yaml_text = text[bounds.yaml_start : bounds.yaml_end]
    body = text[bounds.body_start :]
    entries, document, problem = _parse(yaml_text, reading)
    if entries is not None:
        return _Yaml(entries, document, yaml_text, body)
    tries: list[str] = []
    if reading.tab_before_key:
        tries.append(_TAB_KEY.sub("", yaml_text.replace("\r\n", "\n")))
    if reading.repair == "quote":
        tries.append(_quoted(yaml_text, reading.repair_keys, reading.repair_strips_comments))
    elif reading.repair == "block":
        tries.append(_blocks(yaml_text))
    for candidate in tries:
        if candidate == yaml_text:
            continue
        entries, document, _again = _parse(candidate, reading)
        if entries is not None:
            return _Yaml(entries, document, yaml_text, body, repaired=True)
    return _Yaml(None, text, yaml_text, body, problem)


def _parse(
    yaml_text: str, reading: Reading
) -> tuple[Mapping[str, FrontmatterEntry] | None, str, str | None]:
    """The top-level keys of ``yaml_text`` (the last of a key given twice, where the
    host takes it), the document their spans point into, or why it does not read."""
    document = "---\n" + yaml_text + "\n---\n"
    parsed = parse_frontmatter(document)
    drops = [f for f in parsed.findings if f.drops_skill]
    if reading.duplicate_keys == "last":
        drops = [f for f in drops if f.code != "SD105"]
    if parsed.frontmatter is None or drops:
        finding = drops[0] if drops else None
        message = finding.message if finding is not None else "invalid YAML in frontmatter"
        return None, document, message
    entries: dict[str, FrontmatterEntry] = {}
    for entry in parsed.frontmatter.entries:
        entries[entry.key] = entry
    return entries, document, None


def _quoted(yaml_text: str, keys: tuple[str, ...], strip_comments: bool) -> str:
    """Codex's and Claude Code's repair: each top-level ``key: value`` (of ``keys``, or
    every key) whose value is plain (not quoted, not a block) read again as a quoted
    string; a trailing `` #...`` comment dropped first where ``strip_comments``."""
    lines = []
    for line in yaml_text.replace("\r\n", "\n").split("\n"):
        match = _KEY_LINE.match(line)
        if match is None or match.group(2)[0] in "\"'|>" or (keys and match.group(1) not in keys):
            lines.append(line)
            continue
        value = match.group(2)
        if strip_comments:
            value = _COMMENT.sub("", value)
        lines.append(f"{match.group(1)}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines)


def _blocks(yaml_text: str) -> str:
    """OpenCode's repair (``fallbackSanitization``): a top-level value holding a ``:``
    becomes a literal block."""
    lines: list[str] = []
    for line in yaml_text.replace("\r\n", "\n").split("\n"):
        stripped = line.strip()
        match = _OPENCODE_KEY_LINE.match(line)
        if not stripped or stripped.startswith("#") or line[:1].isspace() or match is None:
            lines.append(line)
            continue
        key, value = match.group(1), match.group(2).strip()
        if value in ("", ">", "|") or value.startswith(("'", '"')) or ":" not in value:
            lines.append(line)
            continue
        lines.extend((f"{key}: |-", f"  {value}"))
    return "\n".join(lines)


def value_kind(entry: FrontmatterEntry | None) -> str:
    """``text``, ``missing``, ``null``, ``empty``, ``blank``, ``scalar`` or
    ``collection``."""
    if entry is None:
        return "missing"
    value = entry.value
    if value is None:
        return "null"
    if isinstance(value, str):
        if value == "":
            return "empty"
        return "blank" if not value.strip() else "text"
    if isinstance(value, (list, dict)):
        return "collection"
    return "scalar"


def _as_written(entry: FrontmatterEntry, document: str) -> str:
    """A value's text: a string as is, a number or boolean as it is written."""
    if isinstance(entry.value, str):
        return entry.value
    index = LineIndex(document)
    start, end = index.offset(entry.value_span.start), index.offset(entry.value_span.end)
    written = document[start:end].strip()
    return written if written else str(entry.value)


def _name(
    host: Host,
    entries: Mapping[str, FrontmatterEntry],
    document: str,
    expected: str,
    flat: bool,
) -> tuple[str, str | None, str | None]:
    """(the name the host keys the skill by, the name shown beside it, why the host
    does not load the skill)."""
    reading = host.reading
    entry = entries.get("name")
    kind = value_kind(entry)
    if kind == "missing" and flat:
        return expected, None, None
    action = "use" if kind == "text" else getattr(reading.name, kind)
    if reading.display_name:
        display = _as_written(entry, document) if entry is not None and action == "use" else None
        return expected, display, None
    if action == "drop":
        what = {
            "missing": "no name",
            "null": "an empty name",
            "empty": 'an empty name ("")',
            "blank": "a name of spaces only",
            "scalar": "a name that is not text",
            "collection": "a name that is a list or mapping",
        }[kind]
        return "", None, f"{what}: {host.label} does not load the skill"
    name = expected if action == "folder" else _as_written(entry, document) if entry else expected
    if reading.name_spaces is not None:
        name = name.replace(" ", reading.name_spaces)
    if reading.name_unsafe:
        name = "".join("-" if char in reading.name_unsafe else char for char in name)
    if host.name_ascii_only and not name.isascii():
        odd = next(char for char in name if not char.isascii())
        return (
            name,
            None,
            (f"name '{name}' has the non-ASCII character '{odd}'; {host.label} allows ASCII only"),
        )
    if reading.name_pattern is not None and not re.fullmatch(reading.name_pattern, name):
        return (
            name,
            None,
            (
                f"name '{name}' holds a character {host.label} does not allow in a name "
                "(letters, digits, '.', '_', ':' and '-')"
            ),
        )
    if host.name_max is not None and len(name) > host.name_max:
        return name, None, f"name is {len(name)} characters; {host.label} allows {host.name_max}"
    if host.name_is_kebab and not is_skill_name(name):
        return (
            name,
            None,
            (
                f"name '{name}' is not lowercase letters, digits and single hyphens "
                f"({host.label}'s rule)"
            ),
        )
    if host.name_equals_folder and name != expected:
        return name, None, f"name differs from folder: '{name}' in '{expected}'"
    return name, None, None


def _description(
    host: Host, entries: Mapping[str, FrontmatterEntry], parsed: _Yaml, flat: bool, path: str
) -> tuple[str, bool, str | None]:
    """(the description as the host holds it, whether it was made from the body, and
    ``drop:REASON`` where the host does not load the skill or the reason a loaded skill
    is left out of the listing)."""
    reading = host.reading
    entry = entries.get("description")
    kind = value_kind(entry)
    if kind == "missing" and flat:
        return _first_body_line(parsed.body), True, None
    action = "use" if kind == "text" else getattr(reading.description, kind)
    what = {
        "text": "",
        "missing": "no description",
        "null": "an empty description",
        "empty": 'an empty description ("")',
        "blank": "a description of spaces only",
        "scalar": "a description that is not text",
        "collection": "a description that is a list or mapping",
    }[kind]
    if action == "drop":
        return "", False, f"drop:{what}: {host.label} does not load the skill"
    if action == "unlisted":
        return "", False, f"{what}: {host.label} loads the skill but leaves it out of its listing"
    if action == "fallback":
        return _fallback(reading, parsed.body), True, None
    text = _as_written(entry, parsed.document) if entry is not None else ""
    if (
        not host.reading.final_break
        and entry is not None
        and entry.style in ("literal", "folded")
        and text.endswith("\n")
        and entry is list(entries.values())[-1]
    ):
        # The block ends the YAML, and the host reads the YAML without the line break
        # before the closing '---' (observed: GitHub Copilot CLI, y-folded, y-literal).
        text = text[:-1]
    if host.description_max is not None and len(text) > host.description_max:
        return (
            "",
            False,
            (
                f"drop:description is {len(text)} characters; {host.label} allows "
                f"{host.description_max}"
            ),
        )
    return text, False, None


def _fallback(reading: Reading, body: str) -> str:
    """A description made from the body (see :class:`~skilldeck.engine.hosts.Reading`)."""
    lines = [line.strip() for line in body.split("\n")]
    if reading.fallback == "first-line":
        first = next((line for line in lines if line), None)
        if first is None:
            return reading.fallback_empty
        first = _HEADING.sub("", first) if first.startswith("#") else first
        cap = reading.fallback_cap
        if cap is not None and len(first) > cap:
            first = first[: cap - 3] + "..."
        return first
    if reading.fallback == "lines":
        kept = [line for line in lines if line and not line.startswith("#")]
        joined = " ".join(kept[: reading.fallback_lines])
        cap = reading.fallback_cap
        return joined[:cap] if cap is not None else joined
    return ""


def _first_body_line(body: str) -> str:
    """Kimi Code's description of a flat file without one (``parser.ts``,
    ``descriptionFromBody``): the first non-blank line of the body, cut at 240
    characters with an ellipsis."""
    for raw in body.splitlines():
        line = raw.strip()
        if line:
            return line if len(line) <= 240 else line[:239] + "\u2026"
    return "No description provided."


def _unlisted(host: Host, entries: Mapping[str, FrontmatterEntry], path: str) -> str | None:
    """Why a loaded skill is kept from the model (``None``: it is offered)."""
    reading = host.reading
    for key in reading.invocation_keys:
        entry = entries.get(key)
        if entry is not None and counts_as_true(entry.value, reading.invocation_true):
            return f"'{key}' keeps it from {host.label}'s model"
    if reading.conditional_paths:
        entry = entries.get("paths")
        patterns: list[object] = []
        if entry is not None:
            value = entry.value
            patterns = list(value) if isinstance(value, list) else [value]
        if any(isinstance(p, str) and p.strip() not in ("", "**") for p in patterns):
            return (
                f"'paths' limits it to matching files: {host.label} offers it only once "
                "such a file is touched"
            )
    if reading.flow_type:
        entry = entries.get("type")
        if entry is not None and entry.value == "flow":
            return f"'type: flow': {host.label} runs it as a flow, not from its skill listing"
    if reading.policy_file and not _implicit_allowed(path):
        return (
            "agents/openai.yaml sets policy.allow_implicit_invocation: false: "
            f"{host.label} lists only skills it may invoke on its own"
        )
    return None


def counts_as_true(value: object, how: str) -> bool:
    if how == "bool":
        return value is True
    if how == "text":
        if isinstance(value, str):
            return value.strip().lower() in ("true", "yes", "1")
        return value is True or (type(value) is int and value == 1)
    if isinstance(value, str):
        return value != ""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    return value is not None


def _implicit_allowed(path: str) -> bool:
    """Codex: ``agents/openai.yaml`` beside the ``SKILL.md`` may set
    ``policy.allow_implicit_invocation: false``."""
    policy_file = os.path.join(os.path.dirname(path), "agents", "openai.yaml")
    try:
        with open(policy_file, encoding="utf-8") as handle:
            text = handle.read(64 * 1024)
    except (OSError, UnicodeDecodeError):
        return True
    parsed = parse_frontmatter("---\n" + text + "\n---\n")
    if parsed.frontmatter is None:
        return True
    policy = parsed.frontmatter.get("policy")
    if policy is None or not isinstance(policy.value, dict):
        return True
    return policy.value.get("allow_implicit_invocation") is not False


def _read_by_line(host: Host, parsed: _Yaml, expected: str) -> HostRead:
    """Gemini CLI (``skillLoader.ts``): ``name`` and ``description`` from the YAML when
    both are text, else from ``name:`` and ``description:`` lines (a description goes on
    over indented lines); the name with ``: \\ / < > * ? " |`` turned into ``-``."""
    if parsed.yaml is None:
        return HostRead(parsed.problem or "no frontmatter")
    keys: tuple[str | None, str | None] = (None, None)
    entries = parsed.entries
    if entries is not None:
        name_entry, description_entry = entries.get("name"), entries.get("description")
        keys = (
            name_entry.value
            if name_entry is not None and isinstance(name_entry.value, str)
            else None,
            description_entry.value
            if description_entry is not None and isinstance(description_entry.value, str)
            else None,
        )
    if keys[0] is None or keys[1] is None:
        keys = _lines(parsed.yaml)
    if keys[0] is None or keys[1] is None:
        return HostRead(
            f"no name and description {host.label} can read (it needs both as text, "
            "from the YAML or from 'name:' and 'description:' lines)"
        )
    unsafe = host.reading.name_unsafe or ""
    name = "".join("-" if char in unsafe else char for char in keys[0])
    return HostRead(None, name, None, keys[1])


def _lines(yaml_text: str) -> tuple[str | None, str | None]:
    """``parseSimpleFrontmatter``: the last ``name:`` and ``description:`` lines."""
    lines = yaml_text.splitlines()
    name: str | None = None
    description: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        if match := _NAME_LINE.match(line):
            name = match.group(1).strip()
        elif match := _DESCRIPTION_LINE.match(line):
            parts = [match.group(1).strip()]
            while index + 1 < len(lines) and _CONTINUATION.match(lines[index + 1]):
                parts.append(lines[index + 1].strip())
                index += 1
            description = " ".join(part for part in parts if part)
        index += 1
    return name, description
