"""``skilldeck roots [--json]``: the filesystem roots for the lookup directory, by rank.

Each root's state is the scan's (``root_state``): missing, not a folder, or cannot be
listed and why (a symlink loop, permission denied), so ``roots`` says why a root that
``check`` warns about holds no skills. JSON: ``[{rank, source, path, exists, problem}]``,
``problem`` ``null`` for a folder that lists or a missing root (a normal state)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from skilldeck.cli.display import printable
from skilldeck.cli.settings import Location, add_location_options
from skilldeck.engine.filesystem import resolve_roots, root_state


def register(subparsers: Any) -> None:
    """Add the ``roots`` subcommand."""
    parser = subparsers.add_parser(
        "roots",
        help="show the skill roots for the lookup directory",
        description="Every filesystem skill root for the lookup directory, in rank order "
        "(lower wins a duplicate name), and whether it exists or why it cannot be listed.",
    )
    add_location_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the roots; always exits 0 (missing roots are a normal state)."""
    location = Location.from_args(args)
    cwd = location.cwd
    roots = resolve_roots(location.config(cwd), cwd)
    states = [root_state(root) for root in roots]
    if args.json:
        payload = [
            {
                "rank": root.rank,
                "source": root.source,
                "path": root.path,
                "exists": root.exists,
                "problem": None if state in (None, "missing") else state,
            }
            for root, state in zip(roots, states, strict=True)
        ]
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    width = max((len(root.source) for root in roots), default=0)
    for root, state in zip(roots, states, strict=True):
        shown = "" if state is None else f"  ({state})"
        print(f"{root.rank:>4}  {root.source:<{width}}  {printable(root.path)}{printable(shown)}")
    return 0
