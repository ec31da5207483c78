"""SkillRegistry: resolution, layers, runtime skills, get(), events, validation."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence

import pytest

from skilldeck import (
    AbortSignal,
    CatalogSnapshot,
    DirectoryResourceBase,
    InvocationPolicy,
    LookupOptions,
    OpaqueResourceBase,
    ProviderContractError,
    ProviderControl,
    ProviderObservation,
    Scope,
    SkillCandidate,
    SkillDefinition,
    SkillRegistry,
    SkillSummary,
)

REGISTRY_LOGGER = "skilldeck.engine.registry._registry"


def cand(
    name: str,
    rank: int = 10,
    *,
    provider: str = "memory",
    description: str | None = None,
    **fields: object,
) -> SkillCandidate:
    return SkillCandidate(
        name=name,
        description=description if description is not None else f"{name} from {provider}",
        source="test",
        provider=provider,
        rank=rank,
        locator={"body": f"{name} body from {provider}"},
        **fields,  # type: ignore[arg-type]
    )


def runtime_skill(
    name: str, description: str = "Runtime skill", **fields: object
) -> SkillDefinition:
    values: dict[str, object] = {
        "source": "",
        "provider": "",
        "content": f"{name} runtime body",
    }
    values.update(fields)
    return SkillDefinition(name=name, description=description, **values)  # type: ignore[arg-type]


class MemoryProvider:
    """A provider double holding candidates in memory."""

    def __init__(self, candidates: Sequence[SkillCandidate] = (), name: str = "memory") -> None:
        self._name = name
        self.candidates = list(candidates)
        self.list_calls = 0
        self.get_calls = 0
        self.list_options: list[LookupOptions] = []
        self.get_options: list[LookupOptions] = []
        self.body_suffix = ""

    @property
    def name(self) -> str:
        return self._name

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate]:
        self.list_calls += 1
        self.list_options.append(options)
        return list(self.candidates)

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        self.get_calls += 1
        self.get_options.append(options)
        locator = candidate.locator
        assert isinstance(locator, dict)
        return SkillDefinition(
            name=candidate.name,
            description=candidate.description,
            source=candidate.source,
            provider=candidate.provider,
            invocation=candidate.invocation,
            content=str(locator["body"]) + self.body_suffix,
        )


def add(registry: SkillRegistry, provider: MemoryProvider, scope: Scope | None = None):
    return registry.register_provider(lambda control: provider, scope=scope)


def rows(skills: Sequence[SkillSummary]) -> list[tuple[str, str, str]]:
    return [(s.name, s.description, s.provider) for s in skills]


# ----------------------------------------------------------------- resolution


async def test_rank_then_registration_then_provider_order() -> None:
    registry = SkillRegistry()
    first = MemoryProvider(
        [
            cand("by-rank", 20, provider="first"),
            cand("by-registration", 10, provider="first"),
            cand("by-own-order", 10, provider="first", description="first copy"),
            cand("by-own-order", 10, provider="first", description="second copy"),
        ],
        name="first",
    )
    second = MemoryProvider(
        [cand("by-rank", 5, provider="second"), cand("by-registration", 10, provider="second")],
        name="second",
    )
    add(registry, first)
    add(registry, second)

    assert rows(await registry.list()) == [
        ("by-own-order", "first copy", "first"),
        ("by-rank", "by-rank from second", "second"),
        ("by-registration", "by-registration from first", "first"),
    ]
    resolution = await registry.resolve()
    assert resolution.complete is True
    by_rank = resolution.names["by-rank"]
    assert (by_rank.winner.provider, by_rank.winner.candidate.rank) == ("second", 5)
    assert [(c.provider, c.candidate.rank, c.layer) for c in by_rank.shadowed] == [
        ("first", 20, None)
    ]
    assert [c.candidate.description for c in resolution.names["by-own-order"].shadowed] == [
        "second copy"
    ]


async def test_runtime_skills_take_rank_250() -> None:
    registry = SkillRegistry()
    add(
        registry,
        MemoryProvider(
            [
                cand("project-wins", 100),
                cand("runtime-wins", 300),
                cand("tie-goes-to-runtime", 250),
            ]
        ),
    )
    for name in ("project-wins", "runtime-wins", "tie-goes-to-runtime"):
        registry.register(runtime_skill(name))

    assert rows(await registry.list()) == [
        ("project-wins", "project-wins from memory", "memory"),
        ("runtime-wins", "Runtime skill", "runtime"),
        ("tie-goes-to-runtime", "Runtime skill", "runtime"),
    ]
    shadowed = (await registry.resolve()).names["runtime-wins"].shadowed
    assert [(c.provider, c.candidate.rank) for c in shadowed] == [("memory", 300)]
    project = (await registry.resolve()).names["project-wins"]
    assert [(c.provider, c.candidate.rank) for c in project.shadowed] == [("runtime", 250)]


async def test_summaries_are_sorted_by_code_point_and_carry_no_candidate_fields() -> None:
    registry = SkillRegistry()
    add(
        registry,
        MemoryProvider(
            [
                cand("ab", path="/skills/ab/SKILL.md"),
                cand("a0"),
                cand("a-b", invocation=InvocationPolicy(model_invocable=False)),
                cand("a", invocation=InvocationPolicy(False, False), when_to_use="When a."),
                cand("b", invocation=InvocationPolicy(user_invocable=False)),
            ]
        ),
    )
    skills = await registry.list()
    assert [s.name for s in skills] == ["a", "a-b", "a0", "ab", "b"]
    assert all(type(s) is SkillSummary for s in skills)
    assert skills[0] == SkillSummary(
        name="a",
        description="a from memory",
        source="test",
        provider="memory",
        invocation=InvocationPolicy(False, False),
        when_to_use="When a.",
    )
    assert [(s.invocation.model_invocable, s.invocation.user_invocable) for s in skills] == [
        (False, False),
        (False, True),
        (True, True),
        (True, True),
        (True, False),
    ]
    snapshot = await registry.snapshot()
    assert snapshot == CatalogSnapshot(skills=tuple(skills), complete=True)


async def test_empty_registry_lists_nothing_and_is_complete() -> None:
    registry = SkillRegistry()
    assert await registry.snapshot() == CatalogSnapshot(skills=(), complete=True)
    assert await registry.get("anything") is None


# ----------------------------------------------------------------- provider registration


async def test_provider_names_are_unique_per_layer() -> None:
    registry = SkillRegistry()
    add(registry, MemoryProvider([cand("global-skill")]))
    preset = Scope("preset")
    add(registry, MemoryProvider([cand("preset-skill")]), scope=preset)

    with pytest.raises(ValueError) as excinfo:
        add(registry, MemoryProvider())
    assert str(excinfo.value) == 'a skill provider named "memory" is already registered'
    with pytest.raises(ValueError) as excinfo:
        add(registry, MemoryProvider(), scope=preset)
    assert str(excinfo.value) == (
        "a skill provider named \"memory\" is already registered in scope 'preset'"
    )
    assert [s.name for s in await registry.list(scope=preset)] == ["global-skill", "preset-skill"]


async def test_runtime_provider_name_is_reserved_and_failed_registration_aborts() -> None:
    registry = SkillRegistry()
    signals: list[AbortSignal] = []

    def reserved(control: ProviderControl) -> MemoryProvider:
        signals.append(control.signal)
        return MemoryProvider(name="runtime")

    with pytest.raises(ValueError, match='the provider name "runtime" is reserved'):
        registry.register_provider(reserved)
    assert signals[0].aborted
    assert isinstance(signals[0].reason, ValueError)

    failure = RuntimeError("factory failed")

    def failing(control: ProviderControl) -> MemoryProvider:
        signals.append(control.signal)
        raise failure

    with pytest.raises(RuntimeError, match="factory failed"):
        registry.register_provider(failing)
    assert signals[1].reason is failure

    with pytest.raises(ValueError, match="non-empty string name, got 3"):
        registry.register_provider(lambda control: MemoryProvider(name=3))  # type: ignore[arg-type]
    assert await registry.list() == []


async def test_dispose_is_idempotent_aborts_and_notifies_once() -> None:
    registry = SkillRegistry()
    changes: list[str] = []
    registry.on_change(lambda: changes.append("change"))
    signals: list[AbortSignal] = []
    provider = MemoryProvider([cand("one")])

    def create(control: ProviderControl) -> MemoryProvider:
        signals.append(control.signal)
        return provider

    dispose = registry.register_provider(create)
    assert changes == ["change"]
    assert [s.name for s in await registry.list()] == ["one"]
    assert not signals[0].aborted

    dispose()
    dispose()
    assert changes == ["change", "change"]
    assert signals[0].aborted
    assert str(signals[0].reason) == 'skill provider "memory" disposed'
    assert await registry.list() == []
    # The name is free again once disposed.
    add(registry, MemoryProvider([cand("two")]))
    assert [s.name for s in await registry.list()] == ["two"]


# ----------------------------------------------------------------- runtime skills


async def test_runtime_register_defaults_and_validation() -> None:
    registry = SkillRegistry()
    registry.register(runtime_skill("plain"))
    labelled = runtime_skill(
        "labelled",
        source="agent-preset",
        provider="my-agent",
        invocation=InvocationPolicy(model_invocable=False),
        resource_base=OpaqueResourceBase("held in memory"),
        metadata={"owner": "tests"},
    )
    registry.register(labelled)

    plain = await registry.get("plain")
    assert plain == runtime_skill("plain", source="runtime", provider="runtime")
    assert plain is not None and plain.invocation == InvocationPolicy(True, True)
    assert await registry.get("labelled") is labelled
    resolution = await registry.resolve()
    assert resolution.names["labelled"].winner.provider == "runtime"
    assert resolution.names["labelled"].winner.candidate.rank == 250
    assert [(s.source, s.provider) for s in await registry.list()] == [
        ("agent-preset", "my-agent"),
        ("runtime", "runtime"),
    ]

    with pytest.raises(ValueError, match="invalid skill name 'Bad_Name': use kebab-case"):
        registry.register(runtime_skill("Bad_Name"))
    with pytest.raises(ValueError, match='runtime skill "no-text" requires a description'):
        registry.register(runtime_skill("no-text", description=""))
    with pytest.raises(TypeError, match='field "content" must be a string, got int'):
        registry.register(runtime_skill("bad-content", content=3))
    with pytest.raises(TypeError, match='field "invocation" must be an InvocationPolicy, got list'):
        registry.register(runtime_skill("bad-policy", invocation=[]))
    with pytest.raises(TypeError, match="register\\(\\) takes a SkillDefinition, got dict"):
        registry.register({"name": "x"})  # type: ignore[arg-type]


async def test_duplicate_runtime_name_first_wins_with_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    registry = SkillRegistry()
    changes: list[int] = []
    registry.on_change(lambda: changes.append(1))
    dispose_first = registry.register(runtime_skill("same", "First"))
    with caplog.at_level(logging.WARNING, logger=REGISTRY_LOGGER):
        dispose_second = registry.register(runtime_skill("same", "Second"))
    assert caplog.messages == ['runtime skill "same" ignored because it is already registered']
    assert len(changes) == 1

    dispose_second()
    assert len(changes) == 1
    loaded = await registry.get("same")
    assert loaded is not None and loaded.description == "First"

    dispose_first()
    assert await registry.get("same") is None
    dispose_third = registry.register(runtime_skill("same", "Third"))
    dispose_first()  # a stale disposer must not remove the newer registration
    loaded = await registry.get("same")
    assert loaded is not None and loaded.description == "Third"
    dispose_third()
    assert len(changes) == 4


# ----------------------------------------------------------------- layers and scopes


async def test_scoped_provider_is_seen_only_through_its_scope() -> None:
    registry = SkillRegistry()
    add(registry, MemoryProvider([cand("global-skill", 100)]))
    preset = Scope("preset")
    other = Scope("other")
    preset_local = MemoryProvider([cand("preset-skill", 300, provider="local")], name="local")
    add(registry, preset_local, scope=preset)

    assert [s.name for s in await registry.list()] == ["global-skill"]
    assert [s.name for s in await registry.list(scope=other)] == ["global-skill"]
    assert [s.name for s in await registry.list(scope=preset)] == ["global-skill", "preset-skill"]
    loaded = await registry.get("preset-skill", scope=preset)
    assert loaded is not None and loaded.content == "preset-skill body from local"
    assert await registry.get("preset-skill") is None


async def test_nearest_layer_wins_regardless_of_rank() -> None:
    registry = SkillRegistry()
    add(registry, MemoryProvider([cand("shared", 10, description="global")]))
    preset = Scope("preset")
    agent = Scope("agent", parent=preset)
    add(registry, MemoryProvider([cand("shared", 900, description="preset")]), scope=preset)

    assert rows(await registry.list()) == [("shared", "global", "memory")]
    assert rows(await registry.list(scope=preset)) == [("shared", "preset", "memory")]
    # The agent has no layer of its own: it inherits the preset's through the chain.
    assert rows(await registry.list(scope=agent)) == [("shared", "preset", "memory")]

    registry.register(runtime_skill("shared", "agent runtime"), scope=agent)
    assert rows(await registry.list(scope=agent)) == [("shared", "agent runtime", "runtime")]
    resolved = (await registry.resolve(scope=agent)).names["shared"]
    assert resolved.winner.layer is agent
    assert [(c.layer, c.candidate.description, c.candidate.rank) for c in resolved.shadowed] == [
        (preset, "preset", 900),
        (None, "global", 10),
    ]
    loaded = await registry.get("shared", scope=agent)
    assert loaded is not None and loaded.content == "shared runtime body"


async def test_runtime_duplicates_are_per_layer_and_disposal_reveals_the_farther_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    registry = SkillRegistry()
    preset = Scope("preset")
    registry.register(runtime_skill("told-twice", "global"))
    with caplog.at_level(logging.WARNING, logger=REGISTRY_LOGGER):
        dispose_shadow = registry.register(runtime_skill("told-twice", "preset"), scope=preset)
        assert caplog.messages == []
        registry.register(runtime_skill("told-twice", "ignored"), scope=preset)
    assert caplog.messages == [
        "runtime skill \"told-twice\" ignored because it is already registered in scope 'preset'"
    ]
    assert rows(await registry.list(scope=preset)) == [("told-twice", "preset", "runtime")]
    assert rows(await registry.list()) == [("told-twice", "global", "runtime")]
    dispose_shadow()
    assert rows(await registry.list(scope=preset)) == [("told-twice", "global", "runtime")]


async def test_scope_identity_not_name_selects_the_layer() -> None:
    registry = SkillRegistry()
    first = Scope("agent")
    second = Scope("agent")
    registry.register(runtime_skill("only-first"), scope=first)
    assert [s.name for s in await registry.list(scope=first)] == ["only-first"]
    assert await registry.list(scope=second) == []
    assert repr(Scope("agent", parent=Scope("preset"))) == "Scope(agent < preset)"
    with pytest.raises(TypeError, match="scope must be a Scope or None, got str"):
        await registry.list(scope="agent")  # type: ignore[arg-type]


# ----------------------------------------------------------------- get()


async def test_get_reads_through_the_winning_provider_every_time() -> None:
    registry = SkillRegistry()
    winner = MemoryProvider([cand("skill", 5, provider="winner")], name="winner")
    loser = MemoryProvider([cand("skill", 50, provider="loser")], name="loser")
    add(registry, loser)
    add(registry, winner)

    first = await registry.get("skill", cwd="/work/a")
    winner.body_suffix = " (edited)"
    second = await registry.get("skill", cwd="/work/a")
    assert first is not None and first.content == "skill body from winner"
    assert second is not None and second.content == "skill body from winner (edited)"
    assert (winner.get_calls, loser.get_calls) == (2, 0)
    assert winner.list_calls == 1  # discovery was cached; bodies were not
    assert winner.get_options == [LookupOptions(cwd="/work/a"), LookupOptions(cwd="/work/a")]
    assert winner.list_options == [LookupOptions(cwd="/work/a")]


async def test_get_returns_none_for_invalid_unknown_and_vanished_names() -> None:
    registry = SkillRegistry()
    provider = MemoryProvider([cand("vanishing")])

    async def vanished(candidate: SkillCandidate, options: LookupOptions) -> None:
        return None

    provider.get = vanished  # type: ignore[method-assign]
    add(registry, provider)
    assert await registry.get("Not_A_Name") is None
    assert provider.list_calls == 0
    assert await registry.get("unknown") is None
    assert await registry.get("vanishing") is None


async def test_get_failure_of_the_provider_propagates() -> None:
    registry = SkillRegistry()
    provider = MemoryProvider([cand("failing")])

    async def broken(candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
        raise OSError("disk went away")

    provider.get = broken  # type: ignore[method-assign]
    add(registry, provider)
    with pytest.raises(OSError, match="disk went away"):
        await registry.get("failing")


class RenamingProvider(MemoryProvider):
    async def get(self, candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
        self.get_calls += 1
        return SkillDefinition(
            name="new-name",
            description="renamed",
            source="test",
            provider=self.name,
            content="Fresh body.",
        )


async def test_renamed_skill_on_get_is_rejected_and_invalidates(
    caplog: pytest.LogCaptureFixture,
) -> None:
    registry = SkillRegistry()
    provider = RenamingProvider([cand("old-name")])
    changes: list[int] = []
    registry.on_change(lambda: changes.append(1))
    dispose = add(registry, provider)
    assert [s.name for s in await registry.list()] == ["old-name"]
    assert provider.list_calls == 1

    with caplog.at_level(logging.WARNING, logger=REGISTRY_LOGGER):
        assert await registry.get("old-name") is None
    assert caplog.messages == [
        'skill provider "memory" loaded "new-name" for the candidate "old-name"; rediscovering'
    ]
    assert len(changes) == 2
    await registry.list()
    assert provider.list_calls == 2
    dispose()
    assert await registry.get("old-name") is None
    assert provider.get_calls == 1


async def test_renamed_load_from_a_disposed_registration_does_not_invalidate() -> None:
    registry = SkillRegistry()
    changes: list[int] = []
    registry.on_change(lambda: changes.append(1))
    holder: list[object] = []

    class LateRename(MemoryProvider):
        async def get(self, candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
            dispose = holder[0]
            assert callable(dispose)
            dispose()  # the registration dies while its load is in flight
            return SkillDefinition(
                name="other", description="d", source="s", provider="memory", content="c"
            )

    holder.append(add(registry, LateRename([cand("late")])))
    assert len(changes) == 1
    assert await registry.get("late") is None
    assert len(changes) == 2  # the dispose only; no invalidation for the dead registration


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"content": 3}, 'loaded skill "loaded" whose field "content" must be a string, got int'),
        ({"name": "Bad_Name"}, 'loaded a skill with the invalid name "Bad_Name"'),
        ({"description": ""}, 'loaded skill "loaded" whose field "description" must not be empty'),
        ({"path": 1}, 'loaded skill "loaded" whose field "path" must be a string or None, got int'),
        (
            {"invocation": InvocationPolicy(model_invocable="yes")},  # type: ignore[arg-type]
            'whose field "invocation.model_invocable" must be a bool, got str',
        ),
    ],
)
async def test_malformed_loaded_definition_fails_naming_provider_and_field(
    patch: dict[str, object], message: str
) -> None:
    registry = SkillRegistry()
    provider = MemoryProvider([cand("loaded")])
    good = SkillDefinition(
        name="loaded", description="d", source="test", provider="memory", content="c"
    )

    async def bad_get(candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
        return dataclasses.replace(good, **patch)  # type: ignore[arg-type]

    provider.get = bad_get  # type: ignore[method-assign]
    add(registry, provider)
    with pytest.raises(ProviderContractError) as excinfo:
        await registry.get("loaded")
    assert str(excinfo.value).startswith('skill provider "memory" loaded')
    assert message in str(excinfo.value)


# ----------------------------------------------------------------- completeness and cache


async def test_rejected_list_is_logged_omitted_and_never_cached(
    caplog: pytest.LogCaptureFixture,
) -> None:
    registry = SkillRegistry()
    add(registry, MemoryProvider([cand("steady")]))
    flaky = MemoryProvider([cand("flaky-skill", provider="flaky")], name="flaky")
    failing = [True]
    original = flaky.list

    async def flaky_list(options: LookupOptions) -> Sequence[SkillCandidate]:
        result = await original(options)
        if failing[0]:
            raise ConnectionError("remote down")
        return result

    flaky.list = flaky_list  # type: ignore[method-assign]
    add(registry, flaky)

    with caplog.at_level(logging.WARNING, logger=REGISTRY_LOGGER):
        snapshot = await registry.snapshot()
    assert [s.name for s in snapshot.skills] == ["steady"]
    assert snapshot.complete is False
    assert caplog.messages == [
        'skill provider "flaky" skipped: list() failed: ConnectionError: remote down'
    ]
    await registry.list()
    assert flaky.list_calls == 2  # incomplete catalogs are not cached

    failing[0] = False
    assert [s.name for s in await registry.list()] == ["flaky-skill", "steady"]
    assert [s.name for s in await registry.list()] == ["flaky-skill", "steady"]
    assert flaky.list_calls == 3  # the complete one is


async def test_incomplete_observation_still_contributes_loadable_candidates() -> None:
    registry = SkillRegistry()
    provider = MemoryProvider([cand("available")])
    original = provider.list

    async def partial(options: LookupOptions) -> ProviderObservation:
        return ProviderObservation(candidates=await original(options), complete=False)

    provider.list = partial  # type: ignore[method-assign]
    add(registry, provider)

    snapshot = await registry.snapshot()
    assert ([s.name for s in snapshot.skills], snapshot.complete) == (["available"], False)
    loaded = await registry.get("available")
    assert loaded is not None and loaded.content == "available body from memory"
    assert (await registry.resolve()).complete is False
    assert provider.list_calls == 3


async def test_cache_is_keyed_by_cwd_and_scope_chain() -> None:
    registry = SkillRegistry()
    provider = MemoryProvider([cand("skill")])
    add(registry, provider)
    preset = Scope("preset")
    agent = Scope("agent", parent=preset)
    for _ in range(2):
        await registry.list(cwd="/a")
        await registry.list(cwd="/b")
        await registry.list()
        await registry.list(scope=agent)
        await registry.list(cwd="/a", scope=preset)
    assert provider.list_calls == 5
    assert [o.cwd for o in provider.list_options] == ["/a", "/b", None, None, "/a"]


async def test_cache_is_a_bounded_lru() -> None:
    registry = SkillRegistry(collect_cache_max_entries=2)
    provider = MemoryProvider([cand("skill")])
    add(registry, provider)
    await registry.list(cwd="/1")
    await registry.list(cwd="/2")
    await registry.list(cwd="/1")  # touch: /2 is now the least recently used
    assert provider.list_calls == 2
    await registry.list(cwd="/3")  # evicts /2
    assert provider.list_calls == 3
    await registry.list(cwd="/1")
    await registry.list(cwd="/3")
    assert provider.list_calls == 3
    await registry.list(cwd="/2")
    assert provider.list_calls == 4


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (0, ValueError, "collect_cache_max_entries must be an integer >= 1, got 0"),
        (-3, ValueError, "collect_cache_max_entries must be an integer >= 1, got -3"),
        (1.5, TypeError, "collect_cache_max_entries must be an integer >= 1, got float 1.5"),
        (True, TypeError, "collect_cache_max_entries must be an integer >= 1, got bool True"),
    ],
)
def test_cache_bound_is_validated(value: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as excinfo:
        SkillRegistry(collect_cache_max_entries=value)  # type: ignore[arg-type]
    assert str(excinfo.value) == message


async def test_live_invalidate_clears_the_cache_and_a_late_one_does_nothing() -> None:
    registry = SkillRegistry()
    changes: list[int] = []
    registry.on_change(lambda: changes.append(1))
    provider = MemoryProvider([cand("first")])
    controls: list[ProviderControl] = []

    def create(control: ProviderControl) -> MemoryProvider:
        controls.append(control)
        control.invalidate()  # not live yet: ignored
        return provider

    dispose = registry.register_provider(create)
    assert len(changes) == 1
    assert [s.name for s in await registry.list()] == ["first"]
    provider.candidates = [cand("second")]
    assert [s.name for s in await registry.list()] == ["first"]  # cached
    controls[0].invalidate()
    assert len(changes) == 2
    assert [s.name for s in await registry.list()] == ["second"]

    dispose()
    replacement = MemoryProvider([cand("replacement")])
    add(registry, replacement)
    assert len(changes) == 4
    assert [s.name for s in await registry.list()] == ["replacement"]
    controls[0].invalidate()  # late call from the replaced registration
    assert len(changes) == 4
    assert [s.name for s in await registry.list()] == ["replacement"]
    assert replacement.list_calls == 1


# ----------------------------------------------------------------- change events


async def test_change_events_for_every_mutation() -> None:
    registry = SkillRegistry()
    events: list[str] = []
    registry.on_change(lambda: events.append("a"))
    controls: list[ProviderControl] = []

    def create(control: ProviderControl) -> MemoryProvider:
        controls.append(control)
        return MemoryProvider()

    dispose_provider = registry.register_provider(create)
    controls[0].invalidate()
    dispose_runtime = registry.register(runtime_skill("runtime-skill"))
    dispose_runtime()
    dispose_provider()
    controls[0].invalidate()
    dispose_runtime()
    assert events == ["a"] * 5


async def test_raising_listener_is_contained_and_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    registry = SkillRegistry()
    seen: list[str] = []

    def raising() -> None:
        seen.append("raising")
        raise RuntimeError("observer broke")

    async def rejecting() -> None:
        seen.append("rejecting")
        raise RuntimeError("observer rejected")

    unsubscribe = registry.on_change(raising)
    registry.on_change(rejecting)
    registry.on_change(lambda: seen.append("healthy"))

    with caplog.at_level(logging.WARNING, logger=REGISTRY_LOGGER):
        registry.register(runtime_skill("one"))
        for _ in range(3):
            await asyncio.sleep(0)
    assert seen == ["raising", "healthy", "rejecting"]
    assert caplog.messages == [
        "skills change listener raised: RuntimeError: observer broke",
        "skills change listener failed: RuntimeError: observer rejected",
    ]
    assert [s.name for s in await registry.list()] == ["one"]  # the change was not vetoed

    unsubscribe()
    unsubscribe()
    seen.clear()
    registry.register(runtime_skill("two"))
    for _ in range(3):
        await asyncio.sleep(0)
    assert seen == ["healthy", "rejecting"]


# ----------------------------------------------------------------- malformed provider output


def test_value_types_are_exported() -> None:
    assert DirectoryResourceBase("/x").kind == "directory"


class ReturnsProvider:
    def __init__(self, output: object, name: str = "broken") -> None:
        self.output = output
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def list(self, options: LookupOptions) -> object:
        return self.output

    async def get(self, candidate: SkillCandidate, options: LookupOptions) -> None:
        return None


def broken_candidate(**patch: object) -> SkillCandidate:
    return dataclasses.replace(cand("broken-skill", provider="broken"), **patch)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (
            None,
            'skill provider "broken" list() must return a list or tuple of SkillCandidate '
            "or a ProviderObservation, got NoneType",
        ),
        (
            "broken-skill",
            'skill provider "broken" list() must return a list or tuple of SkillCandidate '
            "or a ProviderObservation, got str",
        ),
        (
            ProviderObservation(candidates=[], complete="yes"),  # type: ignore[arg-type]
            'skill provider "broken" returned a ProviderObservation whose field "candidates" '
            'must be a list or tuple (got list) and "complete" a bool (got str)',
        ),
        (
            [{"name": "broken-skill"}],
            'skill provider "broken" returned item 0 of type dict; '
            "list() must return SkillCandidate objects",
        ),
        (
            [broken_candidate(name=3)],
            'skill provider "broken" returned a skill whose field "name" must be a string, got int',
        ),
        (
            [broken_candidate(name="Bad_Name")],
            'skill provider "broken" returned a skill with the invalid name "Bad_Name" '
            '(field "name" must be kebab-case)',
        ),
        (
            [broken_candidate(rank="1")],
            'skill provider "broken" returned skill "broken-skill" whose field "rank" '
            "must be an int, got str",
        ),
        (
            [broken_candidate(rank=1.5)],
            'skill provider "broken" returned skill "broken-skill" whose field "rank" '
            "must be an int, got float",
        ),
        (
            [broken_candidate(description={"text": "x"})],
            'skill provider "broken" returned skill "broken-skill" whose field "description" '
            "must be a string, got dict",
        ),
        (
            [broken_candidate(description="")],
            'skill provider "broken" returned skill "broken-skill" whose field "description" '
            "must not be empty",
        ),
        (
            [broken_candidate(when_to_use=1)],
            'skill provider "broken" returned skill "broken-skill" whose field "when_to_use" '
            "must be a string or None, got int",
        ),
        (
            [broken_candidate(source=None)],
            'skill provider "broken" returned skill "broken-skill" whose field "source" '
            "must be a string, got NoneType",
        ),
        (
            [broken_candidate(invocation=InvocationPolicy(user_invocable="no"))],  # type: ignore[arg-type]
            'skill provider "broken" returned skill "broken-skill" whose field '
            '"invocation.user_invocable" must be a bool, got str',
        ),
        (
            [broken_candidate(resource_base="/tmp")],
            'skill provider "broken" returned skill "broken-skill" whose field "resource_base" '
            "must be a DirectoryResourceBase, UrlResourceBase, OpaqueResourceBase or None, "
            "got str",
        ),
        (
            [broken_candidate(metadata=["x"])],
            'skill provider "broken" returned skill "broken-skill" whose field "metadata" '
            "must be a mapping or None, got list",
        ),
        (
            [broken_candidate(provider="someone-else")],
            'skill provider "broken" returned skill "broken-skill" whose field "provider" '
            'is "someone-else"; it must be "broken"',
        ),
    ],
)
async def test_malformed_provider_output_fails_fast(output: object, message: str) -> None:
    registry = SkillRegistry()
    add(registry, MemoryProvider([cand("healthy")]))
    registry.register_provider(lambda control: ReturnsProvider(output))  # type: ignore[arg-type,return-value]
    with pytest.raises(ProviderContractError) as excinfo:
        await registry.list()
    assert str(excinfo.value) == message


async def test_candidate_with_a_missing_field_fails_fast() -> None:
    registry = SkillRegistry()
    hollow = object.__new__(SkillCandidate)
    object.__setattr__(hollow, "name", "hollow")
    registry.register_provider(lambda control: ReturnsProvider([hollow]))  # type: ignore[arg-type,return-value]
    with pytest.raises(ProviderContractError) as excinfo:
        await registry.list()
    assert str(excinfo.value) == (
        'skill provider "broken" returned skill "hollow" whose field "description" '
        "must be a string, got missing"
    )


async def test_a_tuple_of_candidates_and_resource_bases_are_accepted() -> None:
    registry = SkillRegistry()
    base = DirectoryResourceBase("/skills/tupled")
    registry.register_provider(
        lambda control: ReturnsProvider(  # type: ignore[arg-type,return-value]
            (cand("tupled", provider="broken", resource_base=base),)
        )
    )
    skills = await registry.list()
    assert [(s.name, s.resource_base) for s in skills] == [("tupled", base)]
