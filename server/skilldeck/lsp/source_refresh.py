"""Git sources refreshed in the background, and ``skilldeck.sources.update``.

After every index a timer looks at each git source of the folders' configurations (file
and editor sources alike): a copy older than the source's ``refresh-interval`` (counted
from the last attempt, so a failing source is retried once per interval) is fetched
again with work-done progress (``Refreshing skill sources``). git runs as a child
process and the cache's file work in a worker thread, so requests are served meanwhile.
When a fetch brings a new commit, the folders that use the source re-read their
provided skills (diagnostics, Skills view and catalog follow). A failing fetch keeps
the last good copy: the source's warning on the config file is refreshed, an editor
source's failure is logged once, never a dialog. A pinned commit is never refetched.

``workspace/executeCommand`` ``skilldeck.sources.update`` fetches every git source now
and answers ``{sources: [status...]}`` (the fields of ``skilldeck sources --json``).
Tests: ``tests/lsp/test_source_refresh.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skilldeck.engine.config import GitSourceSpec
from skilldeck.engine.filesystem import default_cache_dir
from skilldeck.engine.sources import (
    fetch_in_time,
    good_commit,
    good_copy,
    pins_a_commit,
    read_state,
    source_dir,
    source_status,
)

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session

#: The command that fetches every git source now.
UPDATE_COMMAND = "skilldeck.sources.update"
#: Shortest pause between two looks at the sources' ages (seconds): a tiny
#: ``refresh-interval`` cannot make the timer spin.
MIN_WAIT_S = 0.2
#: The ages are looked at again at least this often (seconds).
MAX_WAIT_S = 300.0


@dataclass(frozen=True)
class _Source:
    """One git source's copy and the folders whose configuration names it."""

    spec: GitSourceSpec
    folder: Path
    folders: tuple[str, ...]


class SourceRefresh:
    """The background timer of a session's git sources (see the module doc)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._timer: asyncio.Task[None] | None = None
        self._one_at_a_time = asyncio.Lock()
        self._runs = 0
        #: Copy folder -> when this session last tried it (a fetch that failed without
        #: writing its state is not retried before its interval either).
        self._tried: dict[Path, float] = {}
        #: Set by :meth:`close` (shutdown): nothing more is sent to the client.
        self._closed = False

    def schedule(self) -> None:
        """(Re)start the timer: after an index the sources may have changed."""
        self._stop_timer()
        if not self._closed and self._sources():
            self._timer = self.session.spawn(self._run_timer())

    def close(self) -> None:
        """Stop for good (shutdown): a fetch being cancelled sends nothing more."""
        self._closed = True
        self._stop_timer()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def update_now(self) -> dict[str, Any]:
        """``skilldeck.sources.update``: fetch every git source now; each one's status."""
        sources = self._sources()
        await self._refresh(sources)
        cache = default_cache_dir()
        seen: dict[str, dict[str, object]] = {}
        for index in list(self.session.folders.values()):
            for spec in index.config.remote_sources:
                status = await asyncio.to_thread(source_status, spec, cache)
                seen.setdefault(spec.label, status.to_json())
        return {"sources": list(seen.values())}

    # -- the timer -------------------------------------------------------------------

    async def _run_timer(self) -> None:
        while True:
            sources = self._sources()
            if not sources:
                return
            due = await asyncio.to_thread(self._due_times, sources)
            now = time.time()
            ready = [source for source, when in due if when is not None and when <= now]
            if ready:
                await self._refresh(ready)
                continue
            later = [when for _, when in due if when is not None]
            if not later:
                return  # every source pins a commit it already has
            await asyncio.sleep(min(MAX_WAIT_S, max(MIN_WAIT_S, min(later) - now)))

    def _sources(self) -> list[_Source]:
        """The git sources of every folder's configuration, one per cache folder."""
        cache = default_cache_dir()
        found: dict[Path, tuple[GitSourceSpec, list[str]]] = {}
        for folder, index in self.session.folders.items():
            for spec in index.config.remote_sources:
                if isinstance(spec, GitSourceSpec):
                    found.setdefault(source_dir(spec, cache), (spec, []))[1].append(folder)
        return [_Source(spec, copy, tuple(folders)) for copy, (spec, folders) in found.items()]

    def _due_times(self, sources: Sequence[_Source]) -> list[tuple[_Source, float | None]]:
        """When each source is next fetched (``None``: never, a pinned commit it has)."""
        due: list[tuple[_Source, float | None]] = []
        for source in sources:
            state = read_state(source.folder)
            has_copy = good_copy(source.folder, state) is not None
            if has_copy and pins_a_commit(source.spec):
                due.append((source, None))
                continue
            last = 0.0
            if state is not None:
                last = max(state.attempted_at or 0.0, state.fetched_at or 0.0)
            last = max(last, self._tried.get(source.folder, 0.0))
            due.append((source, last + source.spec.refresh_interval))
        return due

    # -- one refresh -----------------------------------------------------------------

    async def _refresh(self, sources: Sequence[_Source]) -> None:
        """Fetch ``sources`` one after the other with progress; re-read the folders whose
        source got a new commit; refresh the sources' warnings."""
        if not sources:
            return
        async with self._one_at_a_time:
            self._runs += 1
            session = self.session
            token = await session.progress.start(
                f"skilldeck-sources-{self._runs}", "Refreshing skill sources"
            )
            failed = 0
            changed: set[str] = set()
            try:
                for number, source in enumerate(sources, start=1):
                    session.progress.report(
                        token,
                        f'fetching "{source.spec.name}" ({source.spec.label})',
                        int(100 * (number - 1) / len(sources)),
                    )
                    before = await asyncio.to_thread(_commit_of, source.folder)
                    problem = await self._fetch(source)
                    failed += problem is not None
                    after = await asyncio.to_thread(_commit_of, source.folder)
                    if after != before:
                        changed.update(source.folders)
                for folder in sorted(changed):
                    session.progress.report(token, f"reading {folder}", 100)
                    await session.provided.reread(folder)
            finally:
                ended = f"{failed} skill source(s) failed" if failed else "Skill sources refreshed"
                # After shutdown the transport may be gone (a cancelled fetch still
                # cleans up its checkout in a thread before it gets here).
                session.progress.end(None if self._closed else token, ended)
            folders = {folder for source in sources for folder in source.folders}
            await session.note_source_health(folders)

    async def _fetch(self, source: _Source) -> str | None:
        """Fetch one source within its timeout; the reason it failed, or ``None``."""
        self._tried[source.folder] = time.time()
        # The gate judges with the rule settings of a folder that names the source.
        index = next(
            (self.session.folders[f] for f in source.folders if f in self.session.folders), None
        )
        settings = index.config.rule_settings() if index is not None else None
        return await fetch_in_time(source.spec, default_cache_dir(), settings)


def _commit_of(folder: Path) -> str | None:
    return good_commit(folder, read_state(folder))


def register_update_command(session: Session) -> None:
    """``workspace/executeCommand`` ``skilldeck.sources.update``."""

    @session.server.command(UPDATE_COMMAND)
    async def update_sources(*_arguments: object) -> dict[str, Any]:
        # ``object``, not ``Any``: pygls checks ``issubclass(annotation, LanguageServer)``
        # on the first parameter, and ``typing.Any`` is no class before Python 3.11
        # (VS Code's ``arguments: []`` then failed with "Invalid Params" on 3.10).
        await session.wait_indexed()
        return await session.sources.update_now()
