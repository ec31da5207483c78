"""``skilldeck catalog [--json] [--max-description-length N]``: the model's catalog.

Text: the exact catalog message a session would send first. JSON: ``{"complete": bool,
"entries": [{"name", "description"}]}`` with descriptions shaped as in the message
(collapsed and capped, not yet XML-escaped).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from skilldeck.cli.settings import (
    add_cache_option,
    add_location_options,
    add_profile_option,
    build_config,
    lookup_cwd,
)
from skilldeck.engine.catalog import catalog_entries, render_entries
from skilldeck.engine.defaults import default_registry
from skilldeck.engine.index_cache import IndexCache


def register(subparsers: Any) -> None:
    """Add the ``catalog`` subcommand."""
    parser = subparsers.add_parser(
        "catalog",
        help="print the catalog message the model would receive",
        description="The exact skill catalog message for the lookup directory.",
    )
    parser.add_argument("--json", action="store_true", help="print the entries as JSON")
    parser.add_argument(
        "--max-description-length",
        metavar="N",
        type=int,
        default=None,
        help="cap descriptions at N characters (minimum 3; default: the config file's, else 500)",
    )
    add_profile_option(parser)
    add_cache_option(parser)
    add_location_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the catalog; exits 0 (an incomplete view is noted on stderr)."""
    cwd = lookup_cwd(args)
    config = build_config(args, cwd, catalog_max_description_length=args.max_description_length)
    cache = None if args.no_cache else IndexCache.default()
    snapshot = asyncio.run(default_registry(config, cache=cache).snapshot(cwd=cwd))
    entries = catalog_entries(snapshot.skills, config.catalog_max_description_length)
    if args.json:
        payload = {
            "complete": snapshot.complete,
            "entries": [{"name": e.name, "description": e.description} for e in entries],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(render_entries(entries, kind="initial"))
    if not snapshot.complete:
        print(
            "skilldeck: warning: discovery was incomplete; some skills may be missing",
            file=sys.stderr,
        )
    return 0
