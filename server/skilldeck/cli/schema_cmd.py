"""``skilldeck schema [--profile P]``: the frontmatter JSON Schema of a profile;
``skilldeck schema --settings``: the JSON Schema of ``skilldeck.toml``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import Location, add_location_options
from skilldeck.engine.config import settings_json_schema
from skilldeck.engine.frontmatter import frontmatter_schema


def register(subparsers: Any) -> None:
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser(
        "schema",
        help="print the frontmatter (or settings) JSON Schema",
        description="Print a JSON Schema (draft-07) of skill frontmatter under a profile, "
        "for editors with a YAML language server; with --settings, the JSON Schema of "
        "skilldeck.toml, for editors that complete TOML from a schema (taplo).",
    )
    parser.add_argument(
        "--profile",
        metavar="P",
        default=None,
        help="dsh, agentskills, claude-code, codex (default: the config file's, else dsh)",
    )
    parser.add_argument(
        "--settings",
        action="store_true",
        help="print the JSON Schema of skilldeck.toml (and [tool.skilldeck]) instead",
    )
    add_location_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema as indented JSON."""
    if args.settings:
        if args.profile is not None:
            raise CliError("schema: --settings takes no --profile")
        print(json.dumps(settings_json_schema(), indent=2, ensure_ascii=False))
        return 0
    profile = args.profile
    if profile is None:
        location = Location.from_args(args)
        profile = location.config(location.cwd).profile
    try:
        schema = frontmatter_schema(profile)
    except ValueError as error:
        raise CliError(f"--profile: {error}") from error
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0
