"""``skilldeck list [--json]``: every skill the engine resolved, with what each shadows.

JSON: ``{"complete": bool, "skills": [...]}`` sorted by name; each skill is the winner
of its name: ``{name, description, source, rank, provider, path, modelInvocable,
userInvocable, shadowed: [{source, rank, path}]}`` (``shadowed`` lists the candidates of
the same name it wins over, best first).

``--host H`` (or ``all``, or a comma list): for that agent's project and user folders,
every skill file found and whether the agent loads it, and why not
(:mod:`skilldeck.cli.host_report` has the JSON shape).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from skilldeck.cli import host_report
from skilldeck.cli.display import display_path, printable
from skilldeck.cli.settings import (
    Location,
    add_registry_options,
    registry_session,
    skipped_files,
    warn_if_incomplete,
    warn_skipped,
)

if TYPE_CHECKING:
    from skilldeck.engine.host_views import HostsView
    from skilldeck.engine.registry import NameResolution, Resolution


def register(subparsers: Any) -> None:
    """Add the ``list`` subcommand."""
    parser = subparsers.add_parser(
        "list",
        help="list the skills the engine sees",
        description="Every skill the engine resolved for the lookup directory, sorted by "
        "name, with its source, rank, provider, path, invocation policy and the "
        "candidates of the same name it shadows.",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    host_report.add_host_option(parser, allow_all=True)
    add_registry_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the skills; exits 0 (skipped skill files and an incomplete view are noted on
    stderr)."""
    if args.host is not None:
        return _run_hosts(args)
    import asyncio  # noqa: PLC0415 - only this command runs an event loop

    session = registry_session(Location.from_args(args))
    cwd = session.cwd
    with skipped_files() as skipped:
        resolution = asyncio.run(session.registry.resolve(cwd=cwd))
    if args.json:
        print(json.dumps(resolution_json(resolution), indent=2, ensure_ascii=False))
    else:
        for line in resolution_lines(resolution, cwd):
            print(line)
    warn_skipped(skipped, cwd)
    warn_if_incomplete(resolution.complete)
    return 0


def _run_hosts(args: argparse.Namespace) -> int:
    hosts = host_report.selected_hosts(args.host, allow_all=True)

    def render(view: HostsView, cwd: str) -> str:
        if args.json:
            document = host_report.matrix_json(view, cwd)
            return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        if len(hosts) == 1:
            return "\n".join(host_report.host_lines(view, hosts[0], cwd)) + "\n"
        return "\n".join(host_report.matrix_lines(view, cwd)) + "\n"

    return host_report.host_output(
        Location.from_args(args), hosts, render, tag=f"list json={args.json}"
    )


def resolution_json(resolution: Resolution) -> dict[str, object]:
    """The ``list --json`` document."""
    return {
        "complete": resolution.complete,
        "skills": [_skill_json(resolution.names[name]) for name in sorted(resolution.names)],
    }


def _skill_json(entry: NameResolution) -> dict[str, object]:
    winner = entry.winner
    candidate = winner.candidate
    return {
        "name": candidate.name,
        "description": candidate.description,
        "source": candidate.source,
        "rank": candidate.rank,
        "provider": winner.provider,
        "path": candidate.path,
        "modelInvocable": candidate.invocation.model_invocable,
        "userInvocable": candidate.invocation.user_invocable,
        "shadowed": [
            {"source": s.candidate.source, "rank": s.candidate.rank, "path": s.candidate.path}
            for s in entry.shadowed
        ],
    }


def resolution_lines(resolution: Resolution, cwd: str) -> list[str]:
    """Human lines: ``name  source/rank  path  [flags]  description``, shadowed indented."""
    lines: list[str] = []
    names = sorted(resolution.names)
    width = max((len(name) for name in names), default=0)
    for name in names:
        entry = resolution.names[name]
        candidate = entry.winner.candidate
        flags = []
        if not candidate.invocation.model_invocable:
            flags.append("not model-invocable")
        if not candidate.invocation.user_invocable:
            flags.append("not user-invocable")
        where = display_path(candidate.path, cwd) if candidate.path else entry.winner.provider
        shown_flags = f"  [{', '.join(flags)}]" if flags else ""
        lines.append(
            f"{name:<{width}}  {candidate.source} ({candidate.rank})  {where}{shown_flags}"
        )
        lines.append(f"{'':<{width}}  {printable(' '.join(candidate.description.split()))}")
        for shadowed in entry.shadowed:
            other = shadowed.candidate
            other_where = display_path(other.path, cwd) if other.path else shadowed.provider
            lines.append(f"{'':<{width}}  shadows {other.source} ({other.rank})  {other_where}")
    return lines
