"""Each folder's skills from providers other than the filesystem (bundled, registered,
runtime): read through :func:`skilldeck.engine.deck.provided_skills` at every index and
again whenever a provider says its skills changed. Tests: ``tests/parity/test_parity.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.deck import ProvidedSkill, provided_skills, provider_registry
from skilldeck.remote import mcp_source_factory

if TYPE_CHECKING:
    from skilldeck.engine.config import SkilldeckConfig
    from skilldeck.engine.registry import ProviderFactory, SkillRegistry
    from skilldeck.lsp.session import Session


class ProvidedSkills:
    """One registry of the deck's other providers per folder, and its change listener."""

    def __init__(self, session: Session) -> None:
        self.session = session
        #: Extra skill providers of every folder's deck (``build_server(providers)``).
        self.providers: tuple[ProviderFactory, ...] = ()
        self._registries: dict[str, tuple[SkillRegistry, Callable[[], None]]] = {}

    async def read(
        self, folder: str, config: SkilldeckConfig
    ) -> tuple[tuple[ProvidedSkill, ...], bool]:
        """The provided skills for ``folder`` (a fresh registry per index: the
        configuration may have changed). A provider that fails makes the folder's view
        incomplete; it never stops indexing."""
        self.forget(folder)
        try:
            registry = provider_registry(config, self.providers, mcp_sources=mcp_source_factory)
        except ImportError as error:  # an mcp source in the pure-Python bundle (no SDK)
            self.session.server.log(
                f"skilldeck: a skill source needs {error.name or 'a module'}, which this"
                " Python lacks (the VS Code extension's bundled server has no MCP SDK: set"
                " skilldeck.importStrategy to fromEnvironment); its skills are left out",
                types.MessageType.Warning,
            )
            return (), False
        unsubscribe = registry.on_change(lambda: self.session.spawn(self._refresh(folder)))
        self._registries[folder] = (registry, unsubscribe)
        try:
            return await provided_skills(registry, cwd=folder)
        except Exception as error:
            self.session.server.log(f"skilldeck: a skill provider failed: {error!r}")
            return (), False

    async def reread(self, folder: str) -> None:
        """Read ``folder``'s providers again with a fresh registry (a git source got a
        new commit) and install the result, unless a newer index took over."""
        session = self.session
        index = session.folders.get(folder)
        if index is None or not index.ready:
            return
        generation = session.generation
        provided, complete = await self.read(folder, index.config)
        if session.folders.get(folder) is not index or session.generation != generation:
            return
        session.publisher.changed(index.set_provided(provided, complete))
        session.catalogs.schedule()
        session.overlaps.schedule({folder})

    def forget(self, folder: str) -> None:
        """Stop listening to ``folder``'s providers (removed folder, or a new index)."""
        held = self._registries.pop(folder, None)
        if held is not None:
            held[1]()

    async def _refresh(self, folder: str) -> None:
        session = self.session
        index = session.folders.get(folder)
        held = self._registries.get(folder)
        if index is None or held is None or not index.ready:
            return
        try:
            provided, complete = await provided_skills(held[0], cwd=folder)
        except Exception as error:
            session.server.log(f"skilldeck: a skill provider failed: {error!r}")
            provided, complete = index.provided, False
        if session.folders.get(folder) is not index:
            return
        session.publisher.changed(index.set_provided(provided, complete))
        session.catalogs.schedule()
        session.overlaps.schedule({folder})
