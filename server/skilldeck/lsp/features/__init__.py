"""The server's capabilities, one module each.

Every module here that defines ``register(server: SkilldeckServer) -> None`` is a
feature: :data:`FEATURES` gathers them (in name order), and ``register`` adds its
handlers with ``server.feature(...)`` and reads ``server.session`` (the shared index).
Adding a capability is one new module; the modules without ``register`` (``params.py``,
``distinct_action.py``) are what the features share.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer


def _feature_modules() -> tuple[ModuleType, ...]:
    modules = (
        importlib.import_module(f"{__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
    )
    return tuple(module for module in modules if callable(getattr(module, "register", None)))


#: Feature modules, in registration order (every module of this package with a
#: ``register``).
FEATURES: tuple[ModuleType, ...] = _feature_modules()


def register_all(server: SkilldeckServer) -> None:
    """Register every feature module's handlers on ``server``."""
    for module in FEATURES:
        module.register(server)
