"""``skilldeck sources [update [NAME...]] [--json]``: the remote skill sources of the
lookup directory's config (``[[sources]]``), their revision, age and health."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import Location, add_location_options
from skilldeck.engine.filesystem import default_cache_dir

if TYPE_CHECKING:
    from skilldeck.engine.sources import SourceStatus


def register(subparsers: Any) -> None:
    """Add the ``sources`` subcommand."""
    parser = subparsers.add_parser(
        "sources",
        help="show (or update) the remote skill sources",
        description="Every [[sources]] table of the config file: its revision, age and "
        "health. 'sources update' fetches the git sources now (all, or those named).",
    )
    parser.add_argument("action", nargs="?", choices=("update",), help="fetch now")
    parser.add_argument("names", nargs="*", metavar="NAME", help="sources to update")
    add_location_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print each source; ``update`` exits 1 when a source could not be fetched."""
    location = Location.from_args(args)
    cwd = location.cwd
    config = location.config(cwd)
    specs = config.remote_sources
    # Imported here: the git machinery (and asyncio) only for this command, not for
    # every command whose parser this module helps build.
    import asyncio  # noqa: PLC0415

    from skilldeck.engine.sources import source_status, update_sources  # noqa: PLC0415

    cache_dir = default_cache_dir()
    failed: dict[str, str] = {}
    if args.action == "update":
        unknown = sorted(set(args.names) - {spec.name for spec in specs})
        if unknown:
            raise CliError(f"sources update: no source named {', '.join(map(repr, unknown))}")
        chosen = [spec for spec in specs if not args.names or spec.name in args.names]
        updated = asyncio.run(update_sources(chosen, cache_dir, config.rule_settings()))
        for spec, error in updated:
            if error is not None:
                failed[spec.name] = error
    elif args.names:
        raise CliError("sources: names are given only to 'sources update'")
    statuses = [source_status(spec, cache_dir) for spec in specs]
    if args.json:
        print(json.dumps([status.to_json() for status in statuses], indent=2))
    elif not statuses:
        print("No sources configured ([[sources]] in skilldeck.toml).")
    else:
        for status in statuses:
            print(_line(status))
    for name, error in failed.items():
        print(f"skilldeck: source {name!r} not updated: {error}", file=sys.stderr)
    return 1 if failed else 0


def _line(status: SourceStatus) -> str:
    revision = status.revision[:12] if status.revision else "-"
    ref = f"@{status.ref}" if status.ref else ""
    line = (
        f"{status.label}  {status.location}{ref}  rank {status.rank}  {revision}  "
        f"{_age(status.age)}  {status.health}"
    )
    if status.error:
        line += f"  ({status.error})"
    return line


def _age(age: float | None) -> str:
    if age is None:
        return "-"
    if age < 120:
        return f"{age:.0f}s ago"
    if age < 7200:
        return f"{age / 60:.0f}m ago"
    if age < 172800:
        return f"{age / 3600:.0f}h ago"
    return f"{age / 86400:.0f}d ago"
