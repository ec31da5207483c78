"""The provider of a git source: the skill files of its cached checkout.

``list()`` fetches first when the copy is missing or older than the source's refresh
interval (a ref that is a full commit id is fetched once), waiting at most the source's
timeout; the awaiting task's cancellation, or the registration's abort signal, kills the
fetch. Offline first: when the fetch fails the last
good copy is served and the observation is incomplete; a source never fetched yet lists
nothing (incomplete) and logs why.

The checkout's files are analysed like any root's (:func:`scan_root`): every guard of a
local file applies (sizes, YAML, tags, path escapes), and ``get`` rereads through the
filesystem provider. The skills carry ``source = "git:<name>"``, the source's label.
With ``require``, each skill is marked to serve only the bundle files the safety scan
reads in full (:func:`skilldeck.engine.filesystem.served_scanned_only`): the files its
gate judged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path

from skilldeck.engine.config import GitSourceSpec, SkilldeckConfig
from skilldeck.engine.filesystem import (
    FilesystemProvider,
    SkillRoot,
    default_cache_dir,
    scan_root,
    to_candidate,
)
from skilldeck.engine.registry import (
    LookupOptions,
    ProviderControl,
    ProviderFactory,
    ProviderObservation,
    SkillCandidate,
    SkillDefinition,
)
from skilldeck.engine.sources._git_cache import (
    CopyState,
    FetchError,
    fetch,
    good_copy,
    read_state,
    record_failure,
    skills_folder,
    source_dir,
)

_logger = logging.getLogger("skilldeck.sources")


class GitSourceProvider:
    """One ``[[sources]]`` git table as a ``SkillProvider`` named ``git:<name>``."""

    def __init__(
        self,
        spec: GitSourceSpec,
        config: SkilldeckConfig,
        *,
        cache_dir: Path,
        control: ProviderControl | None = None,
    ) -> None:
        self._spec = spec
        self._config = config
        self._folder = source_dir(spec, cache_dir)
        self._cache_dir = cache_dir
        self._files = FilesystemProvider(config, name=spec.label)
        self._control = control

    @property
    def name(self) -> str:
        return self._spec.label

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate] | ProviderObservation:
        spec = self._spec
        # Checking the copy walks its tree: off the event loop, like the scan.
        state, rev = await asyncio.to_thread(self._copy)
        problem: str | None = None
        fetched_at = state.fetched_at if state is not None and rev is not None else None
        stale = fetched_at is None or time.time() - fetched_at > spec.refresh_interval
        if rev is None or (stale and not pins_a_commit(spec)):
            problem = await self._refresh()
            state, rev = await asyncio.to_thread(self._copy)
        if rev is None:
            reason = problem or "its copy in the cache is damaged"
            _logger.warning('skill source "%s": never fetched: %s', spec.name, reason)
            return ProviderObservation((), complete=False)
        if problem is not None:
            _logger.warning(
                'skill source "%s": serving the last good copy (%s): %s',
                spec.name,
                rev.name.removeprefix("rev-")[:12],
                problem,
            )
        candidates, complete = await asyncio.to_thread(self._scan, skills_folder(spec, rev))
        if problem is None and complete:
            return candidates
        return ProviderObservation(candidates, complete=False)

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        return await self._files.get(candidate, options)

    def _copy(self) -> tuple[CopyState | None, Path | None]:
        """The copy's state and its folder when it is whole."""
        state = read_state(self._folder)
        return state, good_copy(self._folder, state)

    async def _refresh(self) -> str | None:
        """Fetch within the timeout; the reason it failed, or ``None``."""
        spec = self._spec
        task = asyncio.ensure_future(fetch(spec, self._cache_dir, self._config.rule_settings()))
        signal = self._control.signal if self._control is not None else None
        if signal is not None:

            def cancel(_reason: BaseException) -> None:
                task.cancel()

            signal.add_callback(cancel)
        try:
            await asyncio.wait_for(task, spec.timeout)
        except asyncio.TimeoutError:
            reason = f"no answer within {spec.timeout:g} s"
            await asyncio.to_thread(record_failure, spec, self._folder, reason)
            return reason
        except FetchError as error:
            return str(error)
        except asyncio.CancelledError:
            if signal is not None and signal.aborted:
                return "aborted"
            raise
        return None

    def _scan(self, folder: Path) -> tuple[tuple[SkillCandidate, ...], bool]:
        root = SkillRoot(self._spec.rank, self._spec.label, str(folder), folder.is_dir())
        if not root.exists:
            return (), False
        scan = scan_root(root, self._config.rule_settings())
        # Under ``require`` the gate vouched for what the safety scan read, and only that:
        # whoever serves these skills' files (``skilldeck mcp``) serves nothing else.
        gated = self._spec.require is not None
        candidates = tuple(
            to_candidate(entry, self._spec.label, scanned_only=gated)
            for entry in scan.entries
            if entry.analysis.accepted
        )
        for entry in scan.entries:
            if not entry.analysis.accepted:
                reasons = [f.message for f in entry.analysis.refusals]
                _logger.warning(
                    'skill source "%s": %s left out: %s',
                    self._spec.name,
                    os.path.relpath(entry.path, folder),
                    reasons[0] if reasons else "not a valid skill file",
                )
        return candidates, scan.complete


def pins_a_commit(spec: GitSourceSpec) -> bool:
    """Whether ``spec.ref`` is a full commit id: its copy never changes, never refetched."""
    ref = spec.ref or ""
    return len(ref) in (40, 64) and all(c in "0123456789abcdef" for c in ref.lower())


def git_source_factory(spec: GitSourceSpec, config: SkilldeckConfig) -> ProviderFactory:
    """A factory for ``SkillRegistry.register_provider`` (cache: the user cache dir)."""

    def create(control: ProviderControl) -> GitSourceProvider:
        return GitSourceProvider(spec, config, cache_dir=default_cache_dir(), control=control)

    return create
