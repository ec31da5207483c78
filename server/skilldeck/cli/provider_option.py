"""``--provider MODULE:ATTR``: extra skill providers for every command that reads a deck.

``ATTR`` names a provider factory (``control -> provider``, what
``SkillRegistry.register_provider`` takes) in an importable module: a team's in-house
provider, a runtime skill set, a remote source. The factory joins the standard providers
(filesystem, bundled) in ``check``, ``list``, ``catalog``, ``load`` and ``serve`` alike.
Nothing is imported unless the flag is given: a config file cannot make the CLI run code.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from skilldeck.cli.errors import CliError

if TYPE_CHECKING:
    from skilldeck.engine.config import SkilldeckConfig
    from skilldeck.engine.deck import ProvidedSkill
    from skilldeck.engine.registry import ProviderFactory


def add_provider_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--provider MODULE:ATTR`` (repeatable)."""
    parser.add_argument(
        "--provider",
        metavar="MODULE:ATTR",
        action="append",
        dest="providers",
        default=None,
        help="also read skills from the provider factory ATTR of the importable MODULE "
        "(repeatable; registered after the filesystem and bundled providers)",
    )


def load_provider_factory(spec: str) -> ProviderFactory:
    """Import ``MODULE:ATTR`` and return the callable it names; a clear error otherwise."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise CliError(f"--provider: expected MODULE:ATTR, got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # the module's own import errors, reported, not raised
        raise CliError(f"--provider {spec}: cannot import {module_name!r}: {error}") from error
    target: object = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise CliError(f"--provider {spec}: {module_name!r} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(target):
        raise CliError(f"--provider {spec}: {attribute!r} is not callable (expected a factory)")
    factory: ProviderFactory = target
    return factory


def read_provided(
    config: SkilldeckConfig, factories: Sequence[ProviderFactory], cwd: str
) -> tuple[tuple[ProvidedSkill, ...], bool]:
    """The deck's skills from providers other than the filesystem (bundled, ``--provider``,
    remote sources) and whether the read was complete. A deck with none of them starts
    no event loop (the fast path of ``check``)."""
    if not factories and not config.bundled_skills and not config.remote_sources:
        return (), True
    import asyncio  # noqa: PLC0415 - only when a deck has other providers

    from skilldeck.engine.deck import (  # noqa: PLC0415
        provided_skills,
        provider_registry,
    )
    from skilldeck.remote import mcp_source_factory  # noqa: PLC0415

    registry = provider_registry(config, factories, mcp_sources=mcp_source_factory)
    return asyncio.run(provided_skills(registry, cwd=cwd))
