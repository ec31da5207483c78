"""``skilldeck overlap [--threshold T] [--host H] [--json]``: skills the model cannot tell
apart.

Scans the lookup directory's deck (the roots ``list`` reads, plus the skills of other
providers) and prints the pairs of competing skills (the model-invocable winners) whose
overlap score reaches the threshold, best first, with the words they share (each skill's
strongest competitors: :data:`~skilldeck.engine.overlap.MAX_PAIRS_PER_SKILL`;
a family of near-duplicates competes as one skill, named by one member), the clusters
those pairs form, then the families of near-duplicate descriptions. Pairs and families
are the engine's (:mod:`skilldeck.engine.overlap`), the same ``check`` reports as
SD801 / SD802. With ``--host H`` only the skill files agent H loads compete (its
folders, name rules and precedence: :mod:`skilldeck.engine.hosts`).

JSON: ``{"pairs": [{"a": {"name", "path"}, "b": {"name", "path"}, "score": float,
"shared": [str]}], "clusters": [[name, ...]], "families": [{"identical": bool,
"skills": [{"name", "path"}]}]}``, pairs sorted by score (highest first), families
largest first; ``path`` is ``null`` for a provided skill without a file.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from skilldeck.cli.display import display_path
from skilldeck.cli.errors import CliError
from skilldeck.cli.host_report import selected_hosts
from skilldeck.cli.provider_option import read_provided
from skilldeck.cli.settings import Location, add_registry_options, warn_if_incomplete

if TYPE_CHECKING:
    from skilldeck.engine.overlap import DeckOverlap, Family, OverlapPair, OverlapSkill


def register(subparsers: Any) -> None:
    """Add the ``overlap`` subcommand."""
    parser = subparsers.add_parser(
        "overlap",
        help="list skills whose descriptions compete for the same requests",
        description="Pairs of skills the model chooses between whose names and "
        "descriptions say nearly the same thing (SD801), best first, with the words they "
        "share, the clusters they form, and the families of near-identical descriptions "
        "(SD802).",
    )
    parser.add_argument(
        "--threshold",
        metavar="T",
        type=float,
        default=None,
        help="lowest score to report, in (0, 1] (default: [overlap] threshold in "
        "skilldeck.toml, else 0.23)",
    )
    parser.add_argument(
        "--host",
        metavar="H",
        default=None,
        help="only the skills agent H loads compete (docs/hosts.md); default: the deck DSH loads",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_registry_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the pairs and clusters; exits 0 (an incomplete view is noted on stderr)."""
    from skilldeck.engine.deck import name_groups  # noqa: PLC0415
    from skilldeck.engine.filesystem import scan_deck  # noqa: PLC0415
    from skilldeck.engine.host_views import build_view  # noqa: PLC0415
    from skilldeck.engine.overlap import (  # noqa: PLC0415
        DeckOverlap,
        clusters,
    )

    location = Location.from_args(args)
    cwd = location.cwd
    config = location.config(cwd)
    settings = config.rule_settings()
    if args.threshold is not None:
        try:
            settings = replace(settings, overlap_threshold=args.threshold)
        except ValueError as error:
            raise CliError(f"--threshold: {error}") from None
    cache = location.cache()
    host = selected_hosts(args.host, allow_all=False)[0] if args.host else None
    if host is not None and host.name != "dsh":
        view = build_view((host,), config, cwd, cache=cache)
        overlap = DeckOverlap(view.competing_entries(host.name), settings)
        complete = view.complete
    else:
        scan = scan_deck(config, cwd, cache=cache)
        provided, provided_complete = read_provided(config, location.providers(), cwd)
        overlap = DeckOverlap((group[0] for group in name_groups(scan, provided)), settings)
        complete = bool(scan.complete) and provided_complete
    pairs = overlap.pairs()
    groups = clusters(pairs)
    if args.json:
        document = {
            "pairs": [_pair_json(pair, overlap) for pair in pairs],
            "clusters": groups,
            "families": [_family_json(family, overlap) for family in overlap.families()],
        }
        print(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for line in _lines(overlap, groups, settings.overlap_threshold, cwd):
            print(line)
    warn_if_incomplete(complete)
    return 0


def _skill_json(skill: OverlapSkill, overlap: DeckOverlap) -> dict[str, object]:
    return {"name": skill.name, "path": overlap.path_of(skill.key)}


def _pair_json(pair: OverlapPair, overlap: DeckOverlap) -> dict[str, object]:
    return {
        "a": _skill_json(pair.a, overlap),
        "b": _skill_json(pair.b, overlap),
        "score": pair.score,
        "shared": list(pair.shared),
    }


def _family_json(family: Family, overlap: DeckOverlap) -> dict[str, object]:
    skills = [skill for key in family.members if (skill := overlap.skill(key)) is not None]
    return {
        "identical": family.identical,
        "skills": [_skill_json(skill, overlap) for skill in _by_name(skills)],
    }


def _by_name(skills: list[OverlapSkill]) -> list[OverlapSkill]:
    return sorted(skills, key=lambda s: (s.name, s.key))


def _lines(overlap: DeckOverlap, groups: list[list[str]], threshold: float, cwd: str) -> list[str]:
    pairs = overlap.pairs()
    families = _family_lines(overlap, cwd)
    declared = overlap.declared_distinct()
    noun = "pair" if declared == 1 else "pairs"
    hidden = [f"{declared} {noun} declared distinct ([overlap] distinct)"] if declared else []
    if not pairs:
        return [f"no competing skills (threshold {threshold:.2f})", *families, *hidden]
    noun = "pair" if len(pairs) == 1 else "pairs"
    lines = [f"{len(pairs)} competing {noun} (threshold {threshold:.2f}):"]
    for pair in pairs:
        a, b = (_with_family(skill, overlap) for skill in (pair.a, pair.b))
        lines.append(f"  {pair.score:.2f}  {a}  <->  {b}")
        lines.append(f"        shared: {', '.join(pair.shared) or '-'}")
        if (general := pair.generalist) is not None:
            lines.append(f"        generalist: {general.name} (named for the task alone)")
        for skill in (pair.a, pair.b):
            where = overlap.path_of(skill.key)
            shown = display_path(where, cwd) if where is not None else skill.key
            lines.append(f"        {skill.name}: {shown}")
    lines.append("clusters:")
    lines.extend(f"  {', '.join(group)}" for group in groups)
    return [*lines, *families, *hidden]


def _with_family(skill: OverlapSkill, overlap: DeckOverlap) -> str:
    """A skill's name, with the size of its family of near-duplicates when it has one."""
    size = len(overlap.family_members(skill.key))
    return f"{skill.name} (and {size - 1} near-identical)" if size > 1 else skill.name


def _family_lines(overlap: DeckOverlap, cwd: str) -> list[str]:
    families = overlap.families()
    if not families:
        return []
    noun = "family" if len(families) == 1 else "families"
    lines = [f"{len(families)} {noun} of near-identical descriptions:"]
    for family in families:
        skills = _by_name(
            [skill for key in family.members if (skill := overlap.skill(key)) is not None]
        )
        how = "the same description" if family.identical else "nearly the same description"
        lines.append(f"  {len(skills)} skills, {how}: {', '.join(s.name for s in skills)}")
        for skill in skills:
            where = overlap.path_of(skill.key)
            shown = display_path(where, cwd) if where is not None else skill.key
            lines.append(f"        {skill.name}: {shown}")
    return lines
