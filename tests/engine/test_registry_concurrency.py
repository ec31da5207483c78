"""SkillRegistry under concurrency: revisions during discovery, cancellation, disposal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest
from watch_harness import WAIT

from skilldeck import (
    LookupOptions,
    ProviderControl,
    SkillCandidate,
    SkillDefinition,
    SkillRegistry,
)


def cand(name: str, description: str = "", provider: str = "gated") -> SkillCandidate:
    return SkillCandidate(
        name=name,
        description=description or name,
        source="test",
        provider=provider,
        rank=10,
        locator=name,
    )


class GatedProvider:
    """A provider double whose list() can be held open and inspected."""

    def __init__(self, name: str = "gated") -> None:
        self._name = name
        self.candidates: list[SkillCandidate] = []
        self.list_calls = 0
        self.started = asyncio.Event()
        self.gate = asyncio.Event()
        self.hold_first = True
        self.on_list: Callable[[int], None] = lambda call: None

    @property
    def name(self) -> str:
        return self._name

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate]:
        self.list_calls += 1
        call = self.list_calls
        self.on_list(call)
        snapshot = list(self.candidates)
        if call == 1 and self.hold_first:
            self.started.set()
            await self.gate.wait()
        return snapshot

    async def get(self, candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
        return SkillDefinition(
            name=candidate.name,
            description=candidate.description,
            source=candidate.source,
            provider=candidate.provider,
            content=f"{candidate.name} body",
        )


class StubbornProvider:
    """Ignores cancellation: swallows CancelledError and keeps waiting for its gate."""

    name = "stubborn"

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.cancellations = 0
        self.finished = False

    async def _hold(self) -> None:
        self.started.set()
        while not self.release.is_set():
            try:
                await self.release.wait()
            except asyncio.CancelledError:
                self.cancellations += 1
        self.finished = True

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate]:
        if self.list_holds:
            await self._hold()
        return [cand("stubborn-skill", provider="stubborn")]

    async def get(self, candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
        await self._hold()
        return SkillDefinition(
            name=candidate.name, description="d", source="test", provider="stubborn", content="c"
        )

    list_holds = True


def register(
    registry: SkillRegistry, provider: GatedProvider
) -> tuple[ProviderControl, Callable[[], None]]:
    controls: list[ProviderControl] = []

    def create(control: ProviderControl) -> GatedProvider:
        controls.append(control)
        return provider

    dispose = registry.register_provider(create)
    return controls[0], dispose


async def test_revision_during_discovery_retries_once_and_caches_the_fresh_result() -> None:
    registry = SkillRegistry()
    provider = GatedProvider()
    provider.candidates = [cand("stale-skill")]
    control, _dispose = register(registry, provider)

    pending = asyncio.create_task(registry.snapshot())
    await provider.started.wait()
    provider.candidates = [cand("fresh-skill")]
    control.invalidate()
    provider.gate.set()

    snapshot = await pending
    assert [s.name for s in snapshot.skills] == ["fresh-skill"]
    assert snapshot.complete is True
    assert provider.list_calls == 2
    await registry.list()
    assert provider.list_calls == 2  # the retried, stable result was cached


async def test_list_that_triggers_a_revision_itself_is_retried_once() -> None:
    registry = SkillRegistry()
    provider = GatedProvider()
    provider.hold_first = False
    provider.candidates = [cand("skill")]
    control, _dispose = register(registry, provider)
    provider.on_list = lambda call: control.invalidate() if call == 1 else None

    snapshot = await registry.snapshot()
    assert ([s.name for s in snapshot.skills], snapshot.complete) == (["skill"], True)
    assert provider.list_calls == 2


async def test_two_revisions_give_the_newest_candidates_incomplete_and_uncached() -> None:
    registry = SkillRegistry()
    provider = GatedProvider("self-invalidating")
    provider.hold_first = False
    control, _dispose = register(registry, provider)

    def revise(call: int) -> None:
        provider.candidates = [cand("bounded", f"Attempt {call}", provider="self-invalidating")]
        control.invalidate()

    provider.on_list = revise
    snapshot = await registry.snapshot()
    assert [(s.name, s.description) for s in snapshot.skills] == [("bounded", "Attempt 2")]
    assert snapshot.complete is False
    assert provider.list_calls == 2

    snapshot = await registry.snapshot()
    assert [s.description for s in snapshot.skills] == ["Attempt 4"]
    assert provider.list_calls == 4
    assert (await registry.resolve()).complete is False


async def test_runtime_register_during_discovery_is_a_revision() -> None:
    registry = SkillRegistry()
    provider = GatedProvider()
    provider.candidates = [cand("provided")]
    register(registry, provider)

    pending = asyncio.create_task(registry.snapshot())
    await provider.started.wait()
    registry.register(
        SkillDefinition(name="late", description="d", source="", provider="", content="c")
    )
    provider.gate.set()
    snapshot = await pending
    assert ([s.name for s in snapshot.skills], snapshot.complete) == (["late", "provided"], True)
    assert provider.list_calls == 2


async def test_dispose_during_discovery_drops_the_provider() -> None:
    registry = SkillRegistry()
    provider = GatedProvider()
    provider.candidates = [cand("stale-skill")]
    _control, dispose = register(registry, provider)

    pending = asyncio.create_task(registry.snapshot())
    await provider.started.wait()
    dispose()
    provider.gate.set()

    snapshot = await pending
    assert snapshot.skills == ()
    assert snapshot.complete is True
    assert provider.list_calls == 1


async def test_late_invalidate_from_a_disposed_registration_during_discovery() -> None:
    registry = SkillRegistry()
    changes: list[int] = []
    registry.on_change(lambda: changes.append(1))
    old = GatedProvider()
    old.hold_first = False
    old_control, dispose_old = register(registry, old)
    dispose_old()

    replacement = GatedProvider()
    replacement.candidates = [cand("replacement")]
    register(registry, replacement)
    assert len(changes) == 3

    pending = asyncio.create_task(registry.snapshot())
    await replacement.started.wait()
    old_control.invalidate()  # late: must not count as a revision
    replacement.gate.set()
    snapshot = await pending
    assert ([s.name for s in snapshot.skills], snapshot.complete) == (["replacement"], True)
    assert replacement.list_calls == 1
    assert len(changes) == 3


async def test_cancelling_the_caller_stops_an_uncooperative_discovery() -> None:
    registry = SkillRegistry()
    stubborn = StubbornProvider()
    registry.register_provider(lambda control: stubborn)  # type: ignore[arg-type,return-value]

    caller = asyncio.create_task(registry.list())
    await stubborn.started.wait()
    caller.cancel()
    done, _ = await asyncio.wait({caller}, timeout=WAIT)
    assert caller in done
    assert caller.cancelled()
    assert stubborn.cancellations == 1  # the provider's work was cancelled too
    assert not stubborn.finished

    stubborn.release.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert stubborn.finished
    # Nothing was cached by the cancelled read; a later one completes normally.
    stubborn.list_holds = False
    assert [s.name for s in await registry.list()] == ["stubborn-skill"]


async def test_cancelling_the_caller_stops_an_uncooperative_load() -> None:
    registry = SkillRegistry()
    stubborn = StubbornProvider()
    stubborn.list_holds = False
    registry.register_provider(lambda control: stubborn)  # type: ignore[arg-type,return-value]
    assert [s.name for s in await registry.list()] == ["stubborn-skill"]

    caller = asyncio.create_task(registry.get("stubborn-skill"))
    await stubborn.started.wait()
    caller.cancel()
    done, _ = await asyncio.wait({caller}, timeout=WAIT)
    assert caller in done and caller.cancelled()
    assert stubborn.cancellations == 1
    stubborn.release.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert stubborn.finished


async def test_cancelling_one_caller_leaves_a_concurrent_caller_running() -> None:
    registry = SkillRegistry()
    provider = GatedProvider()
    provider.candidates = [cand("shared")]
    register(registry, provider)

    first = asyncio.create_task(registry.list())
    await provider.started.wait()
    second = asyncio.create_task(registry.list())
    await asyncio.sleep(0)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    provider.gate.set()  # the first call's provider task was cancelled; the second's was not held
    assert [s.name for s in await second] == ["shared"]


async def test_provider_failure_from_cancellation_inside_the_provider_is_a_rejection() -> None:
    registry = SkillRegistry()

    class SelfCancelling(GatedProvider):
        async def list(self, options: LookupOptions) -> Sequence[SkillCandidate]:
            raise asyncio.CancelledError

    registry.register_provider(lambda control: SelfCancelling("self-cancelling"))  # type: ignore[arg-type,return-value]
    snapshot = await registry.snapshot()
    assert (snapshot.skills, snapshot.complete) == ((), False)


async def test_a_load_cancelled_by_the_provider_itself_is_an_error_not_a_cancellation() -> None:
    registry = SkillRegistry()

    class SelfCancellingLoad(GatedProvider):
        async def get(self, candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
            raise asyncio.CancelledError

    provider = SelfCancellingLoad()
    provider.hold_first = False
    provider.candidates = [cand("skill")]
    register(registry, provider)
    with pytest.raises(RuntimeError, match='skill provider "gated" get\\(\\) was cancelled'):
        await registry.get("skill")
