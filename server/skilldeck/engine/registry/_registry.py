"""The provider registry: layers, ranks, snapshots, change events (SPEC sections 3-4).

``SkillRegistry`` merges the catalogs of registered providers and in-process runtime
skills into one view per (cwd, scope), resolves which candidate wins each name, and
loads a winner's full definition on demand through its provider.

Resolution
    Inside one layer a duplicate name goes to the lowest rank, then the earliest
    registration, then the provider's own order (``resolution.group_by_name``).
    Runtime skills (``register()``) take part at rank 250 and, on a rank tie, come
    before every provider of their layer. Across layers the nearest layer of the viewing
    scope's chain wins a name outright, whatever the ranks; the global layer is the
    farthest. Every losing candidate is kept as *shadowed* in ``resolve()``.

Completeness and caching
    A catalog is complete when every provider's ``list()`` succeeded with a complete
    observation and no revision (register, dispose, ``invalidate()``) happened while it
    was being collected. A revision during discovery restarts it once; a second one
    returns the newest candidates marked incomplete. Only complete catalogs are cached,
    in a bounded LRU keyed by (cwd, scope chain, revision). Bodies are never cached.

Contract violations
    A provider ``list()`` that raises is logged with the provider's name and left out
    (the catalog is then incomplete). A provider that returns something malformed (a
    wrong shape, a wrong-typed field, an invalid name, a candidate for another
    provider) raises ``ProviderContractError`` out of the read instead: that is a bug
    in the provider, not a transient failure, and it names the provider and the field.

Cancellation
    Provider calls run as their own tasks. Cancelling the caller's task cancels them and
    stops waiting at once, so a provider that ignores cancellation cannot hold the
    caller; such a task is kept referenced until it finishes on its own.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from skilldeck.engine.registry._model import (
    RANK_RUNTIME,
    SOURCE_RUNTIME,
    DirectoryResourceBase,
    InvocationPolicy,
    OpaqueResourceBase,
    SkillCandidate,
    SkillDefinition,
    SkillSummary,
    UrlResourceBase,
    is_skill_name,
)
from skilldeck.engine.registry._provider import (
    AbortSignal,
    LookupOptions,
    ProviderFactory,
    ProviderObservation,
    SkillProvider,
)
from skilldeck.engine.registry._resolution import candidate_name_and_rank, group_by_name
from skilldeck.engine.registry._scope import Scope

_logger = logging.getLogger(__name__)

T = TypeVar("T")

#: The provider name that owns runtime skills; no registered provider may use it.
RUNTIME_PROVIDER = "runtime"

_DEFAULT_COLLECT_CACHE_ENTRIES = 128
_MAX_COLLECT_ATTEMPTS = 2


class ProviderContractError(TypeError):
    """A provider returned something outside its contract (shape, field type or value).

    The message names the provider and the offending field; fix the provider.
    """


@dataclass(frozen=True, slots=True)
class CatalogSnapshot:
    """One catalog observation: winning summaries sorted by name, and its completeness.

    ``complete`` is false when a provider failed or reported incomplete discovery, or
    when the catalog kept changing during discovery; keep the last good view then.
    """

    skills: tuple[SkillSummary, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class ResolvedCandidate:
    """A candidate as the registry saw it: who returned it and in which layer.

    ``provider`` is the name of the registration that returned the candidate
    (``"runtime"`` for ``register()`` skills); ``layer`` is ``None`` for the global layer.
    """

    candidate: SkillCandidate
    provider: str
    layer: Scope | None


@dataclass(frozen=True, slots=True)
class NameResolution:
    """How one name resolved: the winner and every candidate it shadows, in order.

    ``shadowed`` lists the winner's own layer first (by rank, registration, provider
    order), then each farther layer out to the global one.
    """

    name: str
    winner: ResolvedCandidate
    shadowed: tuple[ResolvedCandidate, ...]


@dataclass(frozen=True, slots=True)
class Resolution:
    """Every name's resolution for one (cwd, scope) view, keyed and ordered by name."""

    complete: bool
    names: Mapping[str, NameResolution]


# --------------------------------------------------------------------------- internals


@dataclass(eq=False)
class _Registration:
    """One live-or-dead provider registration (identity is the registration)."""

    name: str
    provider: SkillProvider
    order: int
    layer: _Layer
    live: bool = True


@dataclass(eq=False)
class _Layer:
    """One scope's contributions: providers in registration order and runtime skills."""

    scope: Scope | None
    providers: dict[str, _Registration] = dataclasses.field(default_factory=dict)
    runtime: dict[str, SkillCandidate] = dataclasses.field(default_factory=dict)

    def is_empty(self) -> bool:
        return not self.providers and not self.runtime


@dataclass(frozen=True, slots=True)
class _Entry:
    """A resolved candidate plus what ``get()`` needs to load it."""

    resolved: ResolvedCandidate
    provider: SkillProvider
    registration: _Registration | None


@dataclass(frozen=True, slots=True)
class _Collected:
    """One collection: the resolution, winners for ``get()`` and sorted summaries."""

    resolution: Resolution
    winners: Mapping[str, _Entry]
    summaries: tuple[SkillSummary, ...]

    @property
    def complete(self) -> bool:
        return self.resolution.complete

    def as_incomplete(self) -> _Collected:
        if not self.complete:
            return self
        return dataclasses.replace(
            self, resolution=dataclasses.replace(self.resolution, complete=False)
        )


class _RuntimeProvider:
    """Owns the bodies of runtime skills: the candidate's locator is the definition."""

    @property
    def name(self) -> str:
        return RUNTIME_PROVIDER

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate]:
        return ()

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        locator = candidate.locator
        return locator if isinstance(locator, SkillDefinition) else None


class _Control:
    """The registration-scoped control handed to a provider factory."""

    __slots__ = ("_invalidate", "_registration", "_signal")

    def __init__(self, invalidate: Callable[[], None]) -> None:
        self._signal = AbortSignal()
        self._registration: _Registration | None = None
        self._invalidate = invalidate

    @property
    def signal(self) -> AbortSignal:
        return self._signal

    def invalidate(self) -> None:
        registration = self._registration
        if registration is not None and registration.live:
            self._invalidate()


class _Subscription:
    __slots__ = ("active", "listener")

    def __init__(self, listener: Callable[[], object]) -> None:
        self.listener = listener
        self.active = True


# --------------------------------------------------------------------------- registry


class SkillRegistry:
    """Layered registry of skill providers and runtime skills.

    ``collect_cache_max_entries`` bounds the completed-catalog cache (one entry per
    cwd, scope chain and revision); it must be a positive integer.
    """

    def __init__(self, collect_cache_max_entries: int = _DEFAULT_COLLECT_CACHE_ENTRIES) -> None:
        if isinstance(collect_cache_max_entries, bool) or not isinstance(
            collect_cache_max_entries, int
        ):
            raise TypeError(
                "collect_cache_max_entries must be an integer >= 1, "
                f"got {type(collect_cache_max_entries).__name__} {collect_cache_max_entries!r}"
            )
        if collect_cache_max_entries < 1:
            raise ValueError(
                "collect_cache_max_entries must be an integer >= 1, "
                f"got {collect_cache_max_entries}"
            )
        self._cache_max = collect_cache_max_entries
        self._global = _Layer(scope=None)
        self._scoped: dict[Scope, _Layer] = {}
        self._cache: OrderedDict[Hashable, _Collected] = OrderedDict()
        self._revision = 0
        self._next_order = 0
        self._subscriptions: list[_Subscription] = []
        self._runtime_provider = _RuntimeProvider()
        # Provider tasks the registry stopped waiting for (cancelled callers); kept
        # referenced until they end so they are neither collected nor silently lost.
        self._abandoned: set[asyncio.Future[object]] = set()

    # ------------------------------------------------------------------ registration

    def register_provider(
        self, create: ProviderFactory, *, scope: Scope | None = None
    ) -> Callable[[], None]:
        """Register the provider built by ``create(control)`` into ``scope``'s layer.

        Synchronous. ``control.signal`` aborts when registration fails or when the
        returned disposer runs; ``control.invalidate()`` clears completed catalogs and
        notifies listeners only while this exact registration is live. Raises
        ``ValueError`` for a provider name already used in the same layer or for the
        reserved name ``"runtime"``. The disposer is idempotent.
        """
        _check_scope(scope)
        control = _Control(self._invalidate)
        try:
            provider = create(control)
            name = _provider_name(provider)
            layer = self._layer_for(scope)
            if name == RUNTIME_PROVIDER:
                raise ValueError(
                    f'the provider name "{RUNTIME_PROVIDER}" is reserved for runtime skills '
                    "registered with register(); choose another name"
                )
            if name in layer.providers:
                where = "" if scope is None else f" in scope {scope.name!r}"
                raise ValueError(f'a skill provider named "{name}" is already registered{where}')
        except BaseException as error:
            control.signal.abort(error)
            self._drop_if_empty(scope)
            raise
        registration = _Registration(
            name=name, provider=provider, order=self._next_order, layer=layer
        )
        self._next_order += 1
        layer.providers[name] = registration
        control._registration = registration

        def dispose() -> None:
            if not registration.live:
                return
            registration.live = False
            del layer.providers[name]
            self._drop_if_empty(scope)
            control.signal.abort(RuntimeError(f'skill provider "{name}" disposed'))
            self._invalidate()

        self._invalidate()
        return dispose

    def register(
        self, definition: SkillDefinition, *, scope: Scope | None = None
    ) -> Callable[[], None]:
        """Register an in-process runtime skill into ``scope``'s layer, at rank 250.

        An empty ``provider`` or ``source`` on the definition becomes ``"runtime"``;
        a non-empty one is kept as the skill's label (the body is always served by the
        registry's own runtime provider). The invocation policy defaults to both
        permitted (``SkillDefinition``'s default). Raises ``ValueError`` for an invalid
        name or an empty description and ``TypeError`` for wrong-typed fields.

        A second runtime skill with the same name in the same layer is ignored with a
        logged warning and gets a no-op disposer: the first registration wins. The
        disposer of the winner is idempotent.
        """
        _check_scope(scope)
        _validate_runtime(definition)
        if definition.provider == "" or definition.source == "":
            definition = dataclasses.replace(
                definition,
                provider=definition.provider or RUNTIME_PROVIDER,
                source=definition.source or SOURCE_RUNTIME,
            )
        existing = self._global if scope is None else self._scoped.get(scope)
        if existing is not None and definition.name in existing.runtime:
            _logger.warning(
                'runtime skill "%s" ignored because it is already registered%s',
                definition.name,
                "" if scope is None else f" in scope {scope.name!r}",
            )
            return _noop
        layer = self._layer_for(scope)
        candidate = _runtime_candidate(definition)
        layer.runtime[definition.name] = candidate
        disposed = False

        def dispose() -> None:
            nonlocal disposed
            if disposed:
                return
            disposed = True
            if layer.runtime.get(candidate.name) is candidate:
                del layer.runtime[candidate.name]
                self._drop_if_empty(scope)
            self._invalidate()

        self._invalidate()
        return dispose

    def on_change(self, listener: Callable[[], object]) -> Callable[[], None]:
        """Call ``listener()`` after every register, dispose and live ``invalidate()``.

        The event carries no diff: re-read the catalog you care about. A listener that
        raises (or returns an awaitable that fails) is logged and cannot stop the change
        or the other listeners. Returns an idempotent unsubscribe function.
        """
        subscription = _Subscription(listener)
        self._subscriptions.append(subscription)

        def unsubscribe() -> None:
            if subscription.active:
                subscription.active = False
                self._subscriptions.remove(subscription)

        return unsubscribe

    # ------------------------------------------------------------------ reads

    async def list(
        self, *, cwd: str | None = None, scope: Scope | None = None
    ) -> list[SkillSummary]:
        """Winning summaries for ``cwd`` seen from ``scope``, sorted by name (code points).

        Every invocation policy is kept; consumers apply their own predicate.
        """
        return list((await self.snapshot(cwd=cwd, scope=scope)).skills)

    async def snapshot(
        self, *, cwd: str | None = None, scope: Scope | None = None
    ) -> CatalogSnapshot:
        """Like ``list()``, plus whether the catalog is complete (see the module doc)."""
        collected = await self._collect(cwd, scope)
        return CatalogSnapshot(skills=collected.summaries, complete=collected.complete)

    async def resolve(self, *, cwd: str | None = None, scope: Scope | None = None) -> Resolution:
        """Every name's winner and shadowed candidates, with provider and layer.

        Built on the same collection as ``list()`` and ``snapshot()``.
        """
        return (await self._collect(cwd, scope)).resolution

    async def get(
        self, name: str, *, cwd: str | None = None, scope: Scope | None = None
    ) -> SkillDefinition | None:
        """Load the winning skill called ``name``, reading through its provider every time.

        Returns ``None`` for an invalid or unknown name, when the provider no longer has
        the skill, or when the provider loads a skill under a different name (the
        provider's registration is then invalidated, if still live, so the next read
        rediscovers). A provider's ``get()`` failure propagates.
        """
        if not isinstance(name, str) or not is_skill_name(name):
            return None
        collected = await self._collect(cwd, scope)
        entry = collected.winners.get(name)
        if entry is None:
            return None
        candidate = entry.resolved.candidate
        options = LookupOptions(cwd=cwd)
        future = _start(functools.partial(entry.provider.get, candidate, options))
        await self._wait_all([future])
        if future.cancelled():
            # The provider cancelled itself; the caller was not cancelled.
            raise RuntimeError(f'skill provider "{entry.resolved.provider}" get() was cancelled')
        loaded: object = future.result()
        if loaded is None:
            return None
        definition = _validate_definition(loaded, entry.resolved.provider)
        if definition.name != candidate.name:
            _logger.warning(
                'skill provider "%s" loaded "%s" for the candidate "%s"; rediscovering',
                entry.resolved.provider,
                definition.name,
                candidate.name,
            )
            if entry.registration is not None and entry.registration.live:
                self._invalidate()
            return None
        return definition

    # ------------------------------------------------------------------ collection

    async def _collect(self, cwd: str | None, scope: Scope | None) -> _Collected:
        _check_scope(scope)
        chain = () if scope is None else scope.chain()
        attempt = 1
        while True:
            revision = self._revision
            key = (cwd, chain, revision)
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
            collected = await self._collect_fresh(cwd, chain)
            if revision != self._revision:
                if attempt < _MAX_COLLECT_ATTEMPTS:
                    attempt += 1
                    continue
                return collected.as_incomplete()
            if collected.complete:
                self._cache[key] = collected
                while len(self._cache) > self._cache_max:
                    self._cache.popitem(last=False)
            return collected

    async def _collect_fresh(self, cwd: str | None, chain: tuple[Scope, ...]) -> _Collected:
        # Farthest first: the global layer, then the chain from its root to the scope.
        layers = [self._global]
        layers.extend(self._scoped[s] for s in reversed(chain) if s in self._scoped)
        options = LookupOptions(cwd=cwd)
        jobs: list[tuple[_Registration, asyncio.Future[object]]] = []
        for layer in layers:
            for registration in layer.providers.values():
                call = functools.partial(registration.provider.list, options)
                jobs.append((registration, _start(call)))
        await self._wait_all([future for _, future in jobs])

        complete = True
        per_layer: dict[int, list[_Entry]] = {id(layer): [] for layer in layers}
        for layer in layers:
            entries = per_layer[id(layer)]
            for candidate in layer.runtime.values():
                resolved = ResolvedCandidate(candidate, RUNTIME_PROVIDER, layer.scope)
                entries.append(_Entry(resolved, self._runtime_provider, None))
        outcomes = [(registration, _outcome(future)) for registration, future in jobs]
        for registration, (output, error) in outcomes:
            if error is not None:
                complete = False
                _logger.warning(
                    'skill provider "%s" skipped: list() failed: %s',
                    registration.name,
                    _render(error),
                )
                continue
            observation = _observation(output, registration.name)
            if not observation.complete:
                complete = False
            entries = per_layer[id(registration.layer)]
            for index, candidate in enumerate(observation.candidates):
                _validate_candidate(candidate, index, registration.name)
                resolved = ResolvedCandidate(candidate, registration.name, registration.layer.scope)
                entries.append(_Entry(resolved, registration.provider, registration))
        return _build([per_layer[id(layer)] for layer in reversed(layers)], complete)

    async def _wait_all(self, futures: Sequence[asyncio.Future[object]]) -> None:
        if not futures:
            return
        try:
            await asyncio.wait(futures)
        except asyncio.CancelledError:
            for future in futures:
                self._abandon(future)
            raise

    def _abandon(self, future: asyncio.Future[object]) -> None:
        if future.done():
            _outcome(future)
            return
        future.cancel()
        self._abandoned.add(future)
        future.add_done_callback(self._forget)

    def _forget(self, future: asyncio.Future[object]) -> None:
        self._abandoned.discard(future)
        _outcome(future)

    # ------------------------------------------------------------------ revisions

    def _layer_for(self, scope: Scope | None) -> _Layer:
        if scope is None:
            return self._global
        layer = self._scoped.get(scope)
        if layer is None:
            layer = self._scoped[scope] = _Layer(scope=scope)
        return layer

    def _drop_if_empty(self, scope: Scope | None) -> None:
        if scope is None:
            return
        layer = self._scoped.get(scope)
        if layer is not None and layer.is_empty():
            del self._scoped[scope]

    def _invalidate(self) -> None:
        self._revision += 1
        self._cache.clear()
        self._notify()

    def _notify(self) -> None:
        for subscription in list(self._subscriptions):
            if not subscription.active:
                continue
            try:
                returned = subscription.listener()
            except Exception as error:
                _logger.warning("skills change listener raised: %s", _render(error), exc_info=True)
                continue
            if inspect.isawaitable(returned):
                self._watch_listener(returned)

    def _watch_listener(self, returned: Awaitable[object]) -> None:
        try:
            future = asyncio.ensure_future(returned)
        except RuntimeError:
            if inspect.iscoroutine(returned):
                returned.close()
            _logger.warning("skills change listener returned an awaitable outside an event loop")
            return

        def done(finished: asyncio.Future[object]) -> None:
            self._abandoned.discard(finished)
            _, error = _outcome(finished)
            if error is not None:
                _logger.warning("skills change listener failed: %s", _render(error))

        self._abandoned.add(future)
        future.add_done_callback(done)


# --------------------------------------------------------------------------- helpers


def _noop() -> None:
    """The disposer of an ignored duplicate runtime skill."""


def _check_scope(scope: object) -> None:
    if scope is not None and not isinstance(scope, Scope):
        raise TypeError(f"scope must be a Scope or None, got {type(scope).__name__}")


def _provider_name(provider: SkillProvider) -> str:
    name: object = getattr(provider, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"a skill provider needs a non-empty string name, got {name!r}")
    return name


def _start(call: Callable[[], Awaitable[T]]) -> asyncio.Future[object]:
    async def invoke() -> object:
        return await call()

    return asyncio.ensure_future(invoke())


def _outcome(future: asyncio.Future[object]) -> tuple[object, BaseException | None]:
    """A finished future's (result, error); reading it marks the error as retrieved."""
    if future.cancelled():
        return None, asyncio.CancelledError()
    error = future.exception()
    if error is not None:
        return None, error
    return future.result(), None


def _render(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:
        return f"{type(error).__name__}: [unrenderable]"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _build(layers_nearest_first: list[list[_Entry]], complete: bool) -> _Collected:
    """Resolve names: rank order inside each layer, nearest layer wins across layers."""
    found: dict[str, tuple[_Entry, list[_Entry]]] = {}
    for entries in layers_nearest_first:
        for name, group in group_by_name(entries, _entry_name_and_rank).items():
            if name in found:
                found[name][1].extend(group)
            else:
                found[name] = (group[0], group[1:])
    names: dict[str, NameResolution] = {}
    winners: dict[str, _Entry] = {}
    for name in sorted(found):
        winner, shadowed = found[name]
        for loser in shadowed:
            _logger.debug(
                'skill "%s" from provider "%s" is shadowed by provider "%s"',
                name,
                loser.resolved.provider,
                winner.resolved.provider,
            )
        names[name] = NameResolution(
            name=name,
            winner=winner.resolved,
            shadowed=tuple(entry.resolved for entry in shadowed),
        )
        winners[name] = winner
    return _Collected(
        resolution=Resolution(complete=complete, names=MappingProxyType(names)),
        winners=MappingProxyType(winners),
        summaries=tuple(_summary(entry.resolved.candidate) for entry in winners.values()),
    )


def _entry_name_and_rank(entry: _Entry) -> tuple[str, int]:
    return candidate_name_and_rank(entry.resolved.candidate)


def _summary(skill: SkillSummary) -> SkillSummary:
    return SkillSummary(
        name=skill.name,
        description=skill.description,
        source=skill.source,
        provider=skill.provider,
        invocation=skill.invocation,
        when_to_use=skill.when_to_use,
        resource_base=skill.resource_base,
    )


def _runtime_candidate(definition: SkillDefinition) -> SkillCandidate:
    return SkillCandidate(
        name=definition.name,
        description=definition.description,
        source=definition.source,
        provider=definition.provider,
        invocation=definition.invocation,
        when_to_use=definition.when_to_use,
        resource_base=definition.resource_base,
        rank=RANK_RUNTIME,
        locator=definition,
        path=definition.path,
        metadata=definition.metadata,
    )


# --------------------------------------------------------------------------- validation

_MISSING = object()


def _observation(output: object, provider: str) -> ProviderObservation:
    if isinstance(output, ProviderObservation):
        candidates: object = output.candidates
        complete: object = output.complete
        if isinstance(candidates, (list, tuple)) and isinstance(complete, bool):
            return output
        raise ProviderContractError(
            f'skill provider "{provider}" returned a ProviderObservation whose field '
            f'"candidates" must be a list or tuple (got {type(candidates).__name__}) and '
            f'"complete" a bool (got {type(complete).__name__})'
        )
    if isinstance(output, (list, tuple)):
        return ProviderObservation(candidates=output, complete=True)
    raise ProviderContractError(
        f'skill provider "{provider}" list() must return a list or tuple of SkillCandidate '
        f"or a ProviderObservation, got {type(output).__name__}"
    )


def _type_name(value: object) -> str:
    return "missing" if value is _MISSING else type(value).__name__


def _check_summary(skill: object, subject: str, *, is_candidate: bool) -> str:
    """Validate the summary fields of a candidate/definition; return its name."""
    name = getattr(skill, "name", _MISSING)
    if not isinstance(name, str):
        raise ProviderContractError(
            f'{subject} a skill whose field "name" must be a string, got {_type_name(name)}'
        )
    if not is_skill_name(name):
        raise ProviderContractError(
            f'{subject} a skill with the invalid name "{name}" (field "name" must be kebab-case)'
        )
    subject = f'{subject} skill "{name}" whose field'

    def require(
        field: str, expected: type | tuple[type, ...], label: str, *, optional: bool
    ) -> object:
        value = getattr(skill, field, _MISSING)
        if optional and value is None:
            return value
        wrong_type = not isinstance(value, expected) or (
            expected is int and isinstance(value, bool)
        )
        if value is _MISSING or wrong_type:
            raise ProviderContractError(
                f'{subject} "{field}" must be {label}, got {_type_name(value)}'
            )
        return value

    description = require("description", str, "a string", optional=False)
    if description == "":
        raise ProviderContractError(f'{subject} "description" must not be empty')
    require("source", str, "a string", optional=False)
    require("provider", str, "a string", optional=False)
    require("when_to_use", str, "a string or None", optional=True)
    invocation = require("invocation", InvocationPolicy, "an InvocationPolicy", optional=False)
    assert isinstance(invocation, InvocationPolicy)
    for flag in ("model_invocable", "user_invocable"):
        value = getattr(invocation, flag, _MISSING)
        if not isinstance(value, bool):
            raise ProviderContractError(
                f'{subject} "invocation.{flag}" must be a bool, got {_type_name(value)}'
            )
    require(
        "resource_base",
        (DirectoryResourceBase, UrlResourceBase, OpaqueResourceBase),
        "a DirectoryResourceBase, UrlResourceBase, OpaqueResourceBase or None",
        optional=True,
    )
    require("path", str, "a string or None", optional=True)
    require("metadata", Mapping, "a mapping or None", optional=True)
    if is_candidate:
        require("rank", int, "an int", optional=False)
    else:
        require("content", str, "a string", optional=False)
    return name


def _validate_candidate(candidate: object, index: int, provider: str) -> SkillCandidate:
    subject = f'skill provider "{provider}" returned'
    if not isinstance(candidate, SkillCandidate):
        raise ProviderContractError(
            f"{subject} item {index} of type {type(candidate).__name__}; "
            "list() must return SkillCandidate objects"
        )
    name = _check_summary(candidate, subject, is_candidate=True)
    if candidate.provider != provider:
        raise ProviderContractError(
            f'{subject} skill "{name}" whose field "provider" is "{candidate.provider}"; '
            f'it must be "{provider}"'
        )
    return candidate


def _validate_definition(loaded: object, provider: str) -> SkillDefinition:
    subject = f'skill provider "{provider}" loaded'
    if not isinstance(loaded, SkillDefinition):
        raise ProviderContractError(
            f"{subject} a {type(loaded).__name__}; get() must return a SkillDefinition or None"
        )
    _check_summary(loaded, subject, is_candidate=False)
    return loaded


def _validate_runtime(definition: object) -> None:
    if not isinstance(definition, SkillDefinition):
        raise TypeError(f"register() takes a SkillDefinition, got {type(definition).__name__}")
    if not isinstance(definition.name, str) or not is_skill_name(definition.name):
        raise ValueError(
            f"invalid skill name {definition.name!r}: use kebab-case "
            "(lowercase letters and digits separated by single hyphens)"
        )
    try:
        _check_summary(definition, "register() got", is_candidate=False)
    except ProviderContractError as error:
        if getattr(definition, "description", None) == "":
            raise ValueError(f'runtime skill "{definition.name}" requires a description') from None
        raise TypeError(str(error)) from None
