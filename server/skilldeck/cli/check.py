"""``skilldeck check [PATH ...]``: judge skill files with the engine and report findings.

A PATH may be a skill file, a bundle folder (holding ``SKILL.md``), a skill root, or a
project folder (its roots as the engine discovers them; user roots only with
``--include-user-roots``). Without PATH, the lookup directory's project is checked.
Discovery, layouts, rules and shadowing are the engine's; this module only picks the
engine entry point for each PATH and hands the findings to a format.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skilldeck.cli.check_memo import (
    CheckMemos,
    DeckKey,
    DeckMemo,
    MemoFile,
    OutputDraft,
    deck_key,
    deck_locator,
    write_text,
)
from skilldeck.cli.check_options import CheckOptions
from skilldeck.cli.color import Palette
from skilldeck.cli.display import display_path
from skilldeck.cli.errors import CliError
from skilldeck.cli.formats import FORMAT_NAMES, renderer
from skilldeck.cli.progress import Progress
from skilldeck.cli.provider_option import add_provider_option, read_provided
from skilldeck.cli.report import CheckReport, ReportedFinding
from skilldeck.cli.settings import (
    add_cache_option,
    add_location_options,
    add_profile_option,
)
from skilldeck.cli.statistics import rule_statistics
from skilldeck.engine.config import RuleSettings, SkilldeckConfig
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    IndexCache,
    NotASkill,
    SkillPlace,
    SkillRoot,
    cache_key,
    find_project_root,
    place_of,
    relative_parts,
    resolve_roots,
    skill_place,
)
from skilldeck.engine.registry import RANK_CUSTOM, SOURCE_CUSTOM
from skilldeck.engine.rules import Finding
from skilldeck.engine.safety import FolderListings, reuse_folder_listings
from skilldeck.heap import release_free_memory

if TYPE_CHECKING:
    from skilldeck.cli.fix import FilePlan, FixTarget, Skipped
    from skilldeck.engine.deck import ProvidedSkill
    from skilldeck.engine.files import SkillFileAnalysis

#: Most ``--fix`` rounds of writing and checking the deck again (each file's own fixes
#: are carried to the end in memory, :func:`skilldeck.cli.fix.plan_file`; a round after
#: the first applies what the deck offers only once another file changed).
MAX_FIX_ROUNDS = 5

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
        choices=FORMAT_NAMES,
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
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=0,
        metavar="N",
        help="processes for a cold index (default 0: one per usable CPU; 1: no helpers)",
    )
    fixing = parser.add_argument_group("fixing and selecting (like ruff)")
    fixing.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes, print what changed, then report what remains",
    )
    fixing.add_argument(
        "--diff",
        action="store_true",
        help="print the fixes as a unified diff and change nothing (exit 1 when there is one)",
    )
    fixing.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, also apply fixes that change what a skill means",
    )
    fixing.add_argument(
        "--select",
        metavar="RULES",
        action="append",
        default=None,
        help="report and fix only these rules: codes, code prefixes (SD6) or names, "
        "comma-separated or repeated (default: all)",
    )
    fixing.add_argument(
        "--ignore",
        metavar="RULES",
        action="append",
        default=None,
        help="leave out these rules (codes, code prefixes or names)",
    )
    fixing.add_argument(
        "--statistics",
        action="store_true",
        help="print how many findings each rule has instead of the findings",
    )
    parser.add_argument(
        "--host",
        metavar="H",
        dest="check_hosts",
        default=None,
        help="also report what agent H does with the project's skills (SD901/SD902; a "
        "comma list for several; replaces the config file's hosts); with one agent and "
        "no --profile, its dialect is the profile (docs/hosts.md)",
    )
    add_profile_option(parser)
    add_cache_option(parser)
    add_location_options(parser)
    add_provider_option(parser)
    parser.set_defaults(run=run)


def _jobs(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0 = auto), got {raw!r}")
    return value


@dataclass
class _Collected:
    """Findings per checked file (insertion-ordered, de-duplicated) and dropped files."""

    findings: dict[str, dict[Finding, None]] = field(default_factory=dict)
    #: The files of ``findings`` that are a bundle's other files (not skill files).
    bundle_files: set[str] = field(default_factory=set)
    dropped: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    wide_lines: dict[str, dict[int, str]] = field(default_factory=dict)
    #: Where each file lies and how it was judged (filled when fixing: no memos then).
    targets: dict[str, FixTarget] = field(default_factory=dict)

    def add(
        self,
        path: str,
        findings: Iterable[Finding],
        *,
        accepted: bool,
        wide_lines: Iterable[tuple[int, str]] = (),
        bundle_file: bool = False,
    ) -> None:
        bucket = self.findings.setdefault(path, {})
        for finding in findings:
            bucket[finding] = None
        if bundle_file:
            self.bundle_files.add(path)
        if not accepted:
            self.dropped.add(path)
        if wide_lines:
            self.wide_lines.setdefault(path, {}).update(wide_lines)


def run(args: argparse.Namespace) -> int:
    """Check, print in ``--format``, and return 0, 1 (findings) or raise for 2."""
    options = CheckOptions.from_args(args, sys.stdout)
    cache = options.location.cache()
    if options.fix_mode == "diff":
        return _diff(options, cache)
    if options.fix_mode == "fix":
        return _fix(options, cache)
    palette = options.palette
    # Nothing changed since an identical invocation: print what it printed. (Skills of
    # other providers are not files whose identity a memo key can hold: no memo then.)
    checker = _Checker(options, cache)
    paths = options.paths
    if (
        options.plain
        and cache is not None
        and not checker.may_use_providers(paths)
        and checker.output_memo_exists(paths, palette)
    ):
        output_key = checker.output_key(paths, palette)
        memo = CheckMemos(cache).load_output_memo(output_key) if output_key is not None else None
        if memo is not None:
            for warning in memo.warnings:
                _warn(warning)
            memo.write(sys.stdout)
            return memo.status
    checker.check_all(paths)
    rendering = _report(options, checker, palette)
    if cache is None:
        return _emit(rendering)
    # The output goes into a draft of its memo as it is printed (it is never held whole).
    draft = CheckMemos(cache).draft_output() if options.plain else None
    try:
        status = _emit(rendering, draft)
        # Store only what a listing taken after the checks vouches for: nothing was
        # modified since they started (deck_key's since_ns).
        checker.relist()
        output_key = checker.output_key(paths, palette)
        if (
            draft is not None
            and checker.complete
            and not checker.used_providers
            and output_key is not None
        ):
            CheckMemos(cache).keep_output(
                draft,
                output_key,
                warnings=rendering.warnings,
                status=status,
                companions=checker.companions,
            )
        checker.store_deck_memos()
    finally:
        if draft is not None:
            draft.discard()
    return status


@dataclass(frozen=True)
class _Rendering:
    """What a run prints, made as it is written: its stderr warnings, its stdout in
    pieces that concatenate to it (a large report's text is never held whole) and its
    exit status."""

    warnings: tuple[str, ...]
    pieces: Iterable[str]
    status: int


def _report(options: CheckOptions, checker: _Checker, palette: Palette) -> _Rendering:
    """What a run prints and its exit status, from the selected findings."""
    collected = checker.collected
    selection = options.selection
    report = CheckReport.build(
        checker.cwd,
        (
            ReportedFinding(path, finding)
            for path, findings in collected.findings.items()
            for finding in findings
            if finding.code in selection.codes
        ),
        files_checked=len(collected.findings.keys() - collected.bundle_files),
        bundle_files=len(collected.bundle_files),
        skills_dropped=len(collected.dropped),
        wide_lines=collected.wide_lines,
    )
    status = 1 if report.fails(options.fail_on) else 0
    if options.statistics:
        pieces: Iterable[str] = (
            rule_statistics(report, options.output_format, unsafe=options.unsafe_fixes),
        )
    else:
        pieces = renderer(options.output_format)(report, palette)
    return _Rendering(tuple(collected.warnings), pieces, status)


def _plans(checker: _Checker, options: CheckOptions) -> tuple[list[FilePlan], list[Skipped]]:
    from skilldeck.cli.fix import plan_files  # noqa: PLC0415

    collected = checker.collected
    selection = options.selection
    return plan_files(
        (
            (path, target, [f for f in findings if f.code in selection.codes and f.fixes])
            for path, findings in collected.findings.items()
            if (target := collected.targets.get(path)) is not None
        ),
        unsafe=options.unsafe_fixes,
        codes=selection.codes,
    )


def _fresh_check(options: CheckOptions, cache: IndexCache | None) -> _Checker:
    checker = _Checker(options, cache, fresh=True)
    checker.check_all(options.paths)
    return checker


def _diff(options: CheckOptions, cache: IndexCache | None) -> int:
    """``--diff``: print what ``--fix`` would change; change nothing."""
    from skilldeck.cli.fix import unified_diff  # noqa: PLC0415

    cwd = options.location.cwd
    checker = _fresh_check(options, cache)
    plans, skipped = _plans(checker, options)
    for warning in checker.collected.warnings:
        print(f"skilldeck: warning: {warning}", file=sys.stderr)
    for plan in plans:
        sys.stdout.write(unified_diff(plan, display_path(plan.path, cwd)))
    for item in skipped:
        print(f"skilldeck: {display_path(item.path, cwd)}: {item.reason}", file=sys.stderr)
    count = sum(len(plan.applied) for plan in plans)
    files = len(plans)
    print(
        f"Would fix {count} problem{'' if count == 1 else 's'} in {files} "
        f"file{'' if files == 1 else 's'}.",
        file=sys.stderr,
    )
    return 1 if plans else 0


def _fix(options: CheckOptions, cache: IndexCache | None) -> int:
    """``--fix``: apply fixes until none applies (a few passes at most), print what
    changed, then report what remains."""
    from skilldeck.cli.fix import describe, write_plan  # noqa: PLC0415

    cwd = options.location.cwd
    text = options.output_format == "text" and not options.statistics
    out = sys.stdout if text else sys.stderr
    reasons: dict[tuple[str, str], None] = {}
    fixed = 0
    checker = _fresh_check(options, cache)
    for _ in range(MAX_FIX_ROUNDS):
        plans, skipped = _plans(checker, options)
        for item in skipped:
            reasons[(item.path, item.reason)] = None
        wrote = 0
        for plan in plans:
            failed = write_plan(plan)
            if failed is not None:
                reasons[(failed.path, failed.reason)] = None
                continue
            wrote += 1
            fixed += len(plan.applied)
            shown = display_path(plan.path, cwd)
            for line in describe(plan):
                print(f"Fixed {shown}: {line}", file=out)
        if not wrote:
            break
        checker = _fresh_check(options, cache)
    for path, reason in reasons:
        print(f"skilldeck: {display_path(path, cwd)}: {reason}", file=sys.stderr)
    print(f"Fixed {fixed} problem{'' if fixed == 1 else 's'}.", file=out)
    return _emit(_report(options, checker, options.palette))


def _emit(rendering: _Rendering, draft: OutputDraft | None = None) -> int:
    """Print ``rendering`` (each piece also into ``draft``); its exit status."""
    for warning in rendering.warnings:
        _warn(warning)
    for text in rendering.pieces:
        write_text(sys.stdout, text)
        if draft is not None:
            draft.add(text)
    sys.stdout.flush()
    return rendering.status


def _warn(warning: str) -> None:
    print(f"skilldeck: warning: {warning}", file=sys.stderr)


class _Checker:
    """Runs the engine for each PATH and accumulates what it reports."""

    def __init__(
        self, options: CheckOptions, cache: IndexCache | None, *, fresh: bool = False
    ) -> None:
        self._options = options
        self._cwd = cwd = options.location.cwd
        self._cache = cache
        #: Scan every deck (no deck memo) and note where each file lies: for fixing.
        self._fresh = fresh
        self._configs: dict[str, SkilldeckConfig] = {}
        self.collected = _Collected()
        #: Every deck checked scanned completely (or came from a complete memo).
        self.complete = True
        #: Per-root cache files the decks checked were built beside (memo companions).
        self.companions: list[Path] = []
        self._keys: dict[tuple[tuple[SkillRoot, ...], RuleSettings], DeckKey | None] = {}
        self._pending: list[tuple[tuple[SkillRoot, ...], RuleSettings, DeckMemo]] = []
        #: The decks scanned in this run (a deck named by several PATHs is scanned once).
        self._scanned: dict[tuple[tuple[SkillRoot, ...], RuleSettings], DeckMemo] = {}
        #: Each deck's bundle folder listings (by locator): its scan lists through them
        #: and its key reuses what the scan listed.
        self._listings: dict[str, FolderListings] = {}
        self._started_ns = time.time_ns()
        #: The rules this run reports (``None``: all): the engine skips deck-wide passes
        #: whose rules are all unselected, and such a partial deck keeps no memo.
        self._select = options.select
        self._factories = options.location.providers()
        #: Some deck checked had skills of other providers (bundled, sources, --provider).
        self.used_providers = False
        # Roots of the lookup directory's deck (user roots included) name a PATH's layout.
        self._known_roots = resolve_roots(self._config(cwd, user_roots=True), cwd)

    def _config(self, project_dir: str, *, user_roots: bool) -> SkilldeckConfig:
        key = f"{user_roots}\0{find_project_root(project_dir)}"
        if key not in self._configs:
            self._configs[key] = self._options.location.config(
                project_dir, include_user_roots=user_roots
            )
        return self._configs[key]

    @property
    def cwd(self) -> str:
        """The directory paths are shown relative to."""
        return self._cwd

    @property
    def _cache_dir(self) -> Path | None:
        return None if self._cache is None else self._cache.directory

    def check_all(self, paths: Sequence[str]) -> None:
        """Check every PATH, showing progress on stderr."""
        with Progress(sys.stderr, "Indexing skills") as progress:
            for path in paths:
                self.check(path, progress)

    def may_use_providers(self, paths: Sequence[str] = ()) -> bool:
        """Whether decks may hold skills of other providers (``--provider``, or the
        bundled skill turned on in the lookup directory's config), or the agents of a
        ``hosts`` setting may report on them (their folders are outside the decks' memo
        keys), in the lookup directory or in a PATH's project."""
        if self._factories:
            return True
        config = self._config(self._cwd, user_roots=True)
        return (
            config.bundled_skills
            or bool(config.remote_sources)
            or self._hosted(config)
            or self._hosted_paths(paths)
        )

    @staticmethod
    def _hosted(config: SkilldeckConfig) -> bool:
        return any(name != "dsh" for name in config.hosts)

    def _hosted_paths(self, paths: Sequence[str]) -> bool:
        return any(
            self._hosted(self._config(path, user_roots=True))
            for path in paths
            if os.path.isdir(path) and _is_project(path)
        )

    def _provided(self, config: SkilldeckConfig) -> tuple[ProvidedSkill, ...]:
        """The deck's skills from providers other than the filesystem."""
        skills, complete = read_provided(config, self._factories, self._cwd)
        self.complete = self.complete and complete
        return skills

    def check(self, path: str, progress: Progress) -> None:
        """Check one existing PATH (file or folder)."""
        plan = self._plan(path)
        if isinstance(plan, str):
            self._check_file(plan)
        else:
            roots, config, focus = plan
            whole_project = focus is None and (path == self._cwd or _is_project(path))
            self._check_roots(
                roots, config, progress, lookup=path if whole_project else None, focus=focus
            )

    def _plan(self, path: str) -> str | tuple[Sequence[SkillRoot], SkilldeckConfig, str | None]:
        """The lone skill file to check for PATH, or the deck to scan (roots, config, and
        the file or folder whose findings are reported: ``None`` for all).

        A skill file or root of the lookup directory's deck is judged in that whole deck
        (its ``/name`` mentions and shadowing reach the other roots, as in the editor and
        a check of the project) and only its findings are reported."""
        if os.path.isfile(path):
            file: str | None = path
        else:
            bundled = os.path.join(path, BUNDLE_FILE)
            file = bundled if os.path.isfile(bundled) else None
        if file is not None:
            placed = place_of(file, self._known_roots)
            if isinstance(placed, SkillPlace):
                return self._around(placed.root, path)
            bundled_in = self._bundle_root(file) if placed is None else None
            if bundled_in is not None:  # a script or reference of a bundle: its findings
                return self._around(bundled_in, path)
            return file
        known = next((root for root in self._known_roots if root.path == path), None)
        if known is not None:
            return self._around(known, path)
        if path == self._cwd or _is_project(path):
            config = self._config(path, user_roots=self._options.include_user_roots)
            return resolve_roots(config, path), config, None
        root = SkillRoot(RANK_CUSTOM, SOURCE_CUSTOM, path, True)
        return [root], self._config(self._cwd, user_roots=False), None

    def _bundle_root(self, path: str) -> SkillRoot | None:
        """The known root whose bundle ``path`` is a file of (below ``<name>/``, beside a
        ``SKILL.md``), if any."""
        for root in self._known_roots:
            parts = relative_parts(path, root)
            if (
                parts is not None
                and len(parts) >= 2
                and parts[-1] != BUNDLE_FILE
                and os.path.isfile(os.path.join(root.path, parts[0], BUNDLE_FILE))
            ):
                return root
        return None

    def _around(
        self, root: SkillRoot, focus: str
    ) -> tuple[Sequence[SkillRoot], SkilldeckConfig, str]:
        """The lookup directory's deck, as ``check`` without PATH scans it, with ``root``
        (a user root without ``--include-user-roots``) in its place; ``focus`` reported."""
        config = self._config(self._cwd, user_roots=self._options.include_user_roots)
        roots = resolve_roots(config, self._cwd)
        if root in roots:
            return roots, config, focus
        return sorted([*roots, root], key=lambda item: item.rank), config, focus

    def _decks(
        self, paths: Sequence[str]
    ) -> list[tuple[Sequence[SkillRoot], RuleSettings, str | None]] | None:
        """The decks checking ``paths`` scans, each with what it reports; ``None`` when a
        PATH is a lone file."""
        decks = []
        for path in paths:
            plan = self._plan(path)
            if isinstance(plan, str):
                return None
            roots, config, focus = plan
            decks.append((roots, config.rule_settings(), focus))
        return decks

    def _output_locator(
        self,
        decks: Sequence[tuple[Sequence[SkillRoot], RuleSettings, str | None]],
        palette: Palette,
    ) -> str:
        cache_dir = self._cache_dir
        inputs = [
            self._options.output_format,
            palette.enabled,
            self._options.fail_on.value,
            self._cwd,
            [
                [deck_locator(roots, settings, cache_dir=cache_dir), focus]
                for roots, settings, focus in decks
            ],
        ]
        return cache_key("check-output", None, reach="deck", inputs=inputs, cache_dir=cache_dir)

    def output_memo_exists(self, paths: Sequence[str], palette: Palette) -> bool:
        """Whether an output memo for this invocation is stored (no listing needed)."""
        decks = self._decks(paths)
        if decks is None or self._cache is None:
            return False
        probe = DeckKey(self._output_locator(decks, palette), "")
        return CheckMemos(self._cache).output_file_for(probe).exists()

    def output_key(self, paths: Sequence[str], palette: Palette) -> DeckKey | None:
        """The output memo key of checking ``paths``: ``None`` unless every PATH is a deck
        whose :func:`deck_key` is known. It digests those keys, the format, colour, fail
        level and the directory paths are shown relative to."""
        decks = self._decks(paths)
        if decks is None:
            return None
        keys: list[DeckKey] = []
        for roots, settings, _focus in decks:
            key = self._deck_key(roots, settings)
            if key is None:
                return None
            keys.append(key)
        locator = self._output_locator(decks, palette)
        digest = hashlib.sha256(
            "\0".join([locator, *(key.digest for key in keys)]).encode()
        ).hexdigest()
        return DeckKey(locator, digest)

    def _deck_key(self, roots: Sequence[SkillRoot], settings: RuleSettings) -> DeckKey | None:
        """:func:`deck_key` (racy since this run started), once per deck until
        :meth:`relist`."""
        ident = (tuple(roots), settings)
        if ident not in self._keys:
            listings = self._listings_for(roots, settings)
            self._keys[ident] = deck_key(
                roots,
                settings,
                cache_dir=self._cache_dir,
                since_ns=self._started_ns,
                listings=listings,
            )
            if self._cache is not None and listings is not None:
                locator = deck_locator(roots, settings, cache_dir=self._cache_dir)
                CheckMemos(self._cache).store_listings(locator, listings)
        return self._keys[ident]

    def _listings_for(
        self, roots: Sequence[SkillRoot], settings: RuleSettings
    ) -> FolderListings | None:
        """The bundle folder listings of a deck, loaded once (``None`` without a cache)."""
        if self._cache is None:
            return None
        locator = deck_locator(roots, settings, cache_dir=self._cache_dir)
        if locator not in self._listings:
            self._listings[locator] = CheckMemos(self._cache).load_listings(locator)
        return self._listings[locator]

    def relist(self) -> None:
        """Forget the deck keys computed so far: the next ones list and stat again."""
        self._keys.clear()

    def store_deck_memos(self) -> None:
        """Store the memos of the decks scanned in this run that nothing modified since
        the run started (call after :meth:`relist`)."""
        if self._cache is None:
            return
        for roots, settings, memo in self._pending:
            key = self._deck_key(roots, settings)
            if key is not None:
                companions = [self._cache.file_for(root.path, settings) for root in roots]
                CheckMemos(self._cache).store_deck_memo(key, memo, companions=companions)
        self._pending.clear()

    def _check_file(self, path: str) -> None:
        config = self._config(self._cwd, user_roots=False)
        placed = place_of(path, self._known_roots)
        if isinstance(placed, NotASkill):
            finding = placed.finding(config.rule_settings())
            self.collected.add(path, (finding,) if finding is not None else (), accepted=True)
            return
        if placed is None:
            if any(_inside(path, root.path) for root in self._known_roots):
                raise CliError(
                    f"check: {display_path(path, self._cwd)} is not a skill file of its root "
                    "(expected <root>/<name>/SKILL.md or <root>/<name>.md)"
                )
            placed = skill_place(path, [_own_root(path)])
        if placed is None:
            raise CliError(
                f"check: not a skill file: {display_path(path, self._cwd)} "
                "(expected <name>/SKILL.md or <name>.md)"
            )
        root, expected_name = placed.root, placed.expected_name
        settings = config.rule_settings()
        from skilldeck.cli.fix import FixTarget  # noqa: PLC0415
        from skilldeck.engine.files import analyze_skill_file  # noqa: PLC0415

        analysis = analyze_skill_file(path, expected_name=expected_name, settings=settings)
        self.collected.add(
            path,
            analysis.findings,
            accepted=analysis.loads_for_profile,
            wide_lines=analysis.wide_lines,
        )
        for item in bundle_memo_files(path, analysis, {}):
            self.collected.add(
                item.path,
                item.findings,
                accepted=True,
                wide_lines=item.wide_lines,
                bundle_file=True,
            )
        self.collected.targets[path] = FixTarget(
            root.path, expected_name, settings, analysis.mentions
        )

    def _check_roots(
        self,
        roots: Sequence[SkillRoot],
        config: SkilldeckConfig,
        progress: Progress,
        *,
        lookup: str | None = None,
        focus: str | None = None,
    ) -> None:
        """Check a deck, from its memo when nothing changed since it was stored; report
        the findings of the files in ``focus`` (a file or folder; ``None``: all).

        ``lookup`` is the project directory when the deck is a whole project's: the
        agents of its ``hosts`` setting then report on it too (SD901/SD902). Their
        verdicts depend on folders outside the deck, so such a check keeps no memo."""
        cache = self._cache
        settings = config.rule_settings()
        ident = (tuple(roots), settings)
        scanned = self._scanned.get(ident)
        if scanned is not None:  # several PATHs of one deck (a pre-commit hook's files)
            self._collect(scanned, focus)
            return
        companions = [cache.file_for(root.path, settings) for root in roots] if cache else []
        self.companions.extend(companions)
        provided = self._provided(config)
        hosts_lookup = lookup if any(name != "dsh" for name in config.hosts) else None
        memo: DeckMemo | None
        if provided or hosts_lookup is not None:
            self.used_providers = True  # no memo: other inputs than the deck's files
            memo = self._scan_roots(roots, config, progress, provided, hosts_lookup)
        elif (
            cache is not None
            and not self._fresh
            and CheckMemos(cache)
            .deck_file_for_locator(deck_locator(roots, settings, cache_dir=cache.directory))
            .exists()
        ):
            key = self._deck_key(roots, settings)
            memo = CheckMemos(cache).load_deck_memo(key) if key is not None else None
        else:
            memo = None
        if memo is None:
            memo = self._scan_roots(roots, config, progress)
            if cache is not None and memo.complete and not self._fresh and self._select is None:
                self._pending.append((tuple(roots), settings, memo))
        self._scanned[ident] = memo
        self.complete = self.complete and memo.complete
        self.collected.warnings.extend(memo.problems)
        self._collect(memo, focus)

    def _collect(self, memo: DeckMemo, focus: str | None) -> None:
        """The findings of ``memo``'s files in ``focus`` (a file or folder; ``None``: all;
        a skill file's bundle files come with it)."""
        for item in memo.files:
            if (
                focus is None
                or item.path == focus
                or _inside(item.path, focus)
                or (item.owner is not None and item.owner == focus)
            ):
                self.collected.add(
                    item.path,
                    item.findings,
                    accepted=item.accepted,
                    wide_lines=item.wide_lines,
                    bundle_file=item.owner is not None,
                )

    def _scan_roots(
        self,
        roots: Sequence[SkillRoot],
        config: SkilldeckConfig,
        progress: Progress,
        provided: Sequence[ProvidedSkill] = (),
        hosts_lookup: str | None = None,
    ) -> DeckMemo:
        # The scan and the deck's passes are imported when a deck is checked: a run answered
        # by its memo (or --version, or another command) imports none of them.
        from skilldeck.cli.fix import FixTarget  # noqa: PLC0415
        from skilldeck.engine.deck import deck_findings, host_findings  # noqa: PLC0415
        from skilldeck.engine.filesystem import scan_deck, usable_cpus  # noqa: PLC0415

        def on_root(index: int, root: SkillRoot) -> None:
            progress.update(
                f"Indexing {root.source} root {index + 1}/{len(roots)}: "
                f"{display_path(root.path, self._cwd)}"
            )

        jobs = self._options.jobs or usable_cpus()
        reuse_folder_listings(self._listings_for(roots, config.rule_settings()))
        try:
            deck = scan_deck(
                config, self._cwd, cache=self._cache, roots=roots, on_root=on_root, processes=jobs
            )
        finally:
            reuse_folder_listings(None)
        by_path = deck_findings(deck, provided, select=self._select)
        settings = config.rule_settings()
        for entry in deck.entries():
            self.collected.targets[entry.path] = FixTarget(
                entry.root.path, entry.expected_name, settings, entry.analysis.mentions
            )
        if hosts_lookup is not None:
            hosted = host_findings(
                deck, config, hosts_lookup, cache=self._cache, select=self._select
            )
            for path, found in hosted.items():
                by_path.setdefault(path, []).extend(found)
        # The passes' working sets are freed; their pages go back before the report is
        # rendered on top of what is kept (the peak of a large deck's run).
        release_free_memory()
        files = (
            tuple(
                MemoFile(
                    entry.path,
                    entry.analysis.loads_for_profile,
                    tuple(by_path.get(entry.path, ())),
                    entry.analysis.wide_lines,
                )
                for entry in deck.entries()
            )
            + tuple(
                item
                for entry in deck.entries()
                if entry.analysis.bundle_located
                for item in bundle_memo_files(entry.path, entry.analysis, by_path)
            )
            + tuple(
                MemoFile(path, True, (finding, *by_path.get(path, ())), ())
                for scan in deck.scans
                for path, finding in scan.strays
            )
        )
        problems = tuple(problem for scan in deck.scans for problem in scan.problems)
        return DeckMemo(files, problems, deck.complete)


def bundle_memo_files(
    owner: str, analysis: SkillFileAnalysis, by_path: Mapping[str, Sequence[Finding]]
) -> list[MemoFile]:
    """The files of ``owner``'s bundle with safety findings, each as a file of the report
    (its findings as the deck reported them at its path, else the analysis's own; the
    non-ASCII lines they point into, for columns)."""
    located: dict[str, list[Finding]] = {}
    for path, finding in analysis.bundle_located:
        located.setdefault(path, []).append(finding)
    lines: dict[str, list[tuple[int, str]]] = {}
    for path, number, text in analysis.bundle_lines:
        lines.setdefault(path, []).append((number, text))
    return [
        MemoFile(
            path,
            True,
            tuple(by_path.get(path, found)),
            tuple(lines.get(path, ())),
            owner,
        )
        for path, found in sorted(located.items())
    ]


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
