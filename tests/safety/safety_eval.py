"""The safety evaluation set (issue #40): hostile skills modelled on public reports and
benign look-alikes, stored as data in ``tests/safety/eval/`` and materialised here into
real skill folders.

The data files hold each case's files as readable text: invisible characters are TOML
escapes or one of the macros below, so a reviewer sees every byte's intent.

- ``⟦tags:TEXT⟧``: TEXT as Unicode tag characters (U+E0000 + each code point);
- ``⟦yaml-tags:TEXT⟧``: the same written as YAML escapes (``\\U000E0049``), for a
  double-quoted YAML value that the YAML parser decodes;
- ``⟦vs:TEXT⟧``: TEXT's UTF-8 bytes as variation selectors (byte 0-15: U+FE00-U+FE0F,
  16-255: U+E0100-U+E01EF; Paul Butler's emoji smuggling).

Shared by ``test_safety_eval.py`` (the ratchet) and ``benchmarks/bench_safety_eval.py``
(the measurement with the peer scanners). Neither depends on the peers.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

EVAL = Path(__file__).resolve().parent / "eval"
#: the held-out set (``tests/safety/holdout/``): the same layout, written blind to the rules
#: and to the evaluation set's cases, judged the same way (``test_safety_holdout.py``)
HOLDOUT = Path(__file__).resolve().parent / "holdout"
#: the second held-out set (``tests/safety/holdout2/``): the same layout again, written blind
#: to the rules and to both sets before it, from other reports (``test_safety_holdout2.py``)
HOLDOUT2 = Path(__file__).resolve().parent / "holdout2"
HOSTILE_FILE = EVAL / "hostile.toml"
BENIGN_FILE = EVAL / "benign.toml"
SOURCES_FILE = EVAL / "sources.toml"
RATCHET_FILE = EVAL / "ratchet.toml"

Expect = Literal["hostile", "benign"]
#: severities that count as "flagged" (a reviewer is told, not just informed)
FLAGGING = frozenset({"error", "warning"})
DEFAULT_PROFILE = "dsh"

_MACRO = re.compile(r"⟦(tags|yaml-tags|vs):(.*?)⟧", re.DOTALL)


def tags(text: str) -> str:
    """``text`` as invisible Unicode tag characters (ASCII smuggling)."""
    return "".join(chr(0xE0000 + ord(char)) for char in text)


def variation_selectors(text: str) -> str:
    """``text``'s UTF-8 bytes as variation selectors, one a byte."""
    return "".join(
        chr(0xFE00 + byte) if byte < 16 else chr(0xE0100 + byte - 16)
        for byte in text.encode("utf-8")
    )


def expand(text: str) -> str:
    """``text`` with its macros replaced by the characters they stand for."""

    def replace(match: re.Match[str]) -> str:
        kind, body = match.group(1), match.group(2)
        if kind == "tags":
            return tags(body)
        if kind == "yaml-tags":
            return "".join(f"\\U{0xE0000 + ord(char):08X}" for char in body)
        return variation_selectors(body)

    return _MACRO.sub(replace, text)


@dataclass(frozen=True)
class Technique:
    key: str
    family: str
    what: str


@dataclass(frozen=True)
class Case:
    """One skill folder of the set and what a reviewer must see on it."""

    id: str
    name: str
    technique: str
    expect: Expect
    source: str
    summary: str
    profile: str
    #: path inside the folder -> text as written to disk (macros expanded, line endings set)
    files: Mapping[str, str]


@dataclass(frozen=True)
class Ratchet:
    """The cases skilldeck gets wrong today: hostile ones it misses, look-alikes it flags."""

    missed: frozenset[str]
    false_alarms: frozenset[str]


def _read(path: Path) -> dict[str, object]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def _cases(path: Path, expect: Expect) -> list[Case]:
    cases: list[Case] = []
    raw_cases = _read(path).get("case", [])
    assert isinstance(raw_cases, list)
    for raw in raw_cases:
        crlf = set(raw.get("crlf", []))
        files = {}
        for relative, text in raw["files"].items():
            body = expand(text)
            if relative in crlf:
                body = body.replace("\r\n", "\n").replace("\n", "\r\n")
            files[relative] = body
        cases.append(
            Case(
                id=raw["id"],
                name=raw["name"],
                technique=raw["technique"],
                expect=expect,
                source=raw["source"],
                summary=raw["summary"],
                profile=raw.get("profile", DEFAULT_PROFILE),
                files=files,
            )
        )
    return cases


def load_cases(root: Path = EVAL) -> tuple[Case, ...]:
    """Every case of the set in ``root`` (the evaluation set unless told), hostile first,
    in file order."""
    return (
        *_cases(root / HOSTILE_FILE.name, "hostile"),
        *_cases(root / BENIGN_FILE.name, "benign"),
    )


def techniques(root: Path = EVAL) -> dict[str, Technique]:
    """The hostile techniques by key (``[techniques]`` of hostile.toml), in file order."""
    table = _read(root / HOSTILE_FILE.name)["techniques"]
    assert isinstance(table, dict)
    return {key: Technique(key, value["family"], value["what"]) for key, value in table.items()}


def sources(root: Path = EVAL) -> dict[str, dict[str, str]]:
    """The public reports the cases cite, by key."""
    return {key: dict(value) for key, value in _read(root / SOURCES_FILE.name).items()}


def load_ratchet(root: Path = EVAL) -> Ratchet:
    data = _read(root / RATCHET_FILE.name)
    missed = data.get("missed", [])
    false_alarms = data.get("false_alarms", [])
    assert isinstance(missed, list) and isinstance(false_alarms, list)
    return Ratchet(frozenset(missed), frozenset(false_alarms))


def materialise(cases: Iterable[Case], dest: Path) -> dict[str, Path]:
    """Write each case as ``dest/<profile>/<name>/...``; return case id -> skill folder.

    One root per profile, because a profile is chosen per ``check`` run."""
    folders: dict[str, Path] = {}
    for case in cases:
        folder = dest / case.profile / case.name
        for relative, text in case.files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
        folders[case.id] = folder
    return folders


def profiles(cases: Iterable[Case]) -> list[str]:
    """The profiles the cases use, default first."""
    found = {case.profile for case in cases}
    return sorted(found, key=lambda profile: (profile != DEFAULT_PROFILE, profile))


def check_arguments(profile: str, root: Path) -> list[str]:
    """``skilldeck`` arguments that judge one profile's root with the safety rules alone."""
    return (
        ["check", "--select", "SD10", "--format", "json", "--no-cache"]
        + (["--profile", profile] if profile != DEFAULT_PROFILE else [])
        + [str(root)]
    )


@dataclass(frozen=True)
class Verdict:
    """What ``check`` told a reviewer about one case's folder."""

    case: Case
    #: (severity, code, file relative to the folder, 1-based line) of each finding
    findings: tuple[tuple[str, str, str, int], ...]

    @property
    def flagged(self) -> bool:
        """At least one warning or error anywhere in the folder."""
        return any(severity in FLAGGING for severity, *_ in self.findings)

    @property
    def correct(self) -> bool:
        return self.flagged == (self.case.expect == "hostile")


def verdicts(
    cases: Sequence[Case], folders: Mapping[str, Path], reports: Iterable[str], cwd: Path
) -> list[Verdict]:
    """Each case's verdict from the JSON outputs of ``check`` (one per profile run, each
    run in ``cwd``: a relative finding path is relative to it)."""
    by_folder: dict[Path, list[tuple[str, str, str, int]]] = {
        folder.resolve(): [] for folder in folders.values()
    }
    for report in reports:
        for finding in json.loads(report):
            path = (cwd / finding["path"]).resolve()
            folder = next((f for f in by_folder if path.is_relative_to(f)), None)
            if folder is None:
                continue
            by_folder[folder].append(
                (
                    finding["severity"],
                    finding["code"],
                    path.relative_to(folder).as_posix(),
                    finding["range"]["start"]["line"] + 1,
                )
            )
    return [Verdict(case, tuple(sorted(by_folder[folders[case.id].resolve()]))) for case in cases]


def manifest_text(root: Path) -> str:
    """The set in ``root`` as a Markdown table, one line a case: id, name, what a reviewer
    must see (expect), technique, the public report it is modelled on, and the summary.
    ``MANIFEST.md`` of a set holds exactly this (its test compares them)."""
    known = sources(root)
    lines = [
        f"# {root.name}: one line a case",
        "",
        "Generated from hostile.toml, benign.toml and sources.toml by",
        "`tests/safety/safety_eval.py`'s `manifest_text` (the set's test says how to rewrite it).",
        "",
        "| id | name | expect | technique | modelled on | summary |",
        "|---|---|---|---|---|---|",
    ]
    for case in load_cases(root):
        entry = known.get(case.source)
        where = f"[{case.source}]({entry['url']})" if entry else case.source
        summary = " ".join(case.summary.split()).replace("|", "\\|")
        lines.append(
            f"| {case.id} | `{case.name}` | {case.expect} | {case.technique} | {where} "
            f"| {summary} |"
        )
    return "\n".join(lines) + "\n"
