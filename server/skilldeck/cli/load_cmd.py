"""``skilldeck load NAME``: the exact result of the model-facing ``skill`` tool for NAME."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from skilldeck.cli.settings import (
    add_cache_option,
    add_location_options,
    add_profile_option,
    build_config,
    lookup_cwd,
)
from skilldeck.engine.defaults import default_registry
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.skill_tool import SkillToolResult, execute_skill_tool


def register(subparsers: Any) -> None:
    """Add the ``load`` subcommand."""
    parser = subparsers.add_parser(
        "load",
        help="print the skill tool's result for NAME",
        description="Run the model-facing `skill` tool for NAME and print its result "
        "exactly; an error result is printed too and exits 1.",
    )
    parser.add_argument("name", metavar="NAME", help="the skill name")
    add_profile_option(parser)
    add_cache_option(parser)
    add_location_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the tool result; 0 when it succeeded, 1 for an error result."""
    cwd = lookup_cwd(args)
    config = build_config(args, cwd)
    cache = None if args.no_cache else IndexCache.default()
    registry = default_registry(config, cache=cache)
    result: SkillToolResult = asyncio.run(
        execute_skill_tool(registry, {"name": args.name}, cwd=cwd)
    )
    print(result.text)
    return 0 if result.ok else 1
