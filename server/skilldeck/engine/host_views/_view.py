"""Which host loads which skill file, and what its catalog keeps of it.

One scan covers every host's roots at once (the engine's own scan, so the persistent
cache serves it); each host then judges the files of its roots by its data in
:mod:`skilldeck.engine.hosts`. DSH is judged by the engine itself: its verdicts are
``check``'s (accepted, then rank and registration order). Reasons are written for the
author: "nested two levels below .claude/skills", "symlinked folder: not followed",
"flat file: Codex reads bundles only", "name differs from folder", "shadowed by ...".

Each host's catalog of the skills it loads is measured by
:mod:`skilldeck.engine.hosts`. (The CLI's memo key of a view is
``cli/check_memo.view_key``.)
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from skilldeck.engine.config import RuleSettings, SkilldeckConfig
from skilldeck.engine.files import (
    SkillFileAnalysis,
    SkillReadError,
    analyze_skill_file,
    decode_skill_bytes,
    read_skill_bytes,
)
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    DeckScan,
    IndexCache,
    NotASkill,
    SkillFileEntry,
    SkillRoot,
    find_project_root,
    name_span,
    place_in_root,
    resolve_roots,
    scan_deck,
)
from skilldeck.engine.frontmatter import parse_frontmatter
from skilldeck.engine.host_views._walk import MAX_LEVELS, DeepFile, deep_skill_files
from skilldeck.engine.hosts import (
    BudgetReport,
    CatalogState,
    Host,
    HostRoot,
    Offer,
    budget_from_lengths,
    listed_line,
)
from skilldeck.engine.registry import RANK_CUSTOM, group_by_name, is_skill_name
from skilldeck.engine.text import FILE_START, Span, catalog_description, collapse_whitespace

if TYPE_CHECKING:
    from skilldeck.engine.deck import ProvidedSkill

#: The source label of a root only a non-DSH host reads.
SOURCE_HOST = "host"
_LEVELS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(frozen=True)
class FoundFile:
    """A Markdown file found in some host's root: a skill file by the layout
    (``analysis`` set) or a file nested too deep (``nested`` says why)."""

    path: str
    root: SkillRoot
    layout: Literal["bundle", "flat", "nested"]
    folder: str | None
    expected_name: str
    analysis: SkillFileAnalysis | None
    nested: str | None = None
    #: Where the file sits when it is two or more folders below its root.
    deep: DeepFile | None = None
    #: Where the ``name`` value is (the scan's, which keeps no frontmatter to find it in).
    name_span: Span = FILE_START

    @cached_property
    def name(self) -> str:
        """The skill's name as the frontmatter gives it, else its folder or stem."""
        if self.analysis is not None and self.analysis.name is not None:
            return self.analysis.name
        return self.expected_name


@dataclass(frozen=True)
class HostLoad:
    """One host's verdict on one file: does it load it, why not, and its catalog state
    (``None`` when the host does not load the file)."""

    host: str
    path: str
    name: str
    loads: bool
    reason: str | None
    catalog: CatalogState | None
    #: The file that wins the name when this one is shadowed (the reason names it).
    shadowed_by: str | None = None
    #: Where the host keeps every same-named skill (Codex): the other loaded files with
    #: this name, so the model sees two or more entries with one name (SD903).
    same_name: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Placed:
    """One concrete folder a host reads, in the host's precedence order."""

    spec: HostRoot | None
    root: SkillRoot


@dataclass(frozen=True)
class HostsView:
    """Every file found in the hosts' roots and each host's verdict on it.

    ``provided``: the deck's skills from its other providers (bundled, ``--provider``,
    remote sources), by key (:func:`provided_key`): DSH judges them with the files, as
    the engine does; the other hosts read files only."""

    hosts: tuple[Host, ...]
    files: tuple[FoundFile, ...]
    verdicts: Mapping[str, Mapping[str, HostLoad]]
    catalogs: Mapping[str, BudgetReport]
    complete: bool
    provided: Mapping[str, ProvidedSkill] = dataclasses.field(default_factory=dict)

    def rows(self) -> list[tuple[str, str]]:
        """Each skill of the view as ``(name, key)``: the files, then the provided skills
        (the key is the path, or ``provider:name`` for a provided skill without one)."""
        rows = [(found.name, found.path) for found in self.files]
        rows.extend((skill.name, key) for key, skill in self.provided.items())
        return rows

    def loads_of(self, host: str) -> list[HostLoad]:
        """The host's verdicts on the files of its roots (and, for DSH, the provided
        skills), in file order."""
        table = self.verdicts[host]
        return [table[key] for _name, key in self.rows() if key in table]

    def competing_entries(self, host: str) -> list[SkillFileEntry]:
        """The skill files ``host`` lists to its model (its folders, name rules,
        precedence and ``disable-model-invocation`` as it reads them), each carrying the
        name and entry text that host shows (:attr:`SkillFileEntry.listed`, cut at its
        own per-entry cap), in file order: what competes for its model's choice
        (SD801/SD802 "for H", ``overlap --host H``)."""
        agent = next(item for item in self.hosts if item.name == host)
        table = self.verdicts.get(host, {})
        cap = agent.catalog.entry_cap
        listed: list[SkillFileEntry] = []
        for found in self.files:
            verdict = table.get(found.path)
            if verdict is None or not verdict.loads or found.analysis is None:
                continue
            if found.layout == "nested" or not _listed(agent, found):
                continue
            text = _entry_text(agent, found)
            if cap is not None:
                text = catalog_description(text, max(cap, 3))
            listed.append(
                SkillFileEntry(
                    found.root,
                    found.layout,
                    found.path,
                    found.folder,
                    found.expected_name,
                    found.analysis,
                    found.name_span,
                    (verdict.name, text),
                )
            )
        return listed


def provided_key(skill: ProvidedSkill) -> str:
    """A provided skill's key in a view: its file, else ``provider:name``."""
    path = skill.candidate.path
    return path if path is not None else f"{skill.provider}:{skill.name}"


def host_roots(host: Host, config: SkilldeckConfig, cwd: str) -> list[_Placed]:
    """The concrete folders ``host`` reads for ``cwd``, in its precedence order."""
    if host.engine_roots:
        return [_Placed(None, root) for root in resolve_roots(config, cwd)]
    project = find_project_root(cwd)
    home = os.path.expanduser("~")
    placed: list[_Placed] = []
    for spec in host.roots:
        if spec.scope == "user":
            if not (config.include_default_roots and config.include_user_roots):
                continue
            bases = [home]
        elif spec.walk == "cwd-to-root":
            bases = _walk_up(cwd, str(project))
        elif spec.walk == "cwd":
            bases = [os.path.abspath(cwd)]
        else:
            bases = [str(project)]
        for base in bases:
            path = os.path.normpath(os.path.join(base, spec.path))
            root = SkillRoot(RANK_CUSTOM, SOURCE_HOST, path, os.path.isdir(path))
            placed.append(_Placed(spec, root))
    return placed


def scanned_roots(
    hosts: Sequence[Host], config: SkilldeckConfig, cwd: str
) -> tuple[SkillRoot, ...]:
    """Every folder one of ``hosts`` reads, each once (what :func:`build_view` scans)."""
    return _union(host_roots(host, config, cwd) for host in hosts)


def walk_levels(hosts: Sequence[Host]) -> int:
    """How deep below a root :func:`build_view` looks for ``SKILL.md`` files for
    ``hosts``: the deepest any of them reads, and at least one folder deeper than the
    layout (so a host that reads one level can say "nested two levels")."""
    levels = 2
    for host in hosts:
        if not host.engine_roots:
            levels = max(levels, host.nesting + 1 if host.nesting is not None else MAX_LEVELS)
    return min(levels, MAX_LEVELS)


def _union(placements: Iterable[Sequence[_Placed]]) -> tuple[SkillRoot, ...]:
    """Each folder once; DSH's own root (its rank and skipped names) where it has one."""
    union: dict[str, SkillRoot] = {}
    for placed in placements:
        for item in placed:
            known = union.get(item.root.path)
            if known is None or (known.source == SOURCE_HOST and item.spec is None):
                union[item.root.path] = item.root
    return tuple(union.values())


def _walk_up(cwd: str, project: str) -> list[str]:
    current = os.path.abspath(cwd)
    found = [current]
    while current != project and os.path.dirname(current) != current:
        current = os.path.dirname(current)
        found.append(current)
    return found


def build_view(
    hosts: Sequence[Host],
    config: SkilldeckConfig,
    cwd: str,
    *,
    cache: IndexCache | None = None,
    context_tokens: int | None = None,
    processes: int = 1,
    provided: Sequence[ProvidedSkill] = (),
) -> HostsView:
    """Scan every root of ``hosts`` once and judge each file for each host.

    ``provided`` are the deck's skills from its other providers (``provided_skills``
    of :mod:`skilldeck.engine.deck`, winners and shadowed): DSH resolves them with its
    files, as the engine does. ``processes > 1`` lets a cold scan fork helpers
    (:func:`scan_deck`: single-threaded callers only)."""
    placements = {host.name: host_roots(host, config, cwd) for host in hosts}
    roots = _union(placements.values())
    deep, complete = _walk(roots, walk_levels(hosts))
    # The folders holding the deep skill folders are scanned as roots of their own, so
    # the engine's cache serves their analyses as it serves the roots'.
    known = {root.path for root in roots}
    holders = {
        folder: SkillRoot(RANK_CUSTOM, SOURCE_HOST, folder, True)
        for item, _root in deep
        if (folder := os.path.dirname(os.path.dirname(item.path))) not in known
    }
    scan = scan_deck(
        config, cwd, cache=cache, roots=(*roots, *holders.values()), processes=processes
    )
    found_files = _found_files(scan, deep, set(holders))
    files = sorted(found_files, key=lambda found: (found.name, found.path))
    by_root: dict[str, list[FoundFile]] = {}
    for found in files:
        by_root.setdefault(found.root.path, []).append(found)
    by_path = {found.path: found for found in files}
    lengths: dict[tuple[str, tuple[str, ...]], int] = {}  # entry text length per fields
    links: dict[str, bool] = {}  # which paths are symlinks
    reals = _RealPaths(links)
    others = {provided_key(skill): skill for skill in provided}
    verdicts: dict[str, dict[str, HostLoad]] = {}
    catalogs: dict[str, BudgetReport] = {}
    for host in hosts:
        placed = placements[host.name]
        if host.engine_roots:
            table = _judge_engine(host, placed, by_root, others)
        else:
            table = _judge_host(host, placed, by_root, links, reals)
        offered: list[Offer] = []
        unlisted: list[Offer] = []
        fields = host.catalog.fields
        for path, verdict in table.items():
            if not verdict.loads:
                continue
            other = others.get(path) if path not in by_path else None
            if other is not None:
                candidate = other.candidate
                length = len(collapse_whitespace(candidate.description))
                offer = Offer(path, verdict.name, length)
                listed = candidate.invocation.model_invocable
            else:
                found = by_path[path]
                listed = _listed(host, found)
                measured = lengths.get((path, fields)) if listed else 0
                if measured is None:
                    measured = lengths[path, fields] = len(_entry_text(host, found))
                length = measured
                shown = reals.of(found) if host.catalog.listed_line is not None else None
                offer = Offer(path, verdict.name, length, shown)
            (offered if listed else unlisted).append(offer)
        report, states = budget_from_lengths(
            host,
            offered,
            context_tokens=context_tokens,
            entry_cap=config.catalog_max_description_length,
            unlisted=unlisted,
        )
        final: dict[str, HostLoad] = {}
        for path, verdict in table.items():
            if verdict.loads:
                final[path] = replace(verdict, catalog=states.get(path, "left-out"))
            else:
                final[path] = verdict
        verdicts[host.name] = final
        catalogs[host.name] = report
    return HostsView(
        tuple(hosts), tuple(files), verdicts, catalogs, scan.complete and complete, others
    )


def _walk(roots: Sequence[SkillRoot], levels: int) -> tuple[list[tuple[DeepFile, SkillRoot]], bool]:
    """Every ``SKILL.md`` from two to ``levels`` folders below each root
    (:mod:`skilldeck.engine.host_views._walk`), and whether every folder was read."""
    found: list[tuple[DeepFile, SkillRoot]] = []
    complete = True
    for root in roots:
        if not root.exists:
            continue
        files, read_all = deep_skill_files(root.path, levels)
        complete = complete and read_all
        found.extend((item, root) for item in files)
    return found, complete


def _found_files(
    scan: DeckScan, deep: Sequence[tuple[DeepFile, SkillRoot]], holders: set[str]
) -> list[FoundFile]:
    """The scan's skill files and stray Markdown files of the roots, and the deep files
    with their analyses (from the scans of the folders holding them, ``holders``)."""
    files: list[FoundFile] = []
    analyses: dict[str, SkillFileAnalysis] = {}
    spans: dict[str, Span] = {}
    for root_scan in scan.scans:
        root = root_scan.root
        if root.path in holders:
            for entry in root_scan.entries:
                analyses[entry.path] = entry.analysis
                spans[entry.path] = entry.name_span
            continue
        for entry in root_scan.entries:
            files.append(_from_entry(entry))
            analyses[entry.path] = entry.analysis
        for path, _finding in root_scan.strays:
            if os.path.basename(path) == BUNDLE_FILE:
                continue  # the walk finds it, with its analysis
            place = place_in_root(path, root)
            if isinstance(place, NotASkill):
                files.append(FoundFile(path, root, "nested", None, _stem(path), None, place.reason))
    for item, root in deep:
        files.append(
            _from_deep(item, root, analyses.get(item.path), spans.get(item.path), scan.settings)
        )
    return files


def _from_deep(
    item: DeepFile,
    root: SkillRoot,
    analysis: SkillFileAnalysis | None,
    span: Span | None,
    settings: RuleSettings | None,
) -> FoundFile:
    folder = os.path.dirname(item.path)
    expected = os.path.basename(folder)
    if analysis is None:
        analysis = analyze_skill_file(item.path, expected_name=expected, settings=settings)
    if span is None:
        span = name_span(analysis)
    return FoundFile(
        item.path, root, "bundle", folder, expected, analysis, deep=item, name_span=span
    )


def _from_entry(entry: SkillFileEntry) -> FoundFile:
    return FoundFile(
        entry.path,
        entry.root,
        entry.layout,
        entry.folder,
        entry.expected_name,
        entry.analysis,
        name_span=entry.name_span,
    )


def _stem(path: str) -> str:
    base = os.path.basename(path)
    if base == "SKILL.md":
        return os.path.basename(os.path.dirname(path))
    return base.removesuffix(".md")


def _judge_engine(
    host: Host,
    placed: Sequence[_Placed],
    by_root: Mapping[str, Sequence[FoundFile]],
    provided: Mapping[str, ProvidedSkill],
) -> dict[str, HostLoad]:
    """DSH: the engine's verdicts, exactly as ``check`` reports them (``None``: loads,
    its catalog state still to come): the accepted files of its roots and the
    ``provided`` skills, each name won as the deck resolves it (``group_by_name``:
    rank, then files before provided skills, then registration order)."""
    table: dict[str, HostLoad] = {}
    members: list[FoundFile | ProvidedSkill] = []
    for item in placed:
        for found in by_root.get(item.root.path, ()):
            if found.path in table:
                continue
            analysis = found.analysis
            if found.deep is not None:
                # The engine's own stray search (SD007): a SKILL.md one folder too deep
                # in a folder that is no skill; deeper files are none of its business.
                place = place_in_root(found.path, found.root)
                stray = found.deep.levels == 2 and found.deep.inside_skill is None
                if stray and isinstance(place, NotASkill):
                    table[found.path] = _no(host, found, place.reason)
            elif analysis is None:
                table[found.path] = _no(host, found, found.nested or "not a skill file")
            elif not analysis.accepted:
                table[found.path] = _no(host, found, _drop_reason(analysis))
            else:
                table[found.path] = _yes(host, found, found.name)
                members.append(found)
    members.extend(provided.values())

    def name_and_rank(member: FoundFile | ProvidedSkill) -> tuple[str, int]:
        if isinstance(member, FoundFile):
            return member.name, member.root.rank
        return member.name, member.rank

    def key_of(member: FoundFile | ProvidedSkill) -> str:
        return member.path if isinstance(member, FoundFile) else provided_key(member)

    for group in group_by_name(members, name_and_rank).values():
        winner = group[0]
        winner_key = key_of(winner)
        if isinstance(winner, FoundFile):
            wins = f"shadowed by {winner.path}"
        else:
            wins = f"shadowed by {winner.source} skill at {winner.origin()} (rank {winner.rank})"
        for index, member in enumerate(group):
            key = key_of(member)
            if index == 0:
                table[key] = HostLoad(host.name, key, member.name, True, None, None)
            else:
                table[key] = HostLoad(host.name, key, member.name, False, wins, None, winner_key)
    return table


def _judge_host(
    host: Host,
    placed: Sequence[_Placed],
    by_root: Mapping[str, Sequence[FoundFile]],
    links: dict[str, bool],
    reals: _RealPaths,
) -> dict[str, HostLoad]:
    """Another host's verdicts by its data (``None``: loads, catalog state to come)."""
    table: dict[str, HostLoad] = {}
    candidates: list[_Candidate] = []
    for order, item in enumerate(placed):
        spec = item.spec
        assert spec is not None
        for found in by_root.get(item.root.path, ()):
            if found.path in table:
                continue
            keys: tuple[str, str] | None = None
            reason = _where_refusal(host, spec, found, links)
            if reason is None:
                keys = _keys_by_line(found) if host.reads_keys_by_line else None
                reason = _content_refusal(host, found, keys)
            if reason is not None:
                table[found.path] = _no(host, found, reason)
                continue
            name = keys[0] if keys is not None else found.name
            table[found.path] = _yes(host, found, name)
            candidates.append(_Candidate(found, (order, *_order_in_root(found)), name))
    if host.duplicates == "keep-all":
        _keep_all(host, candidates, table, reals)
    else:
        _shadow(host, candidates, table)
    return table


def _order_in_root(found: FoundFile) -> tuple[int, ...]:
    """Where ``found`` comes in its root's walk: folder by folder in path order, each
    folder's skill folders before its flat files (the order Kimi Code registers them in),
    as a key of code points."""
    relative = os.path.relpath(found.path, found.root.path).split(os.sep)
    if found.layout == "bundle":
        parents, kind, leaf = relative[:-2], 0, relative[-2]
    else:
        parents, kind, leaf = relative[:-1], 1, relative[-1]
    key: list[int] = []
    for part in parents:
        key.extend((1, *map(ord, part), 0))
    key.extend((0, kind, *map(ord, leaf)))
    return tuple(key)


def _where_refusal(
    host: Host, spec: HostRoot, found: FoundFile, links: dict[str, bool]
) -> str | None:
    """Why ``host`` does not load ``found`` where it sits (``None``: it reaches it).
    ``links`` remembers which paths are symlinks."""
    shown = host.root_display(spec)
    if found.layout == "nested":
        return _nested_reason(host, shown, found)
    if found.layout == "flat" and not host.reads_flat_files:
        return f"flat file: {host.label} reads bundles only ({shown}/<name>/SKILL.md)"
    return _place_refusal(host, shown, found, links)


def _content_refusal(host: Host, found: FoundFile, keys: tuple[str, str] | None) -> str | None:
    """Why ``host`` does not load the file it reaches (``None``: it loads it, shadowing
    aside). ``keys``: the name and description a host that reads them line by line found
    (:attr:`Host.reads_keys_by_line`)."""
    analysis = found.analysis
    assert analysis is not None
    fallbacks = found.layout == "flat" and host.flat_fallbacks
    for finding in analysis.findings:
        if finding.drops_skill and finding.code[:3] in {"SD0", "SD1"}:
            if fallbacks and finding.code == "SD101":
                continue  # no frontmatter: the file name and first line stand in
            if keys is not None and finding.code[:3] == "SD1":
                continue  # the host read its two keys line by line
            return finding.message
    if host.reads_keys_by_line:
        if keys is None:
            return (
                f"no name and description {host.label} can read (it needs both as text, "
                "from the YAML or from 'name:' and 'description:' lines)"
            )
        name: str | None
        description: str | None
        name, description = keys
    else:
        name, description = analysis.name, analysis.description
        if name is None and host.requires_name and not fallbacks:
            return f"no name: {host.label} requires a name"
        if description is None and host.requires_description and not fallbacks:
            return f"no description: {host.label} requires a description"
    name = name if name is not None else found.expected_name
    if host.name_is_kebab and not is_skill_name(name):
        return (
            f"name '{name}' is not lowercase letters, digits and single hyphens "
            f"({host.label}'s rule)"
        )
    if host.name_ascii_only and not name.isascii():
        odd = next(char for char in name if not char.isascii())
        return f"name '{name}' has the non-ASCII character '{odd}'; {host.label} allows ASCII only"
    if host.name_max is not None and len(name) > host.name_max:
        return f"name is {len(name)} characters; {host.label} allows {host.name_max}"
    if host.name_equals_folder and name != found.expected_name:
        return f"name differs from folder: '{name}' in '{found.expected_name}'"
    if (
        description is not None
        and host.description_max is not None
        and len(description) > host.description_max
    ):
        return (
            f"description is {len(description)} characters; {host.label} allows "
            f"{host.description_max}"
        )
    return None


_FRONTMATTER = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)")
_NAME_LINE = re.compile(r"^\s*name:\s*(.*)$")
_DESCRIPTION_LINE = re.compile(r"^\s*description:\s*(.*)$")
_CONTINUATION = re.compile(r"^[ \t]+\S")
_UNSAFE_IN_NAME = re.compile(r'[:\\/<>*?"|]')


def _keys_by_line(found: FoundFile) -> tuple[str, str] | None:
    """Gemini CLI's reading of a skill file (``skillLoader.ts``): ``name`` and
    ``description`` from the YAML when both are text, else from ``name:`` and
    ``description:`` lines (a description goes on over indented lines); the name with
    ``: \\ / < > * ? " |`` turned into ``-``. ``None`` when it finds no pair."""
    if found.analysis is None:
        return None
    try:
        text = decode_skill_bytes(read_skill_bytes(found.path))
    except (SkillReadError, ValueError):
        return None
    match = _FRONTMATTER.match(text)
    if match is None:
        return None
    parsed = parse_frontmatter(text)
    frontmatter = parsed.frontmatter
    keys: tuple[str | None, str | None] = (None, None)
    if frontmatter is not None and not any(f.drops_skill for f in parsed.findings):
        name, description = frontmatter.get("name"), frontmatter.get("description")
        keys = (
            name.value if name is not None and isinstance(name.value, str) else None,
            description.value
            if description is not None and isinstance(description.value, str)
            else None,
        )
    if keys[0] is None or keys[1] is None:
        keys = _lines(match.group(1))
    if keys[0] is None or keys[1] is None:
        return None
    return _UNSAFE_IN_NAME.sub("-", keys[0]), keys[1]


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


def _place_refusal(host: Host, shown: str, found: FoundFile, links: dict[str, bool]) -> str | None:
    """Why ``host`` does not reach ``found`` where it sits (depth, hidden or symlinked
    folders, a skill folder it does not search, a flat file beside a skill folder)."""
    deep = found.deep
    own = os.path.basename(found.folder) if found.folder is not None else None
    above: tuple[str, ...] = deep.folders[:-1] if deep is not None else ()
    if deep is not None:
        limit = host.nesting if host.nesting is not None else MAX_LEVELS
        if deep.levels > limit:
            return _nested_reason(host, shown, found)
    if host.hidden == "skip" and any(_passed_over(host, name) for name in (*above, own)):
        return f"in a hidden folder: {host.label} skips {_passed_over_text(host)}"
    if host.hidden == "not-below" and any(_passed_over(host, name) for name in above):
        return (
            f"below a hidden folder: {host.label} does not search inside {_passed_over_text(host)}"
        )
    if deep is not None:
        if deep.inside_skill is not None and not host.searches_inside_skills:
            inside = os.path.relpath(os.path.dirname(deep.inside_skill), found.root.path)
            return (
                f"inside the skill folder {shown}/{inside}: {host.label} does not search "
                "a skill's own folder"
            )
        if deep.linked and not host.follows_symlinks:
            return f"symlinked folder on the way: not followed by {host.label}"
        return None
    if found.layout == "flat" and host.flat_fallbacks:
        beside = os.path.join(found.root.path, found.expected_name, BUNDLE_FILE)
        if os.path.isfile(beside):
            return (
                f"flat file beside the skill folder {shown}/{found.expected_name}: "
                f"{host.label} reads the folder and skips the file"
            )
    linked = found.folder if found.folder is not None else found.path
    if not host.follows_symlinks and _is_link(linked, links):
        kind = "folder" if found.folder is not None else "file"
        return f"symlinked {kind}: not followed by {host.label}"
    return None


def _passed_over(host: Host, name: str | None) -> bool:
    """Whether ``host`` treats the folder ``name`` as hidden."""
    return name is not None and (name.startswith(".") or name in host.ignored_folders)


def _passed_over_text(host: Host) -> str:
    names = " or ".join(host.ignored_folders)
    return "folders whose name starts with '.'" + (f" or is {names}" if names else "")


class _RealPaths:
    """The real path of a found file, resolving symlinks only where the way to it has
    one (the root's own real path is looked up once)."""

    def __init__(self, links: dict[str, bool]) -> None:
        self._links = links
        self._roots: dict[str, str] = {}
        self._files: dict[str, str] = {}

    def of(self, found: FoundFile) -> str:
        known = self._files.get(found.path)
        if known is not None:
            return known
        if found.deep is not None:
            linked = found.deep.linked
        else:
            linked = _is_link(found.folder or found.path, self._links) or (
                found.folder is not None and os.path.islink(found.path)
            )
        if linked:
            real = os.path.realpath(found.path)
        else:
            root = self._roots.get(found.root.path)
            if root is None:
                root = self._roots[found.root.path] = os.path.realpath(found.root.path)
            real = os.path.join(root, os.path.relpath(found.path, found.root.path))
        self._files[found.path] = real
        return real


def _is_link(path: str, known: dict[str, bool]) -> bool:
    found = known.get(path)
    if found is None:
        found = known[path] = os.path.islink(path)
    return found


def _nested_reason(host: Host, shown: str, found: FoundFile) -> str:
    relative = os.path.relpath(found.path, found.root.path).split(os.sep)
    depth = len(relative) - 1
    levels = _LEVELS[depth] if depth < len(_LEVELS) else str(depth)
    if os.path.basename(found.path) == "SKILL.md" and depth > 1:
        if host.nesting is None or host.nesting > 1:
            return (
                f"nested {levels} levels below {shown}; {host.label} looks at most "
                f"{host.nesting or MAX_LEVELS} folders deep"
            )
        return (
            f"nested {levels} levels below {shown}; {host.label} reads {shown}/<name>/SKILL.md only"
        )
    return found.nested or f"not a skill file of {shown}"


def _drop_reason(analysis: SkillFileAnalysis) -> str:
    for finding in analysis.findings:
        if finding.drops_skill:
            return finding.message
    return "not loaded"


def _no(host: Host, found: FoundFile, reason: str) -> HostLoad:
    return HostLoad(host.name, found.path, found.name, False, reason, None)


def _yes(host: Host, found: FoundFile, name: str) -> HostLoad:
    """Loads (its catalog state comes once the host's listing is measured)."""
    return HostLoad(host.name, found.path, name, True, None, None)


@dataclass(frozen=True)
class _Candidate:
    """A file a host loads unless a same-named one wins: where it comes in the host's
    order, and the name the host reads in it."""

    found: FoundFile
    order: tuple[int, ...]
    name: str


def _by_order(candidate: _Candidate) -> tuple[int, ...]:
    return candidate.order


def _shadow(host: Host, candidates: Sequence[_Candidate], table: dict[str, HostLoad]) -> None:
    """Same-named loaded files: the first by precedence wins, the others are shadowed;
    where the host's order inside one folder is not stable, a same-named file of the
    winner's folder is said to compete rather than to lose."""
    fold = str.casefold if host.names_ignore_case else str
    groups: dict[str, list[_Candidate]] = {}
    for candidate in sorted(candidates, key=_by_order):
        groups.setdefault(fold(candidate.name), []).append(candidate)
    for group in groups.values():
        winner = group[0].found
        for loser in group[1:]:
            path = loser.found.path
            reason = f"shadowed by {winner.path}"
            if host.unstable_within_root and loser.found.root.path == winner.root.path:
                reason = (
                    f"same name as {winner.path} in the same folder: {host.label} keeps "
                    "one of them, and which one is not stable"
                )
            table[path] = HostLoad(host.name, path, loser.name, False, reason, None, winner.path)


def _keep_all(
    host: Host, candidates: Sequence[_Candidate], table: dict[str, HostLoad], reals: _RealPaths
) -> None:
    """Codex: every same-named skill is listed (one entry per real file: a second way to
    the same file through a symlink is dropped); each loaded file names the others."""
    fold = str.casefold if host.names_ignore_case else str
    real: dict[str, str] = {}
    kept: dict[str, list[_Candidate]] = {}
    for candidate in sorted(candidates, key=_by_order):
        path = candidate.found.path
        target = reals.of(candidate.found)
        first = real.get(target)
        if first is not None:
            reason = f"the same file as {first}: {host.label} lists it once"
            table[path] = HostLoad(host.name, path, candidate.name, False, reason, None, first)
            continue
        real[target] = path
        kept.setdefault(fold(candidate.name), []).append(candidate)
    for group in kept.values():
        if len(group) < 2:
            continue
        for candidate in group:
            path = candidate.found.path
            others = tuple(other.found.path for other in group if other is not candidate)
            table[path] = replace(table[path], same_name=others)


def _listed(host: Host, found: FoundFile) -> bool:
    """Whether a loaded skill is offered to the model at all (disable-model-invocation
    is honoured only by hosts whose documentation has the key)."""
    if found.analysis is None:
        return False
    if host.honors_disable_model_invocation:
        return found.analysis.invocation.model_invocable
    return True


def _entry_text(host: Host, found: FoundFile) -> str:
    """What ``host``'s listing shows for ``found``: its catalog fields, collapsed.
    ``when_to_use`` is Claude Code's own key, read from the file (the engine keeps DSH's
    ``whenToUse``, which Claude Code ignores)."""
    analysis = found.analysis
    if analysis is None:
        return ""
    parts: list[str] = []
    for field in host.catalog.fields:
        value = analysis.description if field == "description" else _raw_string(found, field)
        if field == "description" and host.reads_keys_by_line:
            keys = _keys_by_line(found)
            value = keys[1] if keys is not None else value
        elif field == "description" and value is None and host.flat_fallbacks:
            value = _first_body_line(found)
        if value:
            parts.append(value)
    return collapse_whitespace(" ".join(parts))


def _first_body_line(found: FoundFile) -> str | None:
    """Kimi Code's description of a flat file without one (``parser.ts``,
    ``descriptionFromBody``): the first non-blank line of the body, cut at 240
    characters with an ellipsis."""
    if found.layout != "flat":
        return None
    try:
        text = decode_skill_bytes(read_skill_bytes(found.path))
    except (SkillReadError, ValueError):
        return None
    parsed = parse_frontmatter(text)
    body = text[parsed.body_start :] if parsed.body_start is not None else text
    for raw in body.splitlines():
        line = raw.strip()
        if line:
            return line if len(line) <= 240 else line[:239] + "\u2026"
    return "No description provided."


def _raw_string(found: FoundFile, key: str) -> str | None:
    """The string value of frontmatter ``key`` in the file on disk, if it has one."""
    try:
        text = decode_skill_bytes(read_skill_bytes(found.path))
    except (SkillReadError, ValueError):
        return None
    frontmatter = parse_frontmatter(text).frontmatter
    entry = frontmatter.get(key) if frontmatter is not None else None
    return entry.value if entry is not None and isinstance(entry.value, str) else None


@dataclass(frozen=True)
class ListingLine:
    """One line of a host's listing: the skill, its state and the text shown after the
    name (``None``: the name alone)."""

    name: str
    state: CatalogState
    text: str | None
    #: The whole line as the host writes it, newline included (Codex adds the skill
    #: file's path: ``- name: text (file: path)``): what its budget counts.
    line: str = ""

    def to_json(self) -> dict[str, str | None]:
        return {"name": self.name, "state": self.state, "text": self.text}


def host_listing(view: HostsView, host: Host) -> list[ListingLine]:
    """``host``'s listing in order, as far as its documentation describes it: each entry
    not left out, its fields whitespace-collapsed and cut to the shown length with
    ``...``."""
    files = {found.path: found for found in view.files}
    lines: list[ListingLine] = []
    for entry in view.catalogs[host.name].entries:
        if entry.state == "left-out":
            continue
        text: str | None = None
        if entry.state != "name-only":
            found = files.get(entry.key)
            if found is not None:
                text = _entry_text(host, found)
            else:
                text = collapse_whitespace(view.provided[entry.key].candidate.description)
            if entry.state == "cut":
                text = catalog_description(text, max(entry.shown_chars, 3))
        line = listed_line(host.catalog, entry.name, entry.path, text)
        lines.append(ListingLine(entry.name, entry.state, text, line))
    return lines


def host_summary(view: HostsView, path: str) -> list[tuple[Host, str]]:
    """One line per host of ``view`` about the skill file at ``path``, for a hover:
    ``loads (catalog: full)``, ``loads, catalog entry cut at N characters``, ``does not
    load: REASON`` or ``not found: outside its skill folders``; where the host also lists
    same-named skills, the line names them."""
    lines: list[tuple[Host, str]] = []
    for host in view.hosts:
        load = view.verdicts[host.name].get(path)
        if load is None:
            lines.append((host, "not found: outside its skill folders"))
        elif not load.loads:
            lines.append((host, f"does not load: {load.reason}"))
        elif load.catalog == "cut":
            entry = view.catalogs[host.name].entry_for(path)
            shown = entry.shown_chars if entry is not None else 0
            lines.append((host, f"loads; catalog entry cut at {shown} characters"))
        elif load.catalog == "name-only":
            lines.append((host, "loads; catalog shows the name only (over budget)"))
        elif load.catalog == "left-out":
            lines.append((host, "loads; left out of the catalog"))
        else:
            lines.append((host, "loads (catalog: full)"))
        if load is not None and load.loads and load.same_name:
            others = ", ".join(load.same_name)
            host_line = lines[-1]
            lines[-1] = (
                host,
                f"{host_line[1]}; the model also sees another entry named '{load.name}': {others}",
            )
    return lines
