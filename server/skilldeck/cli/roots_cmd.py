"""``skilldeck roots [--json]``: the filesystem roots for the lookup directory, by rank."""

from __future__ import annotations

import argparse
import json
from typing import Any

from skilldeck.cli.settings import add_location_options, build_config, lookup_cwd
from skilldeck.engine.filesystem import resolve_roots


def register(subparsers: Any) -> None:
    """Add the ``roots`` subcommand."""
    parser = subparsers.add_parser(
        "roots",
        help="show the skill roots for the lookup directory",
        description="Every filesystem skill root for the lookup directory, in rank order "
        "(lower wins a duplicate name), and whether it exists.",
    )
    add_location_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the roots; always exits 0 (missing roots are a normal state)."""
    cwd = lookup_cwd(args)
    roots = resolve_roots(build_config(args, cwd), cwd)
    if args.json:
        payload = [
            {"rank": root.rank, "source": root.source, "path": root.path, "exists": root.exists}
            for root in roots
        ]
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    width = max((len(root.source) for root in roots), default=0)
    for root in roots:
        state = "" if root.exists else "  (missing)"
        print(f"{root.rank:>4}  {root.source:<{width}}  {root.path}{state}")
    return 0
