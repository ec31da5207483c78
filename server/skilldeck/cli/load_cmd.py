"""``skilldeck load NAME``: the exact result of the model-facing ``skill`` tool for NAME."""

from __future__ import annotations

import argparse
from typing import Any

from skilldeck.cli.settings import add_registry_options, registry_session
from skilldeck.engine.model_view import SkillToolResult, execute_skill_tool


def register(subparsers: Any) -> None:
    """Add the ``load`` subcommand."""
    parser = subparsers.add_parser(
        "load",
        help="print the skill tool's result for NAME",
        description="Run the model-facing `skill` tool for NAME and print its result "
        "exactly; an error result is printed too and exits 1.",
    )
    parser.add_argument("name", metavar="NAME", help="the skill name")
    add_registry_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the tool result; 0 when it succeeded, 1 for an error result."""
    import asyncio  # noqa: PLC0415 - only this command runs an event loop

    session = registry_session(args)
    result: SkillToolResult = asyncio.run(
        execute_skill_tool(session.registry, {"name": args.name}, cwd=session.cwd)
    )
    print(result.text)
    return 0 if result.ok else 1
