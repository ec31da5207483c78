"""``skilldeck catalog [--json] [--max-description-length N]``: the model's catalog.

Text: the exact catalog message a session would send first. JSON: ``{"complete": bool,
"entries": [{"name", "description"}]}`` with descriptions shaped as in the message
(collapsed and capped, not yet XML-escaped).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from skilldeck.cli.settings import add_registry_options, registry_session, warn_if_incomplete
from skilldeck.engine.catalog import catalog_entries, render_entries


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
    add_registry_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the catalog; exits 0 (an incomplete view is noted on stderr)."""
    import asyncio  # noqa: PLC0415 - only this command runs an event loop

    session = registry_session(args, catalog_max_description_length=args.max_description_length)
    snapshot = asyncio.run(session.registry.snapshot(cwd=session.cwd))
    entries = catalog_entries(snapshot.skills, session.config.catalog_max_description_length)
    if args.json:
        payload = {
            "complete": snapshot.complete,
            "entries": [{"name": e.name, "description": e.description} for e in entries],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(render_entries(entries, kind="initial"))
    warn_if_incomplete(snapshot.complete)
    return 0
