"""The MCP server over one deck: tool, prompts, instructions, resources, Skills extension.

Built on the official MCP SDK's low-level ``Server`` (``mcp`` 2.x), which speaks both
protocol eras on one connection: the ``initialize`` handshake (2025-11-25 and older)
and the ``server/discover`` era (2026-07-28). What each era gets:

- both: the ``skill`` tool (the engine's schema, executor and three errors; its text is
  what ``skilldeck load NAME`` prints), the catalog as ``instructions`` and as the
  ``skills_catalog`` prompt, one prompt per user-invocable skill (the ``/name`` gesture:
  :func:`skilldeck.engine.model_view.expand_user_message`), and each served skill's files
  as ``skill://`` resources;
- 2026-07-28: the Skills extension (``skills/list``, ``skills/get``), declared under
  ``capabilities.extensions``; change notifications ride ``subscriptions/listen``.

Live: a change of the deck (the registry's ``on_change``, fed by the root watcher)
re-reads the view; when the new view is accepted (an incomplete read keeps the last
good one) every connection is told that tools, prompts and resources changed, and the
instructions of later connections are the new catalog. With a ``watch_gate`` the root
watches go live only after the first answer, once no request came for a moment
(:meth:`~skilldeck.engine.filesystem.WatchGate.open_when_quiet`: the engine's one policy
for this, which the language server follows too), or, when no request comes,
:data:`UNANSWERED_LIVE_S` after the first read: setting them up holds the GIL for a
moment per root that requests should not wait for.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import mimetypes
import os
import re
import time
import weakref
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.connection import Connection
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

import skilldeck
from skilldeck.engine.config import RuleSettings
from skilldeck.engine.filesystem import (
    QuietCall,
    Refusal,
    WatchGate,
    is_file_skill,
    load_judged,
)
from skilldeck.engine.model_view import (
    SKILL_TOOL_NAME,
    SkillLookup,
    SkillSnapshot,
    execute_skill_tool,
    expand_user_message,
    shown_name,
    skill_tool_schema,
)
from skilldeck.engine.registry import SkillCandidate, SkillDefinition, SkillRegistry, is_skill_name
from skilldeck.mcp.deck_view import DeckState, DeckView
from skilldeck.mcp.skill_entries import (
    EXTENSION_ID,
    PAGE_SIZE,
    EntryCache,
    RefusedEntry,
    SkillEntry,
    provided_skill_bytes,
    served_skills,
)
from skilldeck.mcp.skill_files import SkillFileError, read_served_file, unscanned_reason
from skilldeck.mcp.skill_uris import SCHEME, parse_skill_uri, skill_uri

_logger = logging.getLogger(__name__)

#: The prompt carrying the catalog (not a kebab-case name, so no skill can take it).
CATALOG_PROMPT = "skills_catalog"
#: How long changes are gathered before the view is read again.
_SETTLE_SECONDS = 0.05
#: Seconds after the first read before the watch gate opens if no request came (an HTTP
#: server nobody has asked yet): a later client's first answer then has a live deck.
UNANSWERED_LIVE_S = 1.0
#: A pagination cursor as this server writes it: an offset in ASCII digits (``str.isdigit``
#: takes ``"\u00b2"`` and ``"\u0661"`` too), short enough that ``int()`` never sees a huge number.
_CURSOR = re.compile(r"[0-9]{1,9}")

Context = ServerRequestContext[Any, Any]
T = TypeVar("T")


class SkillsListParams(types.PaginatedRequestParams):
    """``skills/list`` parameters: an optional ``cursor``."""


class SkillsGetParams(types.RequestParams):
    """``skills/get`` parameters: the ``uri`` of a skill's ``SKILL.md``."""

    uri: str


class _DeckLowLevelServer(Server[Any]):
    """The SDK's server whose handshake always declares list-changed notifications (the
    HTTP session manager asks with no options) and answers with the current catalog."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        every_change = NotificationOptions(
            prompts_changed=True, resources_changed=True, tools_changed=True
        )
        return super().create_initialization_options(
            notification_options or every_change, experimental_capabilities, extensions
        )


class DeckServer:
    """One deck served over MCP (any number of connections share it)."""

    def __init__(
        self,
        registry: SkillRegistry,
        *,
        cwd: str,
        max_description_length: int,
        watch_gate: WatchGate | None = None,
        require_safe: bool = False,
        settings: RuleSettings | None = None,
    ) -> None:
        self.registry = registry
        self._watch_gate = watch_gate
        self._answered = False
        #: ``time.monotonic()`` when a request last began or ended (the gate's clock).
        self._last_request_at = 0.0
        self._gate_opening: QuietCall | None = None
        self.cwd = cwd
        self.state = DeckState(
            registry,
            cwd=cwd,
            max_description_length=max_description_length,
            require_safe=require_safe,
            settings=settings,
        )
        self._entries = EntryCache(
            self._definition,
            scanned_only=require_safe,
            judge=self.state.settings if require_safe else None,
        )
        self._connections: weakref.WeakSet[Connection] = weakref.WeakSet()
        self._bus = InMemorySubscriptionBus()
        self._listen = ListenHandler(self._bus)
        self._changed: anyio.Event | None = None
        self.server: Server[Any] = _DeckLowLevelServer(
            "skilldeck",
            version=skilldeck.__version__,
            title="skilldeck",
            description="The skill deck of a project: catalog, skill tool, prompts, skill files.",
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_resource_templates,
            on_read_resource=self._read_resource,
            on_subscriptions_listen=self._listen,
            lifespan=self._lifespan,
        )
        self._started = False
        self.server.add_request_handler("skills/list", SkillsListParams, self._skills_list)
        self.server.add_request_handler("skills/get", SkillsGetParams, self._skills_get)
        self.server.extensions[EXTENSION_ID] = {}
        self.server.middleware.append(self._track_session)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Read the deck once (and start watching its roots) before serving; called
        again, nothing (a caller may start the server before handing it to a transport)."""
        if self._started:
            return
        self._started = True
        await self.state.refresh()
        self.server.instructions = (await self.state.current()).catalog_text
        self.registry.on_change(self._on_change)
        self._open_watch_gate_in(UNANSWERED_LIVE_S)

    def initialization_options(self) -> InitializationOptions:
        """What the handshake era's ``initialize`` answers (list-changed declared)."""
        return self.server.create_initialization_options()

    @asynccontextmanager
    async def _lifespan(self, server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        async with anyio.create_task_group() as group:
            group.start_soon(self.follow_changes)
            try:
                yield {}
            finally:
                self.close()
                group.cancel_scope.cancel()

    async def follow_changes(self) -> None:
        """Run until cancelled: re-read the deck after each change and tell the clients."""
        self._changed = anyio.Event()
        while True:
            await self._changed.wait()
            await anyio.sleep(_SETTLE_SECONDS)
            self._changed = anyio.Event()  # a change during the read below: one more round
            try:
                replaced = await self.state.refresh()
            except Exception:
                _logger.warning("reading the deck after a change failed", exc_info=True)
                continue
            if replaced:
                await self._changed_view()

    def close(self) -> None:
        """End open ``subscriptions/listen`` streams (and drop a pending gate opening)."""
        self._listen.close()
        if self._gate_opening is not None:
            self._gate_opening.cancel()

    def _on_change(self) -> None:
        if self._changed is not None:
            self._changed.set()

    async def _announce(self) -> None:
        for connection in list(self._connections):
            try:
                await connection.send_resource_list_changed()
                await connection.send_prompt_list_changed()
                await connection.send_tool_list_changed()
            except Exception:  # a closed connection: forget it
                self._connections.discard(connection)
        for event in (ResourcesListChanged(), PromptsListChanged(), ToolsListChanged()):
            await self._bus.publish(event)

    async def _track_session(self, ctx: Context, call_next: CallNext) -> HandlerResult:
        # The low-level context hands out a per-request ServerSession; the connection
        # it wraps (what outlives the request) is not public in mcp 2.3.
        connection = getattr(ctx.session, "_connection", None)
        if isinstance(connection, Connection):
            self._connections.add(connection)
        self._last_request_at = time.monotonic()
        try:
            return await call_next(ctx)
        finally:
            self._last_request_at = time.monotonic()
            gate = self._watch_gate
            if not self._answered and gate is not None and not gate.is_open:
                # Once the first answer is out (its ~1.7 MB at 10,000 skills was on the
                # wire ~0.04 s after the handler returned) and the client paused.
                self._gate_opening = gate.open_when_quiet(lambda: self._last_request_at)
            self._answered = True

    def _open_watch_gate_in(self, seconds: float) -> None:
        """Open the watch gate (if any, and closed) ``seconds`` from now: the fallback
        when no request comes. Opening twice is nothing, so it may run after the first
        answer's quiet opening."""
        gate = self._watch_gate
        if gate is not None and not gate.is_open:
            asyncio.get_running_loop().call_later(seconds, gate.open)

    # ------------------------------------------------------------------ tool

    async def _list_tools(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        schema = skill_tool_schema()
        tool = types.Tool(
            name=schema["name"],
            description=schema["description"],
            input_schema=schema["parameters"],
        )
        return types.ListToolsResult(tools=[tool])

    async def _call_tool(
        self, ctx: Context, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name != SKILL_TOOL_NAME:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {shown_name(params.name)!r}")
        name = (params.arguments or {}).get("name")
        refused = await self._refused_in_view(name)
        if refused is None:
            lookup = self._lookup()
            result = await execute_skill_tool(lookup, params.arguments or {}, cwd=self.cwd)
            refused = await self._refused_when_loaded(name, lookup)
        if refused is not None:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=refused)], is_error=True
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)], is_error=not result.ok
        )

    def _lookup(self) -> SkillLookup:
        """What the tool and the prompts load skills through: the registry, or under
        ``--require-safe`` a :class:`JudgingLookup` (each skill file read once, judged,
        and served from that read)."""
        if not self.state.require_safe:
            return self.registry
        return JudgingLookup(self.registry, self.state.settings)

    async def _refused_when_loaded(self, name: object, lookup: SkillLookup) -> str | None:
        """The refusal of the skill ``lookup`` judged unsafe as it loaded it (it leaves
        the served view, the clients are told), as the tool answers it."""
        if not isinstance(lookup, JudgingLookup) or lookup.refused is None:
            return None
        assert isinstance(name, str)
        await self._refuse(name, lookup.refused)
        return _refusal_text(name, lookup.refused)

    # ------------------------------------------------------------------ prompts

    async def _list_prompts(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        view = await self._view()
        prompts = [
            types.Prompt(
                name=CATALOG_PROMPT,
                description="The catalog of skills the model can load with the skill tool.",
            ),
            *(
                types.Prompt(name=skill.name, description=skill.description)
                for skill in view.user_invocable()
            ),
        ]
        page, cursor = _page(prompts, params)
        return types.ListPromptsResult(prompts=page, next_cursor=cursor)

    async def _get_prompt(
        self, ctx: Context, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name == CATALOG_PROMPT:
            view = await self._view()
            return _user_prompt("The skills catalog", view.catalog_text)
        refused = await self._refused_in_view(params.name)
        injections = []
        if is_skill_name(params.name) and refused is None:
            lookup = self._lookup()
            injections = await expand_user_message(lookup, f"/{params.name}", cwd=self.cwd)
            if await self._refused_when_loaded(params.name, lookup) is not None:
                injections = []
        if not injections:
            raise MCPError(
                types.INVALID_PARAMS,
                f"Unknown prompt {shown_name(params.name)!r}: no skill the user can invoke "
                "has this name.",
            )
        return _user_prompt(f"The instructions of skill {params.name}", injections[0].text)

    # ------------------------------------------------------------------ resources

    async def _list_resources(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        view = await self._view()
        page, cursor = _page(served_skills(view), params)
        resources = []
        for skill in page:
            # A skill with no entry (over the extension's limits, unreadable, unsafe) is
            # not served through skill:// either: listed by neither list.
            if isinstance(await self._listed_entry(view, skill), SkillEntry):
                resources.append(
                    types.Resource(
                        uri=skill_uri(skill.name),
                        name=skill.name,
                        description=skill.description,
                        mime_type="text/markdown",
                    )
                )
        return types.ListResourcesResult(resources=resources, next_cursor=cursor)

    async def _list_resource_templates(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        template = types.ResourceTemplate(
            uri_template=f"{SCHEME}://{{name}}/{{+path}}",
            name="skill-file",
            description="A file of a skill: SKILL.md or a file beside it.",
        )
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def _read_resource(
        self, ctx: Context, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        shown = shown_name(uri)  # the URI as errors echo it (cut: a client's input)
        parsed = parse_skill_uri(uri)
        if isinstance(parsed, str):
            raise MCPError(types.INVALID_PARAMS, f"Resource not found: {shown}: {parsed}")
        entry = await self._entry(parsed.name)
        if isinstance(entry, str):
            raise MCPError(types.INVALID_PARAMS, f"Resource not found: {shown}: {entry}")
        file = entry.files.find(parsed.relative)
        if file is None:
            unscanned = await anyio.to_thread.run_sync(
                unscanned_reason, entry.files, parsed.relative
            )
            why = unscanned or f"skill {parsed.name!r} serves no such file"
            raise MCPError(types.INVALID_PARAMS, f"Resource not found: {shown}: {why}")
        if file.path is None:  # a provided skill's SKILL.md: synthesized again
            synthesized = await provided_skill_bytes(parsed.name, self._definition)
            if isinstance(synthesized, str):
                raise MCPError(types.INVALID_PARAMS, f"Resource unreadable: {shown}: {synthesized}")
            data = synthesized
        else:  # judged again where it lies now (skill_files.read_served_file)
            try:
                data = await anyio.to_thread.run_sync(read_served_file, entry.files, file)
            except SkillFileError as error:
                self._stale(parsed.name)
                raise MCPError(
                    types.INVALID_PARAMS, f"Resource unreadable: {shown}: {error}"
                ) from error
        if hashlib.sha256(data).hexdigest() != file.sha256:
            # Changed since the manifest was built (the root watcher does not report files
            # beside SKILL.md, nor a provider's new definition): never served unattested.
            self._stale(parsed.name)
            raise MCPError(
                types.INVALID_PARAMS,
                f"Resource changed: {shown}: its bytes no longer match the digest its skill "
                "listed; read the skill's entry again (skills/get)",
            )
        return types.ReadResourceResult(contents=[_contents(uri, parsed.relative, data)])

    def _stale(self, name: str) -> None:
        """``name``'s manifest no longer matches its files: drop the entry (the next one
        is built afresh) and tell the clients their manifests are old."""
        self._entries.forget(name)
        self._on_change()

    # ------------------------------------------------------------------ Skills extension

    async def _skills_list(self, ctx: Context, params: SkillsListParams) -> dict[str, Any]:
        _require_modern(ctx, "skills/list")
        view = await self._view()
        page, cursor = _page(served_skills(view), params)
        skills: list[dict[str, Any]] = []
        for skill in page:
            entry = await self._listed_entry(view, skill)
            if isinstance(entry, SkillEntry):
                skills.append(entry.wire)
        result: dict[str, Any] = {"skills": skills}
        if cursor is not None:
            result["nextCursor"] = cursor
        refused = (await self.state.current()).refused  # with those refused just now
        if refused:
            result["_meta"] = {
                REFUSED_META: [
                    _refused_meta(name, refusal) for name, refusal in sorted(refused.items())
                ]
            }
        return _complete(result)

    async def _listed_entry(
        self, view: DeckView, skill: SkillCandidate
    ) -> SkillEntry | RefusedEntry | str:
        """``skill``'s entry for a list; a skill the gate refuses in the bytes the entry
        read leaves the served view (the clients are told)."""
        entry = await self._entries.entry(view, skill)
        if isinstance(entry, RefusedEntry):
            await self._refuse(skill.name, entry.refusal)
        return entry

    async def _skills_get(self, ctx: Context, params: SkillsGetParams) -> dict[str, Any]:
        _require_modern(ctx, "skills/get")
        parsed = parse_skill_uri(params.uri)
        if isinstance(parsed, str) or parsed.relative != "SKILL.md":
            reason = parsed if isinstance(parsed, str) else "not the URI of a SKILL.md"
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown skill URI: {shown_name(params.uri)}: {reason}"
            )
        entry = await self._entry(parsed.name, fresh=True)
        if isinstance(entry, str):
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown skill URI: {shown_name(params.uri)}: {entry}"
            )
        return _complete({"skill": entry.wire})

    async def _view(self) -> DeckView:
        """The served view, after the skills refused when used were judged again (one
        safe again is served again, and the clients are told)."""
        if await self.state.recheck():
            await self._changed_view()
        return await self.state.current()

    async def _changed_view(self) -> None:
        """The served view changed (a read of the deck, or a skill refused or served
        again when judged at use): new instructions for later connections, and the
        clients told that tools, prompts and resources changed."""
        self.server.instructions = (await self.state.current()).catalog_text
        await self._announce()

    async def _refused_in_view(self, name: object) -> str | None:
        """Why the served view leaves the skill ``name`` out under ``--require-safe``
        (found unsafe when the deck was read, or when used since, and not safe again);
        ``None``: the view serves it, or does not know it."""
        if not isinstance(name, str) or not self.state.require_safe:
            return None
        refusal = (await self._view()).refused.get(name)
        return None if refusal is None else _refusal_text(name, refusal)

    async def _refuse(self, name: str, refusal: Refusal) -> None:
        """The skill ``name`` was found unsafe in the bytes read to serve it: it leaves
        the served view, its entry is dropped and the clients are told."""
        self._entries.forget(name)
        if self.state.refuse(name, refusal):
            await self._changed_view()

    async def _refused(self, name: object) -> str | None:
        """Why ``--require-safe`` does not serve the skill ``name`` (``None``: it may).

        A skill the served view lets through is judged again as its files are now
        (:meth:`DeckState.refused_now`): a script of its bundle may have turned hostile
        since the deck was read, in a folder the root watcher does not see (it watches
        one level into each bundle) or before the watches went live. Such a skill is
        refused on the spot and leaves the served view; the clients are told that the
        tools, prompts and resources changed. A name the view does not know yet (a
        skill added a moment ago, which the registry the tool and prompts load from
        already has) is judged now too, never served unjudged."""
        if not isinstance(name, str):
            return None
        view = await self._view()
        reason = view.refused.get(name)
        if reason is None:
            reason = await self.state.refused_now(name)
            if reason is not None and (await self.state.current()).revision != view.revision:
                self._entries.forget(name)
                await self._changed_view()
        if reason is None:
            return None
        return _refusal_text(name, reason)

    async def _definition(self, name: str) -> SkillDefinition | None:
        return await self.registry.get(name, cwd=self.cwd)

    async def _entry(self, name: str, *, fresh: bool = False) -> SkillEntry | str:
        """``name``'s entry (``fresh``: its files read again, judged and listed from that
        one read), or why it has none. A read of a kept entry judges the skill's files
        again as they are now first (a served file is still compared with its digest)."""
        refused = await (self._refused_in_view(name) if fresh else self._refused(name))
        if refused is not None:
            return refused
        view = await self.state.current()
        skill = _served(view, name)
        if skill is None:
            return f"no skill named {shown_name(name)!r} is served"
        entry = await self._entries.entry(view, skill, fresh=fresh)
        if isinstance(entry, RefusedEntry):
            await self._refuse(name, entry.refusal)
            return _refusal_text(name, entry.refusal)
        return entry


#: The ``skills/list`` ``_meta`` key listing the skills ``--require-safe`` left out.
REFUSED_META = "io.skilldeck/refused"


def _refusal_text(name: str, refusal: Refusal) -> str:
    """What the tool, a prompt or a read answers for a skill the gate refuses."""
    return (
        f"skill {shown_name(name)!r} is not served: it has error-level safety findings "
        f"({refusal.reason})"
    )


def _refused_meta(name: str, refusal: Refusal) -> dict[str, Any]:
    """One skill ``--require-safe`` left out, as ``skills/list``'s ``_meta`` names it:
    the reason, and each error-level finding at its file (relative to the skill's
    folder, ``/``-separated) and line (1-based), as ``check`` reports it."""
    base = os.path.dirname(refusal.skill_path)
    return {
        "name": name,
        "reason": refusal.reason,
        "findings": [
            {
                "path": os.path.relpath(path, base).replace(os.sep, "/"),
                "line": finding.span.start.line + 1,
                "code": finding.code,
                "severity": finding.severity.value,
                "message": finding.message,
            }
            for path, finding in refusal.findings
        ],
    }


class JudgingLookup:
    """The registry as the tool and the prompts load from it under ``--require-safe``:
    a skill file is read once, its bytes (and its bundle's other files as they are now)
    judged, and the definition served comes from that same read. A skill found unsafe
    is not loaded (:attr:`refused` says why); other providers' skills load as they do
    without the gate (they pass their own gates)."""

    def __init__(self, registry: SkillRegistry, settings: RuleSettings) -> None:
        self._registry = registry
        self._settings = settings
        #: The refusal of the last skill found unsafe as it was loaded.
        self.refused: Refusal | None = None

    async def snapshot(self, *, cwd: str | None, scope: Any) -> SkillSnapshot:
        return await self._registry.snapshot(cwd=cwd, scope=scope)

    async def get(self, name: str, *, cwd: str | None, scope: Any) -> SkillDefinition | None:
        if not is_skill_name(name):
            return None
        found = (await self._registry.resolve(cwd=cwd, scope=scope)).names.get(name)
        if found is None:
            return None
        candidate = found.winner.candidate
        if not is_file_skill(candidate):
            return await self._registry.get(name, cwd=cwd, scope=scope)
        judged = await anyio.to_thread.run_sync(load_judged, candidate, self._settings)
        if judged.refusal is not None:
            self.refused = judged.refusal
            return None
        definition = judged.definition
        return definition if definition is not None and definition.name == name else None


def _served(view: DeckView, name: str) -> SkillCandidate | None:
    skill = view.skills.get(name)
    if skill is None or not skill.invocation.model_invocable:
        return None
    return skill


def _complete(result: dict[str, Any]) -> dict[str, Any]:
    """A ``skills/*`` result as the extension's cacheable result: ``resultType`` complete,
    and the deck's freshness hint: immediately stale (the deck changes live; the
    list-changed notifications say when) and private (one user's project)."""
    return {"resultType": "complete", **result, "ttlMs": 0, "cacheScope": "private"}


def _require_modern(ctx: Context, method: str) -> None:
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        raise MCPError(
            types.METHOD_NOT_FOUND,
            f"Method not found: {method} (the Skills extension needs protocol "
            f"{', '.join(MODERN_PROTOCOL_VERSIONS)})",
        )


def _page(
    items: Sequence[T], params: types.PaginatedRequestParams | None
) -> tuple[list[T], str | None]:
    cursor = params.cursor if params is not None else None
    start = 0
    if cursor is not None:
        if _CURSOR.fullmatch(cursor) is None or int(cursor) > len(items):
            shown = cursor if len(cursor) <= 40 else f"{cursor[:40]}..."
            raise MCPError(types.INVALID_PARAMS, f"Invalid cursor: {shown!r}")
        start = int(cursor)
    end = start + PAGE_SIZE
    return list(items[start:end]), (str(end) if end < len(items) else None)


def _user_prompt(description: str, text: str) -> types.GetPromptResult:
    return types.GetPromptResult(
        description=description,
        messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
        ],
    )


def _contents(
    uri: str, relative: str, data: bytes
) -> types.TextResourceContents | types.BlobResourceContents:
    mime = (
        "text/markdown"
        if relative.endswith(".md")
        else mimetypes.guess_type(relative)[0] or "application/octet-stream"
    )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and "\x00" not in text:
        if mime == "application/octet-stream":
            mime = "text/plain"
        return types.TextResourceContents(uri=uri, mime_type=mime, text=text)
    return types.BlobResourceContents(
        uri=uri, mime_type=mime, blob=base64.b64encode(data).decode("ascii")
    )
