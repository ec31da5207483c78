"""A failing source as a warning on the config file that names it (for the editor).

One finding per source that cannot serve fresh skills (``offline``, ``never fetched``,
``damaged``, ``never read``), on the ``name = "..."`` line of its ``[[sources]]`` table,
with the reason from the cache (:mod:`skilldeck.engine.sources._status`). Nothing is fetched here.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.rules import Finding, Severity
from skilldeck.engine.sources._status import FAILING_HEALTH, source_status
from skilldeck.engine.text import Span

#: The code of these findings (not a rule of the skill files: no rule table entry).
SOURCE_FINDING_CODE = "source"
_HEADER = re.compile(r"^\s*\[\[\s*(?:tool\s*\.\s*skilldeck\s*\.\s*)?sources\s*\]\]")
_NAME = re.compile(r"""^\s*name\s*=\s*["']([^"']*)["']""")


def source_findings(
    config: SkilldeckConfig, cache_dir: Path, *, elsewhere: Collection[str] = ()
) -> tuple[Finding, ...]:
    """Warnings for the failing sources of ``config`` (none without a config file).

    ``elsewhere``: names of sources configured somewhere else (editor settings), left
    out: the file does not hold them, even when it has a table of the same name."""
    if config.config_file is None or not config.remote_sources:
        return ()
    try:
        lines = Path(config.config_file).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    places = _name_lines(lines)
    findings: list[Finding] = []
    for spec in config.remote_sources:
        if spec.name in elsewhere:
            continue
        status = source_status(spec, cache_dir)
        state = FAILING_HEALTH.get(status.health)
        if state is None:
            continue
        line = places.get(spec.name, 0)
        reason = f": {status.error}" if status.error else ""
        findings.append(
            Finding(
                code=SOURCE_FINDING_CODE,
                severity=Severity.WARNING,
                message=f'skill source "{spec.name}" ({spec.label}) is {state}{reason}',
                span=Span.at(line, 0, len(lines[line]) if line < len(lines) else 0),
            )
        )
    return tuple(findings)


def _name_lines(lines: list[str]) -> dict[str, int]:
    """Source name -> the line of its ``name`` key inside a ``[[sources]]`` table."""
    places: dict[str, int] = {}
    inside = False
    for number, line in enumerate(lines):
        if line.lstrip().startswith("["):
            inside = _HEADER.match(line) is not None
            continue
        match = _NAME.match(line) if inside else None
        if match is not None:
            places.setdefault(match.group(1), number)
    return places
