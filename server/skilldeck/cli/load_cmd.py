"""``skilldeck load NAME``: the exact result of the model-facing ``skill`` tool for NAME.

stdout is the tool's result, byte for byte (what the model would read). stderr says what
the result alone cannot: the skill files the engine skipped, and why (for a NAME no
skill answers that one of them would have carried: that it exists but was skipped), and,
when NAME was not found, that discovery was incomplete.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from skilldeck.cli.settings import (
    Location,
    add_registry_options,
    registry_session,
    skipped_files,
    skipped_line,
    warn_if_incomplete,
    warn_skipped,
)
from skilldeck.engine.model_view import SkillToolResult, execute_skill_tool

if TYPE_CHECKING:
    from skilldeck.engine.registry import CatalogSnapshot, SkillDefinition, SkillRegistry


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


class _Observed:
    """The registry as the tool reads it, noting whether every snapshot was complete."""

    def __init__(self, registry: SkillRegistry) -> None:
        self._registry = registry
        self.complete = True

    async def snapshot(self, *, cwd: str | None, scope: Any) -> CatalogSnapshot:
        snapshot = await self._registry.snapshot(cwd=cwd, scope=scope)
        self.complete = self.complete and snapshot.complete
        return snapshot

    async def get(self, name: str, *, cwd: str | None, scope: Any) -> SkillDefinition | None:
        return await self._registry.get(name, cwd=cwd, scope=scope)


def run(args: argparse.Namespace) -> int:
    """Print the tool result; 0 when it succeeded, 1 for an error result."""
    import asyncio  # noqa: PLC0415 - only this command runs an event loop

    session = registry_session(Location.from_args(args))
    observed = _Observed(session.registry)
    with skipped_files() as skipped:
        result: SkillToolResult = asyncio.run(
            execute_skill_tool(observed, {"name": args.name}, cwd=session.cwd)
        )
    print(result.text)
    unknown = result.error == "unknown-skill"
    named = [s for s in skipped if unknown and args.name in (s.expected_name, s.name)]
    warn_skipped([s for s in skipped if s not in named], session.cwd)
    for item in named:
        line = skipped_line(item, session.cwd, name=args.name)
        print(f"skilldeck: warning: {line}; run `skilldeck check`", file=sys.stderr)
    if unknown:
        warn_if_incomplete(observed.complete)
    return 0 if result.ok else 1
