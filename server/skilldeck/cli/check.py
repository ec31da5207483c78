"""``skilldeck check [PATH ...]``: judge skill files with the engine and report findings.

A PATH may be a skill file, a bundle folder (holding ``SKILL.md``), a skill root, or a
project folder (its roots as the engine discovers them; user roots only with
``--include-user-roots``). Without PATH, the lookup directory's project is checked.
Discovery, layouts, rules and shadowing are the engine's; this module only picks the
engine entry point for each PATH and hands the findings to a format.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skilldeck.cli.color import Palette, color_enabled
from skilldeck.cli.display import display_path
from skilldeck.cli.errors import CliError
from skilldeck.cli.formats import FORMATS
from skilldeck.cli.progress import Progress
from skilldeck.cli.report import CheckReport, ReportedFinding
from skilldeck.cli.settings import (
    add_cache_option,
    add_location_options,
    add_profile_option,
    build_config,
    lookup_cwd,
)
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.findings import Finding, Severity
from skilldeck.engine.fs_provider import (
    BUNDLE_FILE,
    classify_path,
    scan_deck,
)
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.model import RANK_CUSTOM, SOURCE_CUSTOM
from skilldeck.engine.roots import SkillRoot, find_project_root, resolve_roots
from skilldeck.engine.skill_file import analyze_skill_file

#: Folders whose presence makes a PATH a project rather than a skill root.
_PROJECT_MARKERS = (
    ".git",
    "skilldeck.toml",
    os.path.join(".dsh", "skills"),
    os.path.join(".agents", "skills"),
)


def register(subparsers: Any) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check",
        help="check skill files and report problems",
        description="Check skill files with the same engine as the editor. PATH may be a "
        "skill file, a bundle folder, a skill root or a project folder; default: the "
        "lookup directory's project.",
    )
    parser.add_argument("paths", metavar="PATH", nargs="*", help="what to check")
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning", "information", "hint"),
        default="error",
        help="exit 1 when a finding is at least this severe (default: error)",
    )
    parser.add_argument(
        "--include-user-roots",
        action="store_true",
        help="for a project, also check the user roots ($DSH_HOME/skills, $DSH_AGENTS_HOME/skills)",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour text output: auto (a TTY without NO_COLOR), always, never",
    )
    add_profile_option(parser)
    add_cache_option(parser)
    add_location_options(parser)
    parser.set_defaults(run=run)


@dataclass
class _Collected:
    """Findings per checked file (insertion-ordered, de-duplicated) and dropped files."""

    findings: dict[str, dict[Finding, None]] = field(default_factory=dict)
    dropped: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)

    def add(self, path: str, findings: Iterable[Finding], *, accepted: bool) -> None:
        bucket = self.findings.setdefault(path, {})
        for finding in findings:
            bucket[finding] = None
        if not accepted:
            self.dropped.add(path)


def run(args: argparse.Namespace) -> int:
    """Check, print in ``--format``, and return 0, 1 (findings) or raise for 2."""
    cwd = lookup_cwd(args)
    cache = None if args.no_cache else IndexCache.default()
    checker = _Checker(args, cwd, cache)
    targets: Sequence[str] = args.paths or [cwd]
    resolved = [_existing(raw, cwd) for raw in targets]
    with Progress(sys.stderr, "Indexing skills") as progress:
        for path in resolved:
            checker.check(path, progress)
    collected = checker.collected
    for warning in collected.warnings:
        print(f"skilldeck: warning: {warning}", file=sys.stderr)
    report = CheckReport.build(
        cwd,
        (
            ReportedFinding(path, finding)
            for path, findings in collected.findings.items()
            for finding in findings
        ),
        files_checked=len(collected.findings),
        skills_dropped=len(collected.dropped),
    )
    palette = Palette(args.format == "text" and color_enabled(args.color, sys.stdout))
    sys.stdout.write(FORMATS[args.format](report, palette))
    sys.stdout.flush()
    return 1 if report.fails(Severity(args.fail_on)) else 0


def _existing(raw: str, cwd: str) -> str:
    path = os.path.normpath(os.path.join(cwd, raw))
    if not os.path.exists(path):
        raise CliError(f"check: no such file or directory: {raw}")
    return path


class _Checker:
    """Runs the engine for each PATH and accumulates what it reports."""

    def __init__(self, args: argparse.Namespace, cwd: str, cache: IndexCache | None) -> None:
        self._args = args
        self._cwd = cwd
        self._cache = cache
        self._configs: dict[str, SkilldeckConfig] = {}
        self.collected = _Collected()
        # Roots of the lookup directory's deck (user roots included) name a PATH's layout.
        self._known_roots = resolve_roots(self._config(cwd, user_roots=True), cwd)

    def _config(self, project_dir: str, *, user_roots: bool) -> SkilldeckConfig:
        key = f"{user_roots}\0{find_project_root(project_dir)}"
        if key not in self._configs:
            self._configs[key] = build_config(
                self._args, project_dir, include_user_roots=user_roots
            )
        return self._configs[key]

    def check(self, path: str, progress: Progress) -> None:
        """Check one existing PATH (file or folder)."""
        if os.path.isfile(path):
            self._check_file(path)
            return
        known = next((root for root in self._known_roots if root.path == path), None)
        if known is not None:
            self._check_roots([known], self._config(self._cwd, user_roots=False), progress)
        elif os.path.isfile(os.path.join(path, BUNDLE_FILE)):
            self._check_file(os.path.join(path, BUNDLE_FILE))
        elif path == self._cwd or _is_project(path):
            config = self._config(path, user_roots=self._args.include_user_roots)
            self._check_roots(resolve_roots(config, path), config, progress)
        else:
            root = SkillRoot(RANK_CUSTOM, SOURCE_CUSTOM, path, True)
            self._check_roots([root], self._config(self._cwd, user_roots=False), progress)

    def _check_file(self, path: str) -> None:
        config = self._config(self._cwd, user_roots=False)
        placed = classify_path(path, self._known_roots)
        if placed is None:
            if any(_inside(path, root.path) for root in self._known_roots):
                raise CliError(
                    f"check: {display_path(path, self._cwd)} is not a skill file of its root "
                    "(expected <root>/<name>/SKILL.md or <root>/<name>.md)"
                )
            placed = classify_path(path, [_own_root(path)])
        if placed is None:
            raise CliError(
                f"check: not a skill file: {display_path(path, self._cwd)} "
                "(expected <name>/SKILL.md or <name>.md)"
            )
        _root, _layout, expected_name = placed
        analysis = analyze_skill_file(
            path, expected_name=expected_name, settings=config.rule_settings()
        )
        self.collected.add(path, analysis.findings, accepted=analysis.accepted)

    def _check_roots(
        self, roots: Sequence[SkillRoot], config: SkilldeckConfig, progress: Progress
    ) -> None:
        def on_root(index: int, root: SkillRoot) -> None:
            progress.update(
                f"Indexing {root.source} root {index + 1}/{len(roots)}: "
                f"{display_path(root.path, self._cwd)}"
            )

        deck = scan_deck(config, self._cwd, cache=self._cache, roots=roots, on_root=on_root)
        by_path = deck.findings_by_path()
        for entry in deck.entries():
            self.collected.add(
                entry.path, by_path.get(entry.path, ()), accepted=entry.analysis.accepted
            )
        for scan in deck.scans:
            self.collected.warnings.extend(scan.problems)


def _is_project(path: str) -> bool:
    return any(os.path.lexists(os.path.join(path, marker)) for marker in _PROJECT_MARKERS)


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def _own_root(path: str) -> SkillRoot:
    """The root a lone file implies by its layout: a bundle's parent or a flat file's folder."""
    folder = os.path.dirname(path)
    if os.path.basename(path) == BUNDLE_FILE:
        folder = os.path.dirname(folder)
    return SkillRoot(RANK_CUSTOM, SOURCE_CUSTOM, folder, True)
