"""What ``skilldeck sources`` reports: each source's revision, age and health, and the
forced refresh of ``skilldeck sources update``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from skilldeck.engine.config import GitSourceSpec, RuleSettings, SourceSpec, redacted
from skilldeck.engine.sources._git_cache import (
    FetchError,
    fetch,
    good_copy,
    read_state,
    record_failure,
    source_dir,
)
from skilldeck.engine.sources._listing_copy import listing_dir, load_listing

#: The health of a source that cannot serve fresh skills, and what it means (the
#: editor warns about these: on the config file, or in its log for an editor source).
FAILING_HEALTH: Mapping[str, str] = {
    "offline": "offline, serving its last good copy",
    "never fetched": "never fetched, it contributes no skill",
    "damaged": "damaged in the cache, it is fetched again at the next lookup",
    "never read": "never read, it contributes no skill",
}


@dataclass(frozen=True)
class SourceStatus:
    """One source as ``skilldeck sources`` shows it.

    ``health``: ``ok`` (fresh copy), ``stale`` (older than its refresh interval),
    ``offline`` (the last fetch or read failed; the last good copy is served), ``never
    fetched`` (a git source without a copy: it contributes nothing), ``damaged`` (its
    copy in the cache no longer matches what was fetched: it is not served, and the next
    lookup fetches it again), ``never read`` (an mcp source without a stored listing).
    ``sources update`` fetches git sources only (an mcp source is read at every lookup).
    """

    name: str
    type: str
    label: str
    location: str
    ref: str | None
    rank: int
    revision: str | None
    age: float | None
    health: str
    error: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "type": self.type,
            "label": self.label,
            "location": self.location,
            "ref": self.ref,
            "rank": self.rank,
            "revision": self.revision,
            "ageSeconds": None if self.age is None else round(self.age, 1),
            "health": self.health,
            "error": self.error,
        }


def source_status(spec: SourceSpec, cache_dir: Path, *, now: float | None = None) -> SourceStatus:
    """The status of ``spec`` from its cache (never touches the network)."""
    now = time.time() if now is None else now
    if not isinstance(spec, GitSourceSpec):
        location = spec.url if spec.url is not None else " ".join(spec.command or ())
        copy = load_listing(listing_dir(spec, cache_dir))
        age = None if copy is None else max(0.0, now - copy.read_at)
        health = "never read" if copy is None else "offline" if copy.error else "ok"
        return SourceStatus(
            spec.name, "mcp", spec.label, redacted(location), None, spec.rank,
            None, age, health, None if copy is None else copy.error,
        )  # fmt: skip
    folder = source_dir(spec, cache_dir)
    state = read_state(folder)
    rev = good_copy(folder, state)
    revision = state.commit if state is not None and rev is not None else None
    fetched = state.fetched_at if state is not None and rev is not None else None
    age = None if fetched is None else max(0.0, now - fetched)
    error = state.error if state is not None else None
    if revision is None:
        health = "damaged" if state is not None and state.commit is not None else "never fetched"
    elif error is not None:
        health = "offline"
    elif age is not None and age > spec.refresh_interval:
        health = "stale"
    else:
        health = "ok"
    return SourceStatus(
        spec.name, "git", spec.label, redacted(spec.url), spec.ref, spec.rank,
        revision, age, health, error,
    )  # fmt: skip


async def update_sources(
    specs: Sequence[SourceSpec], cache_dir: Path, settings: RuleSettings | None = None
) -> list[tuple[SourceSpec, str | None]]:
    """Fetch every git source now (each within its timeout, all at once; ``settings``
    the project's, for the ``require`` gate); per source the reason it failed, or
    ``None``."""

    async def one(spec: SourceSpec) -> tuple[SourceSpec, str | None]:
        if not isinstance(spec, GitSourceSpec):
            return spec, None
        return spec, await fetch_in_time(spec, cache_dir, settings)

    return list(await asyncio.gather(*(one(spec) for spec in specs)))


async def fetch_in_time(
    spec: GitSourceSpec, cache_dir: Path, settings: RuleSettings | None = None
) -> str | None:
    """Fetch ``spec`` now, within its timeout (a timeout is recorded as the source's
    failure, off the event loop; ``settings`` the project's, for the ``require`` gate);
    the reason it failed, or ``None``. The CLI's ``sources update`` and the language
    server's background refresh both fetch so."""
    try:
        await asyncio.wait_for(fetch(spec, cache_dir, settings), spec.timeout)
    except asyncio.TimeoutError:
        reason = f"no answer within {spec.timeout:g} s"
        await asyncio.to_thread(record_failure, spec, source_dir(spec, cache_dir), reason)
        return reason
    except FetchError as error:
        return str(error)
    return None
