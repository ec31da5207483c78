"""The provider of an ``mcp`` source: skilldeck as an MCP *client* of another server that
speaks the Skills extension (``skills/list``, ``skills/get``), over stdio (a command) or
streamable HTTP (a URL, with a bearer token read from an environment variable).

``list()`` connects, pages through ``skills/list``, reads each ``SKILL.md`` with
``resources/read`` and keeps it only when its SHA-256 matches the digest the listing
gave; the bytes are then analysed by the engine like a local file (every guard applies)
and a rejected file is left out. ``get()`` reads the skill again the same way (bodies are
read fresh). The whole lookup waits at most the source's timeout; the awaiting task's
cancellation closes the connection and kills a stdio server
(:mod:`skilldeck.remote.stdio_transport`). A source that cannot be
read serves its last good listing (:mod:`skilldeck.engine.sources`, in the
user cache dir), marked incomplete.

The token travels only in the HTTP ``Authorization`` header: never on a command line,
never in a message, never on disk.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import os
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx2
import mcp_types as types
from mcp.client.streamable_http import streamable_http_client
from pydantic import BaseModel, ConfigDict

from mcp import Client
from skilldeck.engine.config import McpSourceSpec, SkilldeckConfig, redacted
from skilldeck.engine.files import analyze_skill_bytes
from skilldeck.engine.filesystem import skill_body
from skilldeck.engine.registry import (
    AbortSignal,
    LookupOptions,
    ProviderObservation,
    SkillCandidate,
    SkillDefinition,
    UrlResourceBase,
)
from skilldeck.engine.sources import (
    CopiedSkill,
    ListingCopy,
    listing_dir,
    load_listing,
    note_failure,
    save_listing,
)
from skilldeck.remote.stdio_transport import quick_stdio

_logger = logging.getLogger("skilldeck.sources")
_SKILL_FILE = "SKILL.md"
#: Pages of ``skills/list`` read at most (100 entries each on skilldeck's server).
_MAX_PAGES = 100


class SourceError(Exception):
    """A remote answer skilldeck refuses; the message is safe to show."""


class _ListResult(BaseModel):
    """A ``skills/list`` answer: entries (checked one by one) and the next page's cursor."""

    model_config = ConfigDict(extra="allow")
    skills: list[Any]
    nextCursor: str | None = None


class _GetResult(BaseModel):
    """A ``skills/get`` answer: one entry."""

    model_config = ConfigDict(extra="allow")
    skill: dict[str, Any]


class _ListParams(types.PaginatedRequestParams):
    pass


class _ListRequest(types.Request[_ListParams, str]):
    method: str = "skills/list"
    params: _ListParams


class _GetParams(types.RequestParams):
    uri: str


class _GetRequest(types.Request[_GetParams, str]):
    method: str = "skills/get"
    params: _GetParams


@dataclass(frozen=True)
class McpLocator:
    """The ``SkillCandidate.locator`` of an mcp skill: its ``SKILL.md`` URI."""

    uri: str
    name: str


@dataclass(frozen=True)
class _Verified:
    name: str
    uri: str
    data: bytes


class McpSourceProvider:
    """One ``[[sources]]`` mcp table as a ``SkillProvider`` named ``mcp:<name>``."""

    def __init__(
        self,
        spec: McpSourceSpec,
        config: SkilldeckConfig,
        *,
        cache_dir: Path,
        signal: AbortSignal | None = None,
    ) -> None:
        self._spec = spec
        self._config = config
        self._copy_dir = listing_dir(spec, cache_dir)
        self._signal = signal

    @property
    def name(self) -> str:
        return self._spec.label

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate] | ProviderObservation:
        task = asyncio.ensure_future(self._read_all())
        if self._signal is not None:
            self._signal.add_callback(lambda _reason: _cancel(task))
        try:
            verified, found = await asyncio.wait_for(task, self._spec.timeout)
        except asyncio.TimeoutError:
            return self._unreachable(f"no answer within {self._spec.timeout:g} s")
        except asyncio.CancelledError:
            if self._signal is not None and self._signal.aborted:
                return ProviderObservation((), complete=False)
            raise
        except Exception as error:  # any transport failure is "offline"
            return self._unreachable(_reason(error))
        problems = [*found]
        candidates: list[SkillCandidate] = []
        for skill in verified:
            candidate = self._candidate(skill)
            if candidate is None:
                problems.append(f"{skill.uri}: not a valid skill file; left out")
            else:
                candidates.append(candidate)
        for problem in problems:
            _logger.warning('skill source "%s": %s', self._spec.name, problem)
        kept = tuple(
            skill
            for skill in verified
            if skill.uri in {locator.uri for locator in _mcp(candidates)}
        )
        save_listing(
            self._copy_dir,
            ListingCopy(tuple(CopiedSkill(s.name, s.uri, s.data) for s in kept), time.time()),
        )
        if problems:
            return ProviderObservation(candidates, complete=False)
        return candidates

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        locator = candidate.locator
        if not isinstance(locator, McpLocator):
            return None
        try:
            skill = await asyncio.wait_for(self._read_one(locator), self._spec.timeout)
        except Exception as error:  # a failed read loads nothing
            _logger.warning('skill source "%s": %s', self._spec.name, _reason(error))
            return None
        fresh = self._candidate(skill)
        if fresh is None:
            return None
        return SkillDefinition(
            name=fresh.name,
            description=fresh.description,
            source=fresh.source,
            provider=fresh.provider,
            invocation=fresh.invocation,
            when_to_use=fresh.when_to_use,
            resource_base=fresh.resource_base,
            content=skill_body(skill.data.decode("utf-8", "replace")),
            metadata=fresh.metadata,
        )

    def _unreachable(self, reason: str) -> ProviderObservation:
        note_failure(self._copy_dir, reason)
        copy = load_listing(self._copy_dir)
        if copy is None:
            _logger.warning('skill source "%s": never read: %s', self._spec.name, reason)
            return ProviderObservation((), complete=False)
        _logger.warning(
            'skill source "%s": serving the last good listing: %s', self._spec.name, reason
        )
        candidates = (
            self._candidate(_Verified(skill.name, skill.uri, skill.data)) for skill in copy.skills
        )
        return ProviderObservation(
            tuple(candidate for candidate in candidates if candidate is not None), complete=False
        )

    def _candidate(self, skill: _Verified) -> SkillCandidate | None:
        analysis = analyze_skill_bytes(
            skill.data,
            path=skill.uri,
            expected_name=skill.name,
            settings=self._config.rule_settings(),
        )
        if not analysis.accepted or analysis.name is None or analysis.description is None:
            return None
        return SkillCandidate(
            name=analysis.name,
            description=analysis.description,
            source=self._spec.label,
            provider=self._spec.label,
            invocation=analysis.invocation,
            when_to_use=analysis.when_to_use,
            resource_base=UrlResourceBase(f"skill://{skill.name}/"),
            rank=self._spec.rank,
            locator=McpLocator(skill.uri, skill.name),
            metadata=dict(analysis.metadata) if analysis.metadata is not None else None,
        )

    async def _read_all(self) -> tuple[tuple[_Verified, ...], tuple[str, ...]]:
        verified: tuple[_Verified, ...] = ()
        problems: tuple[str, ...] = ()
        async with self._client() as client:
            cursor: str | None = None
            for _page in range(_MAX_PAGES):
                listing = await client.session.send_request(
                    _ListRequest(params=_ListParams(cursor=cursor)), _ListResult
                )
                for entry in listing.skills:
                    try:
                        verified += (await _verified(client, entry),)
                    except SourceError as error:
                        problems += (str(error),)
                cursor = listing.nextCursor
                if not cursor:
                    break
        return verified, problems

    async def _read_one(self, locator: McpLocator) -> _Verified:
        async with self._client() as client:
            answer = await client.session.send_request(
                _GetRequest(params=_GetParams(uri=locator.uri)), _GetResult
            )
            return await _verified(client, answer.skill)

    @contextlib.asynccontextmanager
    async def _client(self) -> AsyncIterator[Client]:
        spec = self._spec
        if spec.command is not None:
            async with Client(quick_stdio(spec.command, os.environ), mode="auto") as client:
                yield client
            return
        assert spec.url is not None
        headers: dict[str, str] = {}
        token = os.environ.get(spec.token_env) if spec.token_env else None
        if spec.token_env and not token:
            raise SourceError(f"the environment variable {spec.token_env} is unset or empty")
        if token:
            headers["Authorization"] = f"Bearer {token}"
        async with httpx2.AsyncClient(headers=headers) as http:
            transport = streamable_http_client(spec.url, http_client=http)
            async with Client(transport, mode="auto") as client:
                yield client


async def _verified(client: Client, entry: object) -> _Verified:
    """Read the ``SKILL.md`` of a listing entry; refuse it unless its SHA-256 matches."""
    if not isinstance(entry, dict):
        raise SourceError("a skills/list entry that is not an object")
    uri = entry.get("uri")
    if not isinstance(uri, str) or not uri.startswith("skill://"):
        raise SourceError(f"a skills/list entry without a skill:// URI: {uri!r}")
    name, _, file = uri.removeprefix("skill://").partition("/")
    name = unquote(name)
    if unquote(file) != _SKILL_FILE:
        raise SourceError(f"{uri}: not a {_SKILL_FILE} URI")
    digest = _listed_digest(entry, uri)
    if digest is None:
        raise SourceError(f"{uri}: the listing gives no sha256 digest; refused")
    result = await client.read_resource(uri)
    data = b"".join(_content_bytes(content) for content in result.contents)
    actual = hashlib.sha256(data).hexdigest()
    if actual != digest:
        raise SourceError(
            f"{uri}: content does not match the listed sha256 "
            f"(listed {digest[:12]}..., read {actual[:12]}...); refused"
        )
    return _Verified(name, uri, data)


def _listed_digest(entry: dict[str, Any], uri: str) -> str | None:
    resources = entry.get("resources")
    if not isinstance(resources, list):
        return None
    for resource in resources:
        if isinstance(resource, dict) and resource.get("uri") == uri:
            digest = resource.get("digest")
            if isinstance(digest, str) and digest.startswith("sha256:"):
                return digest.removeprefix("sha256:").lower()
    return None


def _cancel(task: asyncio.Future[Any]) -> None:
    task.cancel()


def _mcp(candidates: Sequence[SkillCandidate]) -> list[McpLocator]:
    return [c.locator for c in candidates if isinstance(c.locator, McpLocator)]


def _content_bytes(content: object) -> bytes:
    text = getattr(content, "text", None)
    if isinstance(text, str):
        return text.encode("utf-8")
    blob = getattr(content, "blob", None)
    if isinstance(blob, str):
        return base64.b64decode(blob)
    return b""


def _reason(error: BaseException) -> str:
    """A one-line reason for a failed read (exception groups unwrapped; URLs redacted)."""
    inner = getattr(error, "exceptions", None)
    while isinstance(inner, tuple) and inner and isinstance(inner[0], BaseException):
        error = inner[0]
        inner = getattr(error, "exceptions", None)
    text = " ".join(str(error).split()) or type(error).__name__
    return redacted(text) if "://" in text and " " not in text else text
