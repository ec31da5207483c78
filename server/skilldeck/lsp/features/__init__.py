"""The server's capabilities, one module each.

Every module here exposes ``register(server: SkilldeckServer) -> None`` which adds its
handlers with ``server.feature(...)`` and reads ``server.session`` (the shared index).
Adding a capability is one new module plus one line in :data:`FEATURES`.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from skilldeck.lsp.features import (
    catalog,
    code_actions,
    code_lens,
    completion,
    definition,
    folding,
    highlight,
    host_catalog,
    hover,
    links,
    rename,
    skills,
    symbols,
)

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer

#: Feature modules, in registration order.
FEATURES: tuple[ModuleType, ...] = (
    catalog,
    host_catalog,
    skills,
    completion,
    hover,
    definition,
    code_lens,
    code_actions,
    rename,
    symbols,
    links,
    folding,
    highlight,
)


def register_all(server: SkilldeckServer) -> None:
    """Register every feature module's handlers on ``server``."""
    for module in FEATURES:
        module.register(server)
