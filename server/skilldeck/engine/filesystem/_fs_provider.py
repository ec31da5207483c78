"""Scanning filesystem roots into skill entries, findings and candidates.

Discovery is one level deep: ``<root>/<name>/SKILL.md`` (a *bundle*; files beside it
are its resources) and ``<root>/<name>.md`` (a *flat* skill). Entries are visited in
code-point order of their names, which is the provider's own order for duplicate names
inside one root. Symlinked bundles and flat files are followed; everything else that is
not a directory or a regular ``.md`` file (fifos, devices, sockets, dangling links,
symlink loops) is passed over without being opened.

What a scan reports:

- a *missing* root (or a root that is a file) is empty and complete;
- a root in a permanent state that forbids listing it (permission denied, a symlink
  loop, a name too long) is empty and complete, with a problem saying why (SPEC §3:
  such a root is as good as missing; were it incomplete, no catalog would ever be
  complete and a session would never get one);
- a root that cannot be listed for a transient reason (an I/O error, no file
  descriptors or memory left) is empty and **incomplete**; an unexpected error reading
  one skill file makes the scan incomplete too, while the file still gets a finding.
  Readable skills are never hidden.
- permission denied on one bundle or file, a ``SKILL.md`` that is not a regular file,
  a file too large or not UTF-8: a finding on that file (from ``skill_file``); the
  scan stays complete, because that state is not transient.

A skill file the engine refuses (a finding that drops the skill) is no candidate; the
provider logs it at WARNING on :data:`SKIPPED_LOGGER` (``skill file PATH ignored: CODE
message``, the finding ``check`` reports), once per file version, however often the
roots are read (:class:`SkippedFile`).

Resource bases: a bundle's resources resolve against its folder
(``<root>/<name>``); a flat skill's against its root, as in the reference
implementation (a flat file has no folder of its own).
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import logging
import os
import stat
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from skilldeck.engine.config import RuleSettings, SkilldeckConfig
from skilldeck.engine.files import (
    SkillFileAnalysis,
    SkillReadError,
    analyze_skill_bytes,
    analyze_skill_file,
    analyze_skill_text,
    body_of,
    buffer_has_bom,
    decode_skill_bytes,
    read_skill_bytes,
    with_bundle_findings,
)
from skilldeck.engine.filesystem._index_cache import (
    RACY_WINDOW_NS,
    FileIdentity,
    IndexCache,
    RootCache,
    make_record,
    read_record,
)

# Re-exported: the front ends know the layout's names from here too.
from skilldeck.engine.filesystem._layout import BUNDLE_FILE as BUNDLE_FILE  # noqa: PLC0414
from skilldeck.engine.filesystem._layout import FLAT_SUFFIX as FLAT_SUFFIX  # noqa: PLC0414
from skilldeck.engine.filesystem._layout import Layout as Layout  # noqa: PLC0414
from skilldeck.engine.filesystem._layout import listed_child_layout, skill_place, stray_files
from skilldeck.engine.filesystem._roots import SkillRoot, resolve_roots
from skilldeck.engine.filesystem._safety_gate import Refusal, analysis_refusal, judge_served
from skilldeck.engine.filesystem._scan_helpers import ScanHelpers
from skilldeck.engine.registry import (
    DirectoryResourceBase,
    LookupOptions,
    ProviderControl,
    ProviderFactory,
    ProviderObservation,
    SkillCandidate,
    SkillDefinition,
    SkillProvider,
    group_by_name,
)
from skilldeck.engine.rules import Finding, Severity
from skilldeck.engine.safety import ScanCoverage
from skilldeck.engine.text import FILE_START, Span, trim_body

if TYPE_CHECKING:  # the gate module imports asyncio, which `check` never needs
    from skilldeck.engine.filesystem._watch_gate import WatchGate

PROVIDER_NAME = "filesystem"
#: The logger a provider reports each skill file it refuses on (once per file version).
SKIPPED_LOGGER = "skilldeck.engine.filesystem.skipped"
#: How long a watched scan waits for the watcher's first listing of its roots.
LISTING_WAIT_S = 5.0


#: errno values that mean "this file is in a permanent bad state", not a transient fault.
_PERMANENT_ERRNOS = frozenset(
    {errno.EACCES, errno.EPERM, errno.ELOOP, errno.EISDIR, errno.ENAMETOOLONG, errno.EINVAL}
)


@dataclass(frozen=True)
class SkillFileEntry:
    """One skill file found in a root, with its analysis.

    ``path`` is the ``SKILL.md`` or ``<name>.md``; ``folder`` the bundle folder (``None``
    for a flat skill); ``expected_name`` the folder name or flat file stem;
    ``name_span`` where the ``name`` value is (kept beside cached analyses, which do
    not carry the frontmatter). ``listed``: where an agent other than the engine lists
    the file (an agent's view, :mod:`skilldeck.engine.host_views`), the name and the
    entry text its listing shows; ``None``: the engine's reading (the analysis).
    """

    root: SkillRoot
    layout: Layout
    path: str
    folder: str | None
    expected_name: str
    analysis: SkillFileAnalysis
    name_span: Span = FILE_START
    listed: tuple[str, str] | None = None
    #: The file's identity when the scan refused it (the version a skip is reported
    #: for, :class:`FilesystemProvider`); ``None`` for an accepted file, or when unknown.
    identity: FileIdentity | None = field(default=None, compare=False)

    @property
    def resource_dir(self) -> str:
        """The folder relative resources resolve against (the root for a flat skill)."""
        return self.folder if self.folder is not None else self.root.path


@dataclass(frozen=True)
class SkippedFile:
    """A skill file the engine refused, and why, in ``check``'s words.

    ``code`` and ``message`` are those of the first finding that drops the skill, as
    ``check`` reports it (a dropping rule switched off: its code and summary).
    ``expected_name`` is the bundle folder or flat file stem, ``name`` the frontmatter
    name when it has one (a user may ask for the skill by either).
    """

    path: str
    expected_name: str
    name: str | None
    code: str
    message: str


def skipped_file(entry: SkillFileEntry) -> SkippedFile | None:
    """Why the engine refuses ``entry`` (``None``: it is a skill). The verdict is the
    analysis' own: the findings ``check`` reports, never a second reading."""
    analysis = entry.analysis
    if analysis.accepted:
        return None
    dropped = next(iter(analysis.refusals), None)
    if dropped is not None:
        code, message = dropped.code, dropped.message
    elif analysis.engine_drops:
        from skilldeck.engine.rules import rule  # noqa: PLC0415 - the table, only here

        code = analysis.engine_drops[0]
        message = f"{rule(code).summary} (rule switched off; skill not loaded)"
    else:  # every refusal has a dropping finding; this is a safety net
        errors = [f for f in analysis.findings if f.severity == Severity.ERROR]
        code = errors[0].code if errors else ""
        message = errors[0].message if errors else "not a valid skill (skill not loaded)"
    name = analysis.name if isinstance(analysis.name, str) else None
    return SkippedFile(entry.path, entry.expected_name, name, code, message)


@dataclass(frozen=True)
class FileLocator:
    """The ``SkillCandidate.locator`` this provider hands out and reads back in ``get``."""

    path: str
    expected_name: str
    resource_dir: str
    #: Why a gate that requires safe skills refuses this one (its error-level SD10xx
    #: findings, :mod:`skilldeck.engine.filesystem._safety_gate`); ``None`` when it has none.
    refusal: Refusal | None = None
    #: Serve only the files of its bundle the safety scan reads in full, whatever the
    #: server's own gate: a skill of a source whose ``require`` gate vouched for what the
    #: scan read, and nothing else (:func:`served_scanned_only`).
    scanned_only: bool = False


@dataclass(frozen=True)
class RootScan:
    """The entries of one root; ``problems`` are human-readable notes (why incomplete)."""

    root: SkillRoot
    entries: tuple[SkillFileEntry, ...]
    complete: bool
    problems: tuple[str, ...] = ()
    strays: tuple[tuple[str, Finding], ...] = ()


@dataclass(frozen=True)
class DeckScan:
    """Every root of a deck scanned: the entries, their candidates and their findings."""

    roots: tuple[SkillRoot, ...]
    scans: tuple[RootScan, ...]
    complete: bool
    provider_name: str = PROVIDER_NAME
    settings: RuleSettings | None = None

    def entries(self) -> list[SkillFileEntry]:
        """Every entry, accepted or not, in rank then provider order."""
        return [entry for scan in self.scans for entry in scan.entries]

    def candidates(self) -> list[SkillCandidate]:
        """The accepted entries as registry candidates (winners and shadowed alike)."""
        return [
            to_candidate(entry, self.provider_name)
            for entry in self.entries()
            if entry.analysis.accepted
        ]

    def groups(self) -> dict[str, list[SkillFileEntry]]:
        """Accepted entries grouped by skill name, winner first (``group_by_name``)."""
        accepted = [entry for entry in self.entries() if entry.analysis.accepted]
        return group_by_name(accepted, entry_name_and_rank)


def entry_name_and_rank(entry: SkillFileEntry) -> tuple[str, int]:
    """The ``group_by_name`` key of an accepted entry (what its candidate would carry)."""
    assert entry.analysis.name is not None
    return entry.analysis.name, entry.root.rank


def to_candidate(
    entry: SkillFileEntry, provider_name: str = PROVIDER_NAME, *, scanned_only: bool = False
) -> SkillCandidate:
    """The registry candidate of an accepted entry (``scanned_only``: see
    :attr:`FileLocator.scanned_only`)."""
    analysis = entry.analysis
    assert analysis.name is not None and analysis.description is not None
    metadata = analysis.metadata
    return SkillCandidate(
        name=analysis.name,
        description=analysis.description,
        source=entry.root.source,
        provider=provider_name,
        invocation=analysis.invocation,
        when_to_use=analysis.when_to_use,
        resource_base=DirectoryResourceBase(entry.resource_dir),
        rank=entry.root.rank,
        locator=FileLocator(
            entry.path,
            entry.expected_name,
            entry.resource_dir,
            analysis_refusal(analysis),
            scanned_only,
        ),
        path=entry.path,
        metadata=dict(metadata) if metadata is not None else None,
    )


def refusal_of(candidate: SkillCandidate) -> Refusal | None:
    """Why ``candidate`` has error-level safety findings, as the deck read judged it
    (``None``: it has none, or it is no skill file: other providers' skills pass their
    own gates, e.g. a source's ``require``)."""
    locator = candidate.locator
    return locator.refusal if isinstance(locator, FileLocator) else None


def served_scanned_only(candidate: SkillCandidate) -> bool:
    """Whether only the bundle files the safety scan reads in full may be served of
    ``candidate`` even without a gate of the server's own (a ``require`` source's)."""
    locator = candidate.locator
    return isinstance(locator, FileLocator) and locator.scanned_only


def is_file_skill(candidate: SkillCandidate) -> bool:
    """Whether ``candidate`` is a skill file this provider (or a git source's) found."""
    return isinstance(candidate.locator, FileLocator)


def judge_files(
    candidate: SkillCandidate,
    data: bytes,
    settings: RuleSettings,
    *,
    coverage: ScanCoverage | None = None,
    served: Mapping[str, bytes] | None = None,
) -> Refusal | None:
    """The gate's verdict on ``candidate`` as it is about to be served: its skill file as
    ``data`` and its bundle files as ``served`` (the bytes read once; see
    :func:`~skilldeck.engine.filesystem._safety_gate.judge_served`). ``None`` for other
    providers' skills (they pass their own gates)."""
    locator = candidate.locator
    if not isinstance(locator, FileLocator):
        return None
    return judge_served(
        locator.path,
        locator.expected_name,
        data,
        settings,
        coverage=coverage,
        served=served,
    )


def refusal_now(candidate: SkillCandidate, settings: RuleSettings) -> Refusal | None:
    """:func:`refusal_of` ``candidate`` as its files are now: its skill file and every file
    of its bundle judged again under ``settings`` (a script beside or below ``SKILL.md``
    may have changed since the deck was read, and a root watcher does not see every
    depth of a bundle). ``None`` for other providers' skills (they pass their own gates)."""
    return load_judged(candidate, settings).refusal


@dataclass(frozen=True)
class JudgedSkill:
    """A skill file read once: the definition its bytes give (``None`` when it is gone,
    now rejected, or names another skill) and the safety verdict on those same bytes and
    its bundle's other files (``None``: safe)."""

    definition: SkillDefinition | None
    refusal: Refusal | None = None


def load_judged(
    candidate: SkillCandidate, settings: RuleSettings, provider_name: str | None = None
) -> JudgedSkill:
    """Read ``candidate``'s skill file once and judge those bytes: what ``get`` serves
    (its body from the same read as its verdict) and why a gate would refuse it
    (blocking: run it in a thread). ``JudgedSkill(None)`` for a skill of another
    provider."""
    locator = candidate.locator
    if not isinstance(locator, FileLocator):
        return JudgedSkill(None)
    try:
        data = read_skill_bytes(locator.path)
    except SkillReadError:
        return JudgedSkill(None)  # gone or unreadable: nothing is served
    analysis = with_bundle_findings(
        analyze_skill_bytes(
            data, path=locator.path, expected_name=locator.expected_name, settings=settings
        ),
        settings,
    )
    refusal = analysis_refusal(analysis)
    if not analysis.accepted or analysis.name is None or analysis.description is None:
        return JudgedSkill(None, refusal)
    try:
        body = body_of(decode_skill_bytes(data))
    except SkillReadError:
        return JudgedSkill(None, refusal)
    definition = SkillDefinition(
        name=analysis.name,
        description=analysis.description,
        source=candidate.source,
        provider=provider_name or candidate.provider,
        invocation=analysis.invocation,
        when_to_use=analysis.when_to_use,
        resource_base=DirectoryResourceBase(locator.resource_dir),
        content=trim_body(body),
        path=locator.path,
        metadata=dict(analysis.metadata) if analysis.metadata is not None else None,
    )
    return JudgedSkill(definition, refusal)


def name_span(analysis: SkillFileAnalysis) -> Span:
    """The span of the ``name`` value, or the start of the file when unknown."""
    frontmatter = analysis.frontmatter
    entry = frontmatter.get("name") if frontmatter is not None else None
    return entry.value_span if entry is not None else FILE_START


# --------------------------------------------------------------------------- scanning


@dataclass(frozen=True)
class _Task:
    name: str
    layout: Layout
    path: str
    folder: str | None
    expected_name: str
    child: str


@dataclass(frozen=True)
class _Outcome:
    entry: SkillFileEntry | None
    problem: str | None = None


def classify_path(path: str, roots: Iterable[SkillRoot]) -> tuple[SkillRoot, Layout, str] | None:
    """Which root and layout ``path`` is a skill file of, and its expected name.

    The layout rule is :func:`skilldeck.engine.filesystem._layout.place_in_root`; the
    lowest-ranked matching root wins.
    """
    place = skill_place(path, roots)
    return None if place is None else (place.root, place.layout, place.expected_name)


@dataclass(frozen=True)
class _Listing:
    tasks: tuple[_Task, ...]
    complete: bool
    problems: tuple[str, ...]


def root_state(root: SkillRoot) -> str | None:
    """Why ``root`` holds no skills, as ``skilldeck roots`` shows it: ``"missing"``, ``"not
    a folder"`` or ``"cannot be listed: <reason>"``; ``None`` for a folder that lists.
    The scan decides the same way (:func:`_list_root`)."""
    try:
        with os.scandir(root.path):
            return None
    except OSError as error:
        return _unlisted_root(root, error)[0]


def _unlisted_root(root: SkillRoot, error: OSError) -> tuple[str, bool, str | None]:
    """A root whose listing failed with ``error``: its state (:func:`root_state`),
    whether a scan of it is complete, and the problem a scan reports (``None``: none)."""
    if isinstance(error, (FileNotFoundError, NotADirectoryError)):
        if os.path.lexists(root.path) and not os.path.isdir(root.path):
            problem = f"{root.path}: skill root is not a folder; nothing scanned"
            # a dangling symlink is as good as missing; a file is not a folder
            return ("not a folder" if os.path.exists(root.path) else "missing"), True, problem
        return "missing", True, None
    state = f"cannot be listed: {_reason(error)}"
    if error.errno in _PERMANENT_ERRNOS:
        # A state that lasts (a symlink loop, no permission): as good as missing, and
        # said; it must not keep every read incomplete (no catalog would be complete).
        return state, True, f"{root.path}: skill root {state}; nothing scanned"
    return state, False, f"{root.path}: cannot list skill root: {_reason(error)}"


def _list_root(root: SkillRoot) -> _Listing:
    problems: list[str] = []
    complete = True
    tasks: list[_Task] = []
    try:
        with os.scandir(root.path) as listing:
            children = sorted((entry.name, entry) for entry in listing)
    except OSError as error:
        children = []
        _, complete, problem = _unlisted_root(root, error)
        if problem is not None:
            problems.append(problem)
    for name, dirent in children:
        if name in root.skip_names:
            continue
        try:
            found = listed_child_layout(dirent)
        except OSError as error:
            # Symlink loops and unreadable link targets are passed over; only an
            # unexpected error is a reason to distrust the listing.
            if error.errno not in _PERMANENT_ERRNOS:
                complete = False
                problems.append(f"{dirent.path}: cannot inspect: {_reason(error)}")
            continue
        if found is not None:
            layout, child, expected = found
            folder = os.path.join(root.path, name) if layout == "bundle" else None
            path = os.path.join(root.path, *child.split("/"))
            tasks.append(_Task(name, layout, path, folder, expected, child))
    return _Listing(tuple(tasks), complete, tuple(problems))


def scan_root(
    root: SkillRoot,
    settings: RuleSettings,
    *,
    cache: IndexCache | None = None,
    overlay: Mapping[str, str] | None = None,
) -> RootScan:
    """Scan one root (see the module doc for what is complete and what is not).

    ``overlay`` maps absolute paths to unsaved text; an overlaid file of this root is
    judged by that text, whether or not it exists on disk. Files are read and parsed on
    the calling thread (see :func:`scan_deck` for helper processes).
    """
    root_cache = cache.open_root(root.path, settings) if cache is not None else None
    return _scan_listed(
        root, _list_root(root), settings, root_cache, _overlay_for(root, overlay), None
    )


def _scan_listed(  # noqa: PLR0917 - internal; each argument is per root
    root: SkillRoot,
    listing: _Listing,
    settings: RuleSettings,
    root_cache: RootCache | None,
    overlaid: Mapping[str, tuple[Layout, str, str]],
    helpers: ScanHelpers | None,
    on_file: Callable[[], None] | None = None,
) -> RootScan:
    complete = listing.complete
    problems = list(listing.problems)
    on_disk = [task for task in listing.tasks if task.path not in overlaid]
    done: list[_Outcome] = []
    for task in on_disk:
        done.append(_scan_file(root, task, settings, root_cache, helpers))
        if on_file is not None:
            on_file()
    if root_cache is not None:
        root_cache.flush()

    entries: list[tuple[str, SkillFileEntry]] = []
    strays: list[tuple[str, Finding]] = []
    for task, outcome in zip(on_disk, done, strict=True):
        if outcome.problem is not None:
            complete = False
            problems.append(outcome.problem)
        if outcome.entry is not None:
            entries.append((task.name, outcome.entry))
        elif task.layout == "bundle" and outcome.problem is None:
            for path, place in stray_files(root, task.name):
                finding = place.finding(settings)
                if finding is not None:
                    strays.append((path, finding))
    for path, (layout, expected, text) in overlaid.items():
        bundle_dir = os.path.dirname(path) if layout == "bundle" else None
        analysis = analyze_skill_text(
            text,
            path=path,
            expected_name=expected,
            settings=settings,
            bom=buffer_has_bom(text, path),
        )
        sort_name = expected if layout == "bundle" else expected + FLAT_SUFFIX
        overlay_entry = SkillFileEntry(
            root, layout, path, bundle_dir, expected, analysis, name_span(analysis)
        )
        entries.append((sort_name, overlay_entry))
    entries.sort(key=lambda pair: pair[0])
    return RootScan(
        root, tuple(entry for _, entry in entries), complete, tuple(problems), tuple(strays)
    )


def scan_deck(
    config: SkilldeckConfig,
    cwd: str | os.PathLike[str] | None,
    *,
    cache: IndexCache | None = None,
    overlay: Mapping[str, str] | None = None,
    roots: Sequence[SkillRoot] | None = None,
    provider_name: str = PROVIDER_NAME,
    on_root: Callable[[int, SkillRoot], None] | None = None,
    on_files: Callable[[int, int], None] | None = None,
    processes: int = 1,
) -> DeckScan:
    """Scan every root of ``config`` for ``cwd`` (or the given ``roots``) in rank order.

    ``on_root(index, root)`` is called before each root is scanned (progress reporting);
    ``on_files(done, total)`` after each skill file on disk is judged, ``total`` being
    the count of every root's listing (the caller throttles what it shows).
    ``processes > 1`` lets the scan fork helper processes (:mod:`scan_helpers`) for the
    files the cache does not hold, when there are enough of them; only single-threaded
    callers may ask for that. The result is the same either way.

    The garbage collector is left as the caller has it (the CLI and the language server
    pause it around their scans; a host embedding the engine keeps its own settings).
    """
    deck_roots = tuple(roots) if roots is not None else resolve_roots(config, cwd)
    settings = config.rule_settings()
    scans: list[RootScan] = []
    listings = [_list_root(root) for root in deck_roots]
    caches = [
        cache.open_root(root.path, settings) if cache is not None else None for root in deck_roots
    ]
    overlays = [_overlay_for(root, overlay) for root in deck_roots]
    helpers = None
    if processes > 1:
        jobs = [
            (task.path, task.expected_name)
            for listing, root_cache, overlaid in zip(listings, caches, overlays, strict=True)
            for task in listing.tasks
            if task.path not in overlaid
            and (root_cache is None or not root_cache.holds(task.child))
        ]
        helpers = ScanHelpers.start(jobs, processes, partial(_helper_record, settings=settings))
    counted: Callable[[], None] | None = None
    if on_files is not None:
        total = sum(
            1
            for listing, overlaid in zip(listings, overlays, strict=True)
            for task in listing.tasks
            if task.path not in overlaid
        )
        progress = itertools.count(1)

        def counted() -> None:
            on_files(next(progress), total)

    try:
        for index, root in enumerate(deck_roots):
            if on_root is not None:
                on_root(index, root)
            scans.append(
                _scan_listed(
                    root,
                    listings[index],
                    settings,
                    caches[index],
                    overlays[index],
                    helpers,
                    counted,
                )
            )
    finally:
        if helpers is not None:
            helpers.close()
    return DeckScan(
        roots=deck_roots,
        scans=tuple(scans),
        complete=all(scan.complete for scan in scans),
        provider_name=provider_name,
        settings=settings,
    )


def _helper_record(path: str, expected: str, *, settings: RuleSettings) -> dict[str, Any] | None:
    """In a helper process: the cache record of one file, or ``None`` to leave it to the
    scan (not a regular file, racily fresh, changed while read; errors raise)."""
    st = os.stat(path)
    identity = FileIdentity.of(st)
    if not stat.S_ISREG(st.st_mode) or identity.mtime_ns >= time.time_ns() - RACY_WINDOW_NS:
        return None
    analysis = analyze_skill_bytes(
        read_skill_bytes(path), path=path, expected_name=expected, settings=settings
    )
    if FileIdentity.of(os.stat(path)) != identity:
        return None
    return make_record(identity, analysis, name_span(analysis))


def _scan_file(
    root: SkillRoot,
    task: _Task,
    settings: RuleSettings,
    root_cache: RootCache | None,
    helpers: ScanHelpers | None,
) -> _Outcome:
    identity: FileIdentity | None = None

    def entry(analysis: SkillFileAnalysis, span: Span | None = None) -> SkillFileEntry:
        # The parsed frontmatter is not kept (a cached analysis has none either).
        # the bundle's other files are judged fresh: the cache keys on SKILL.md only
        kept = with_bundle_findings(analysis, settings).without_frontmatter()
        return SkillFileEntry(
            root,
            task.layout,
            task.path,
            task.folder,
            task.expected_name,
            kept,
            name_span(analysis) if span is None else span,
            identity=None if kept.accepted else identity,
        )

    def fallback(problem: str | None) -> _Outcome:
        # analyze_skill_file turns any I/O problem into a finding without raising.
        analysis = analyze_skill_file(
            task.path, expected_name=task.expected_name, settings=settings
        )
        return _Outcome(entry(analysis), problem)

    try:
        st = os.stat(task.path)
    except (FileNotFoundError, NotADirectoryError):
        return _Outcome(None)  # a folder without SKILL.md, or a file that just vanished
    except OSError as error:
        return fallback(_transient(task.path, error))
    identity = FileIdentity.of(st)
    if not stat.S_ISREG(st.st_mode):
        return fallback(None)  # never opened: skill_file refuses non-regular files
    if root_cache is not None:
        cached = root_cache.lookup(task.child, identity)
        if cached is not None:
            return _Outcome(entry(*cached))
    if helpers is not None:
        record = helpers.record(task.path)
        prepared = read_record(record, identity)
        if record is not None and prepared is not None:
            if root_cache is not None:
                root_cache.store_record(task.child, identity, record)
            return _Outcome(entry(*prepared))
    try:
        data = read_skill_bytes(task.path)
    except SkillReadError as error:
        cause = error.os_error
        if isinstance(cause, (FileNotFoundError, NotADirectoryError)):
            return _Outcome(None)
        problem = _transient(task.path, cause) if cause is not None else None
        return fallback(problem)
    analysis = analyze_skill_bytes(
        data, path=task.path, expected_name=task.expected_name, settings=settings
    )
    if root_cache is not None:
        try:
            unchanged = FileIdentity.of(os.stat(task.path)) == identity
        except OSError:
            unchanged = False
        if unchanged:
            root_cache.store(task.child, identity, analysis, name_span(analysis))
    return _Outcome(entry(analysis))


def _overlay_for(
    root: SkillRoot, overlay: Mapping[str, str] | None
) -> dict[str, tuple[Layout, str, str]]:
    result: dict[str, tuple[Layout, str, str]] = {}
    if not overlay:
        return result
    for raw_path, text in overlay.items():
        path = os.path.normpath(os.path.abspath(raw_path))
        found = classify_path(path, (root,))
        if found is not None:
            _, layout, expected = found
            result[path] = (layout, expected, text)
    return result


def _transient(path: str, error: OSError) -> str | None:
    if error.errno in _PERMANENT_ERRNOS:
        return None
    return f"{path}: cannot read: {_reason(error)}"


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


# --------------------------------------------------------------------------- provider


class FilesystemProvider:
    """The ``filesystem`` skill provider: SPEC section 3 roots for each lookup cwd.

    ``list`` scans in a worker thread and returns every accepted candidate (winners and
    shadowed ones; the registry resolves). An incomplete scan, or a failed watcher,
    gives ``ProviderObservation(complete=False)`` with the readable candidates. ``get``
    rereads the file: a fresh analysis and a fresh body, ``None`` when the file is gone
    or now rejected.

    Each skill file ``list`` finds and refuses is logged at WARNING on
    :data:`SKIPPED_LOGGER` (``skill file PATH ignored: CODE message``; the record's
    ``skipped_file`` attribute is the :class:`SkippedFile`), once per file version and
    verdict: a deck read again and again (a 10,000-skill deck, every turn) reports a
    broken file once, and again only once it changed and is still refused.
    """

    def __init__(
        self,
        config: SkilldeckConfig,
        *,
        cache: IndexCache | None = None,
        name: str = PROVIDER_NAME,
        processes: int = 1,
    ) -> None:
        self._config = config
        self._cache = cache
        self._name = name
        self._processes = processes
        self._watcher: _WatchHook | None = None
        #: The version (identity, code, message) each refused file was last logged for.
        self._skips_logged: dict[str, tuple[FileIdentity | None, str, str]] = {}

    @property
    def name(self) -> str:
        """The provider name (``filesystem``)."""
        return self._name

    @property
    def config(self) -> SkilldeckConfig:
        """The configuration the provider scans with."""
        return self._config

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate] | ProviderObservation:
        """Scan the roots for ``options.cwd`` (no project roots when it is ``None``)."""
        import asyncio  # noqa: PLC0415 - scans for the CLI need no event loop

        roots = resolve_roots(self._config, options.cwd)
        watch_ok = True
        watcher = self._watcher
        if watcher is not None:
            watch_ok = watcher.observe(roots)
            await watcher.hold_for_scan()
        try:
            scan = await asyncio.to_thread(
                scan_deck,
                self._config,
                options.cwd,
                cache=self._cache,
                roots=roots,
                provider_name=self._name,
                processes=self._processes,
            )
        finally:
            if watcher is not None:
                watcher.release_after_scan()
        self._log_skipped(scan)
        candidates = scan.candidates()
        if scan.complete and watch_ok:
            return candidates
        return ProviderObservation(candidates, complete=False)

    def _log_skipped(self, scan: DeckScan) -> None:
        """Log each refused file of ``scan`` not yet logged in this version."""
        logged = self._skips_logged
        logger: logging.Logger | None = None
        for entry in scan.entries():
            if entry.analysis.accepted:
                if logged:
                    logged.pop(entry.path, None)  # refused again later: said again
                continue
            skipped = skipped_file(entry)
            if skipped is None:
                continue
            version = (entry.identity, skipped.code, skipped.message)
            if logged.get(entry.path) == version:
                continue
            logged[entry.path] = version
            logger = logger or logging.getLogger(SKIPPED_LOGGER)
            logger.warning(
                "skill file %s ignored: %s %s",
                skipped.path,
                skipped.code,
                skipped.message,
                extra={"skipped_file": skipped},
            )

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        """Reread ``candidate``'s file once (its verdict and its body come from the same
        bytes); ``None`` when it vanished or is now rejected."""
        import asyncio  # noqa: PLC0415 - scans for the CLI need no event loop

        if not isinstance(candidate.locator, FileLocator):
            return None
        settings = self._config.rule_settings()
        judged = await asyncio.to_thread(load_judged, candidate, settings, self._name)
        return judged.definition

    def attach_watcher(self, hook: _WatchHook) -> None:
        """Used by :func:`filesystem_provider_factory` to watch the roots ``list`` sees."""
        self._watcher = hook

    async def aclose(self) -> None:
        """Stop watching (if a watcher is attached)."""
        if self._watcher is not None:
            await self._watcher.aclose()


class _WatchHook:
    """Glue between a provider's lookups and a :class:`RootWatcher` (created lazily)."""

    def __init__(
        self, invalidate: Callable[[], None], debounce_ms: int, gate: WatchGate | None = None
    ) -> None:
        from skilldeck.engine.filesystem._watch import RootWatcher  # noqa: PLC0415

        self._invalidate = invalidate
        self._debounce_ms = debounce_ms
        self._gate = gate
        self._watcher: RootWatcher | None = None
        self._closed = False
        self._factory = RootWatcher
        self._scans = 0

    def observe(self, roots: Sequence[SkillRoot]) -> bool:
        """Watch ``roots`` too; False when the watcher is unhealthy (or cannot start)."""
        if self._closed:
            return True
        try:
            if self._watcher is None:
                self._watcher = self._factory(
                    roots,
                    lambda _paths: self._invalidate(),
                    debounce_ms=self._debounce_ms,
                    on_error=lambda _error: self._invalidate(),
                )
                self._watcher.start()
            else:
                self._watcher.add_roots(roots)
        except (OSError, RuntimeError):
            return False
        return self._watcher.healthy

    async def hold_for_scan(self) -> None:
        """Before a scan: wait until every root's listing is taken (so no change made
        during the scan is lost; at most :data:`LISTING_WAIT_S`), and keep watches from
        going live until :meth:`release_after_scan`, so the scan's thousands of file
        opens do not each cost the watch threads an inotify event, as the language
        server holds its watcher. On a 10,000-skill deck the process's CPU during a cold
        scan fell from 1.2-1.4 s to 0.75-0.8 s (setting up the watches comes after it)."""
        import asyncio  # noqa: PLC0415 - scans for the CLI need no event loop

        self._scans += 1
        watcher = self._watcher
        if watcher is None:
            return
        if self._scans == 1:
            watcher.hold()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watcher.wait_listed(), LISTING_WAIT_S)

    def release_after_scan(self) -> None:
        """After a scan: let held watches go live once no scan is running (and the
        gate, if there is one, is open)."""
        self._scans -= 1
        if self._gate is not None:
            self._gate.when_open(self._release_if_idle)
        else:
            self._release_if_idle()

    def _release_if_idle(self) -> None:
        if self._scans == 0 and self._watcher is not None:
            self._watcher.release(self._gate.quiet if self._gate is not None else None)

    async def aclose(self) -> None:
        self._closed = True
        if self._watcher is not None:
            await self._watcher.aclose()

    def close_soon(self) -> None:
        """Close from a synchronous callback (the registration's abort signal)."""
        import asyncio  # noqa: PLC0415 - scans for the CLI need no event loop

        self._closed = True
        watcher = self._watcher
        if watcher is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            watcher.stop_nowait()
            return
        task = loop.create_task(watcher.aclose())
        watcher.keep_closing_task(task)


def filesystem_provider_factory(
    config: SkilldeckConfig,
    *,
    watch: bool = False,
    cache: IndexCache | None = None,
    debounce_ms: int = 200,
    processes: int = 1,
    watch_gate: WatchGate | None = None,
) -> ProviderFactory:
    """A factory for ``SkillRegistry.register_provider``.

    With ``watch=True`` every root a lookup uses is watched (SPEC section 6); a relevant
    change calls ``control.invalidate()``, and the watcher stops when ``control.signal``
    aborts (the registration is disposed). A scan takes the watcher's listing of its
    roots first and keeps the watches from going live until it ends (nothing is lost:
    what changed meanwhile is reported once they are live). ``processes`` is passed to
    :func:`scan_deck` by every ``list`` (helpers fork only for a scan with many uncached
    files). With a ``watch_gate`` the watches go live only once the gate is open as well
    (:mod:`~skilldeck.engine.filesystem._watch_gate`).
    """

    def create(control: ProviderControl) -> SkillProvider:
        provider = FilesystemProvider(config, cache=cache, processes=processes)
        if watch:
            hook = _WatchHook(control.invalidate, debounce_ms, watch_gate)
            provider.attach_watcher(hook)
            control.signal.add_callback(lambda _reason: hook.close_soon())
        return provider

    return create
