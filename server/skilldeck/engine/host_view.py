"""Which host loads which skill file, and what its catalog keeps of it.

One scan covers every host's roots at once (the engine's own scan, so the persistent
cache serves it); each host then judges the files of its roots by its data in
:mod:`skilldeck.engine.hosts`. DSH is judged by the engine itself: its verdicts are
``check``'s (accepted, then rank and registration order). Reasons are written for the
author: "nested two levels below .claude/skills", "symlinked folder: not followed",
"flat file: Codex reads bundles only", "name differs from folder", "shadowed by ...".

Each host's catalog of the skills it loads is measured by
:mod:`skilldeck.engine.host_budget`. (The CLI's memo key of a view is ``cli/check_memo.view_key``.)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from skilldeck.engine.catalog_text import catalog_description, collapse_whitespace
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.frontmatter import parse_frontmatter
from skilldeck.engine.fs_provider import DeckScan, SkillFileEntry, scan_deck
from skilldeck.engine.host_budget import (
    BudgetReport,
    CatalogState,
    budget_from_lengths,
)
from skilldeck.engine.hosts import Host, HostRoot
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.layout import NotASkill, place_in_root
from skilldeck.engine.model import RANK_CUSTOM, is_skill_name
from skilldeck.engine.positions import FILE_START, Span
from skilldeck.engine.resolution import group_by_name
from skilldeck.engine.roots import SkillRoot, find_project_root, resolve_roots
from skilldeck.engine.skill_file import SkillFileAnalysis
from skilldeck.engine.skill_read import SkillReadError, decode_skill_bytes, read_skill_bytes

#: The source label of a root only a non-DSH host reads.
SOURCE_HOST = "host"
_LEVELS = ("zero", "one", "two", "three", "four", "five")


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


@dataclass(frozen=True)
class _Placed:
    """One concrete folder a host reads, in the host's precedence order."""

    spec: HostRoot | None
    root: SkillRoot


@dataclass(frozen=True)
class HostsView:
    """Every file found in the hosts' roots and each host's verdict on it."""

    hosts: tuple[Host, ...]
    files: tuple[FoundFile, ...]
    verdicts: Mapping[str, Mapping[str, HostLoad]]
    catalogs: Mapping[str, BudgetReport]
    complete: bool

    def loads_of(self, host: str) -> list[HostLoad]:
        """The host's verdicts on the files of its roots, in file order."""
        table = self.verdicts[host]
        return [table[f.path] for f in self.files if f.path in table]

    def loaded_entries(self, host: str) -> list[SkillFileEntry]:
        """The skill files ``host`` loads (its folders, rules and precedence) as deck
        members, in file order: what competes for its model's choice."""
        table = self.verdicts.get(host, {})
        loaded: list[SkillFileEntry] = []
        for found in self.files:
            verdict = table.get(found.path)
            if verdict is None or not verdict.loads or found.analysis is None:
                continue
            if found.layout == "nested":
                continue
            loaded.append(
                SkillFileEntry(
                    found.root,
                    found.layout,
                    found.path,
                    found.folder,
                    found.expected_name,
                    found.analysis,
                    found.name_span,
                )
            )
        return loaded


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
) -> HostsView:
    """Scan every root of ``hosts`` once and judge each file for each host.

    ``processes > 1`` lets a cold scan fork helpers (:func:`scan_deck`: single-threaded
    callers only)."""
    placements = {host.name: host_roots(host, config, cwd) for host in hosts}
    roots = _union(placements.values())
    scan = scan_deck(config, cwd, cache=cache, roots=roots, processes=processes)
    files = sorted(_found_files(scan), key=lambda found: (found.name, found.path))
    by_root: dict[str, list[FoundFile]] = {}
    for found in files:
        by_root.setdefault(found.root.path, []).append(found)
    by_path = {found.path: found for found in files}
    lengths: dict[tuple[str, tuple[str, ...]], int] = {}  # entry text length per fields
    links: dict[str, bool] = {}  # which paths are symlinks
    verdicts: dict[str, dict[str, HostLoad]] = {}
    catalogs: dict[str, BudgetReport] = {}
    for host in hosts:
        placed = placements[host.name]
        if host.engine_roots:
            table = _judge_engine(host, placed, by_root)
        else:
            table = _judge_host(host, placed, by_root, links)
        offered: dict[str, int] = {}
        fields = host.catalog.fields
        for path, verdict in table.items():
            if verdict is None and _listed(host, by_path[path]):
                found = by_path[path]
                length = lengths.get((path, fields))
                if length is None:
                    length = lengths[path, fields] = len(_entry_text(host, found))
                offered[found.name] = length
        report, states = budget_from_lengths(
            host,
            offered,
            context_tokens=context_tokens,
            entry_cap=config.catalog_max_description_length,
        )
        final: dict[str, HostLoad] = {}
        for path, verdict in table.items():
            if verdict is None:
                name = by_path[path].name
                state = states.get(name, "left-out")
                final[path] = HostLoad(host.name, path, name, True, None, state)
            else:
                final[path] = verdict
        verdicts[host.name] = final
        catalogs[host.name] = report
    return HostsView(tuple(hosts), tuple(files), verdicts, catalogs, scan.complete)


def _found_files(scan: DeckScan) -> list[FoundFile]:
    files: list[FoundFile] = []
    for root_scan in scan.scans:
        root = root_scan.root
        for entry in root_scan.entries:
            files.append(_from_entry(entry))
        for path, _finding in root_scan.strays:
            place = place_in_root(path, root)
            if isinstance(place, NotASkill):
                files.append(FoundFile(path, root, "nested", None, _stem(path), None, place.reason))
    return files


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
) -> dict[str, HostLoad | None]:
    """DSH: the engine's verdicts, exactly as ``check`` reports them (``None``: loads,
    its catalog state still to come)."""
    table: dict[str, HostLoad | None] = {}
    accepted: list[tuple[FoundFile, int]] = []
    for item in placed:
        for found in by_root.get(item.root.path, ()):
            if found.path in table:
                continue
            analysis = found.analysis
            if analysis is None:
                table[found.path] = _no(host, found, found.nested or "not a skill file")
            elif not analysis.accepted:
                table[found.path] = _no(host, found, _drop_reason(analysis))
            else:
                table[found.path] = None
                accepted.append((found, item.root.rank))
    _shadow(host, accepted, table)
    return table


def _judge_host(
    host: Host,
    placed: Sequence[_Placed],
    by_root: Mapping[str, Sequence[FoundFile]],
    links: dict[str, bool],
) -> dict[str, HostLoad | None]:
    """Another host's verdicts by its data (``None``: loads, catalog state to come)."""
    table: dict[str, HostLoad | None] = {}
    chosen: dict[str, str] = {}
    candidates: list[tuple[FoundFile, int]] = []
    for order, item in enumerate(placed):
        spec = item.spec
        assert spec is not None
        skipped: str | None = None
        if spec.group is not None:
            first = chosen.get(spec.group)
            if first is None and item.root.exists:
                chosen[spec.group] = host.root_display(spec)
            elif first is not None:
                skipped = (
                    f"not read: {host.label} reads only the first existing of its "
                    f"{spec.scope} folders, and {first} exists"
                )
        for found in by_root.get(item.root.path, ()):
            if found.path in table:
                continue
            reason = skipped or _refusal(host, spec, found, links)
            if reason is not None:
                table[found.path] = _no(host, found, reason)
                continue
            table[found.path] = None
            candidates.append((found, order))
    _shadow(host, candidates, table)
    return table


def _refusal(host: Host, spec: HostRoot, found: FoundFile, links: dict[str, bool]) -> str | None:
    """Why ``host`` does not load ``found`` (``None`` when it does, shadowing aside).
    ``links`` remembers which paths are symlinks."""
    shown = host.root_display(spec)
    if found.layout == "nested":
        return _nested_reason(host, shown, found)
    if found.layout == "flat" and not host.reads_flat_files:
        return f"flat file: {host.label} reads bundles only ({shown}/<name>/SKILL.md)"
    linked = found.folder if found.folder is not None else found.path
    if not host.follows_symlinks and _is_link(linked, links):
        kind = "folder" if found.folder is not None else "file"
        return f"symlinked {kind}: not followed by {host.label}"
    analysis = found.analysis
    assert analysis is not None
    for finding in analysis.findings:
        if finding.drops_skill and finding.code[:3] in {"SD0", "SD1"}:
            return finding.message
    name = analysis.name
    if name is None and host.requires_name:
        return f"no name: {host.label} requires a name"
    name = name if name is not None else found.expected_name
    if host.name_is_kebab and not is_skill_name(name):
        return (
            f"name '{name}' is not lowercase letters, digits and single hyphens "
            f"({host.label}'s rule)"
        )
    if host.name_max is not None and len(name) > host.name_max:
        return f"name is {len(name)} characters; {host.label} allows {host.name_max}"
    if host.name_equals_folder and name != found.expected_name:
        return f"name differs from folder: '{name}' in '{found.expected_name}'"
    description = analysis.description
    if description is None and host.requires_description:
        return f"no description: {host.label} requires a description"
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


def _shadow(
    host: Host,
    candidates: Sequence[tuple[FoundFile, int]],
    table: dict[str, HostLoad | None],
) -> None:
    """Same-named loaded files: the first by precedence wins, the others are shadowed."""
    fold = str.casefold if host.names_ignore_case else str

    groups = group_by_name(list(candidates), lambda pair: (fold(pair[0].name), pair[1]))
    for group in groups.values():
        winner = group[0][0]
        for loser, _order in group[1:]:
            table[loser.path] = HostLoad(
                host.name,
                loser.path,
                loser.name,
                False,
                f"shadowed by {winner.path}",
                None,
                winner.path,
            )


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
        if value:
            parts.append(value)
    return collapse_whitespace(" ".join(parts))


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

    def to_json(self) -> dict[str, str | None]:
        return {"name": self.name, "state": self.state, "text": self.text}


def host_listing(view: HostsView, host: Host) -> list[ListingLine]:
    """``host``'s listing in order, as far as its documentation describes it: each entry
    not left out, its fields whitespace-collapsed and cut to the shown length with
    ``...``."""
    loaded = {load.name: load.path for load in view.verdicts[host.name].values() if load.loads}
    files = {found.path: found for found in view.files}
    lines: list[ListingLine] = []
    for entry in view.catalogs[host.name].entries:
        if entry.state == "left-out":
            continue
        text: str | None = None
        if entry.state != "name-only":
            text = _entry_text(host, files[loaded[entry.name]])
            if entry.state == "cut":
                text = catalog_description(text, max(entry.shown_chars, 3))
        lines.append(ListingLine(entry.name, entry.state, text))
    return lines


def host_summary(view: HostsView, path: str) -> list[tuple[Host, str]]:
    """One line per host of ``view`` about the skill file at ``path``, for a hover:
    ``loads (catalog: full)``, ``loads, catalog entry cut at N characters``, ``does not
    load: REASON`` or ``not found: outside its skill folders``."""
    lines: list[tuple[Host, str]] = []
    for host in view.hosts:
        load = view.verdicts[host.name].get(path)
        if load is None:
            lines.append((host, "not found: outside its skill folders"))
        elif not load.loads:
            lines.append((host, f"does not load: {load.reason}"))
        elif load.catalog == "cut":
            shown = next(
                (e.shown_chars for e in view.catalogs[host.name].entries if e.name == load.name),
                0,
            )
            lines.append((host, f"loads; catalog entry cut at {shown} characters"))
        elif load.catalog == "name-only":
            lines.append((host, "loads; catalog shows the name only (over budget)"))
        elif load.catalog == "left-out":
            lines.append((host, "loads; left out of the catalog"))
        else:
            lines.append((host, "loads (catalog: full)"))
    return lines
