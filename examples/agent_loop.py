"""A fake agent loop showing what a model receives from skilldeck, step by step.

Run it with the project's Python (``.venv/bin/python examples/agent_loop.py``). No model
is called: the "model" is a script of tool calls, so the output is deterministic apart
from the bundled skill's folder path.

What it wires together:

- a ``SkillRegistry`` with two runtime skills (one only the user may invoke) and the
  bundled provider switched on;
- a ``CatalogTracker`` consulted before every model step, which says whether a catalog
  message (initial, replacement, empty replacement) must be appended;
- the ``skill`` tool: its JSON schema goes to the model API, its executor answers calls;
- the user's ``/name`` gesture, which injects a skill's content after the user message.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable

from skilldeck.engine.filesystem import bundled_provider_factory
from skilldeck.engine.model_view import (
    SKILL_TOOL_NAME,
    CatalogTracker,
    estimate_tokens,
    execute_skill_tool,
    expand_user_message,
    skill_tool_schema,
)
from skilldeck.engine.registry import InvocationPolicy, SkillDefinition, SkillRegistry


def runtime_skill(
    name: str, description: str, body: str, *, model_invocable: bool = True
) -> SkillDefinition:
    """A skill registered in process (rank 250, provider ``runtime``)."""
    return SkillDefinition(
        name=name,
        description=description,
        source="runtime",
        provider="runtime",
        invocation=InvocationPolicy(model_invocable=model_invocable, user_invocable=True),
        content=body,
    )


def show(title: str, role: str, text: str) -> None:
    """Print one message as the model would receive it."""
    print(f"=== {title} ===")
    print(f"[{role}]")
    print(text)
    print()


class Session:
    """One conversation: the catalog tracker plus the lookup context (cwd)."""

    def __init__(self, registry: SkillRegistry, cwd: str) -> None:
        self.registry = registry
        self.cwd = cwd
        self.tracker = CatalogTracker(max_description_length=500)

    async def before_model_step(self, step: str) -> None:
        """Append a catalog message when the skill set changed since the last one."""
        update = self.tracker.update(await self.registry.snapshot(cwd=self.cwd))
        if update is None:
            print(f"=== {step}: catalog unchanged, nothing appended ===\n")
            return
        show(
            f"{step}: {update.kind} catalog (~{estimate_tokens(update.text)} tokens)",
            "user",
            update.text,
        )

    async def model_calls_skill(self, step: str, name: str) -> None:
        """The model calls the ``skill`` tool; print the tool result it gets back."""
        arguments: dict[str, object] = {"name": name}
        result = await execute_skill_tool(self.registry, arguments, cwd=self.cwd)
        label = "ok" if result.ok else f"error: {result.error}"
        call = json.dumps({"tool": SKILL_TOOL_NAME, "arguments": arguments})
        show(f"{step}: model calls {call} -> {label}", "tool", result.text)

    async def user_says(self, step: str, message: str) -> None:
        """A user message, followed by the content of each skill it invokes with ``/name``."""
        show(f"{step}: user message", "user", message)
        for injection in await expand_user_message(self.registry, message, cwd=self.cwd):
            show(f"{step}: injected for /{injection.name}", "user", injection.text)


async def main() -> None:
    registry = SkillRegistry()
    disposers: list[Callable[[], None]] = [
        registry.register_provider(bundled_provider_factory(enabled=True)),
        registry.register(
            runtime_skill(
                "release-notes",
                "Draft release notes from merged pull requests. Use when preparing a release.",
                "1. List the pull requests merged since the last tag.\n"
                "2. Group them into Added / Changed / Fixed.\n"
                "3. Write one line per change, in the user's voice.",
            )
        ),
        registry.register(
            runtime_skill(
                "deploy-checklist",
                "Walk through the production deploy checklist.",
                "Confirm the build is green, announce the deploy, then run `make deploy`.",
                model_invocable=False,
            )
        ),
    ]
    session = Session(registry, cwd=os.getcwd())

    print("=== tool schema handed to the model API ===")
    print(json.dumps(skill_tool_schema(), indent=2))
    print()

    await session.before_model_step("step 1")
    await session.user_says("step 1", "Can you prepare the notes for v2.1?")
    await session.model_calls_skill("step 1", "release-notes")

    await session.before_model_step("step 2")
    await session.model_calls_skill("step 2", "Release_Notes")
    await session.model_calls_skill("step 2", "deploy-checklist")
    await session.model_calls_skill("step 2", "ghost-skill")

    await session.user_says("step 3", "/deploy-checklist let's ship it, /deploy-checklist")

    disposers.append(
        registry.register(
            runtime_skill(
                "changelog-lint",
                "Check a CHANGELOG.md for <missing> dates & broken links.",
                "Run the linter over CHANGELOG.md and fix what it reports.",
            )
        )
    )
    print("=== (a runtime skill `changelog-lint` was registered) ===\n")
    await session.before_model_step("step 4")
    await session.model_calls_skill("step 4", "skill-authoring")

    for dispose in disposers:
        dispose()
    print("=== (every skill was removed) ===\n")
    await session.before_model_step("step 5")
    await session.model_calls_skill("step 5", "release-notes")


if __name__ == "__main__":
    asyncio.run(main())
