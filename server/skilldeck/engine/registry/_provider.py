"""The provider seam: what a source of skills implements and what it is handed.

A provider factory ``create(control) -> SkillProvider`` is called synchronously by
``SkillRegistry.register_provider``. Cancellation of the caller's asyncio task is the
cancellation signal for ``list()`` / ``get()``; ``control.signal`` aborts when the
registration is disposed (or failed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import asyncio

from skilldeck.engine.registry._model import SkillCandidate, SkillDefinition


@dataclass(frozen=True, slots=True)
class LookupOptions:
    """Caller context for a provider call. ``cwd`` selects workspace-sensitive skills."""

    cwd: str | None = None


@dataclass(frozen=True, slots=True)
class ProviderObservation:
    """Candidates plus whether discovery was complete (only complete ones are cached)."""

    candidates: Sequence[SkillCandidate]
    complete: bool


@runtime_checkable
class SkillProvider(Protocol):
    """One source of skills (a set of directories, a remote registry, ...)."""

    @property
    def name(self) -> str: ...

    async def list(
        self, options: LookupOptions
    ) -> Sequence[SkillCandidate] | ProviderObservation: ...

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None: ...


class AbortSignal:
    """A one-shot abort flag with a reason, awaitable, like the web's ``AbortSignal``."""

    def __init__(self) -> None:
        self._reason: BaseException | None = None
        self._callbacks: list[Callable[[BaseException], None]] = []
        self._event: asyncio.Event | None = None

    @property
    def aborted(self) -> bool:
        return self._reason is not None

    @property
    def reason(self) -> BaseException | None:
        return self._reason

    def add_callback(self, callback: Callable[[BaseException], None]) -> None:
        """Call ``callback(reason)`` on abort (immediately if already aborted)."""
        if self._reason is not None:
            callback(self._reason)
        else:
            self._callbacks.append(callback)

    def abort(self, reason: BaseException) -> None:
        if self._reason is not None:
            return
        self._reason = reason
        if self._event is not None:
            self._event.set()
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(reason)

    async def wait(self) -> BaseException:
        """Wait until aborted; return the reason."""
        if self._reason is None:
            if self._event is None:
                import asyncio  # noqa: PLC0415 - the CLI's check never waits on a signal

                self._event = asyncio.Event()
            await self._event.wait()
        assert self._reason is not None
        return self._reason


class ProviderControl(Protocol):
    """Registration-scoped capabilities borrowed by one provider."""

    @property
    def signal(self) -> AbortSignal: ...

    def invalidate(self) -> None:
        """Clear completed catalogs and notify listeners, only while this registration is live."""


ProviderFactory = Callable[[ProviderControl], SkillProvider]
