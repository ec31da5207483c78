"""The view ``skilldeck mcp`` serves: an incomplete read of the deck never replaces the
last complete one (as the catalog tracker keeps the last good catalog)."""

from __future__ import annotations

from dataclasses import dataclass, field

from skilldeck.engine.registry._model import SkillCandidate, SkillDefinition
from skilldeck.engine.registry._provider import LookupOptions, ProviderObservation
from skilldeck.engine.registry._registry import SkillRegistry
from skilldeck.mcp.deck_view import DeckState


@dataclass
class FlakyProvider:
    """A provider whose next answer the test decides (complete or not)."""

    skills: list[str] = field(default_factory=list)
    complete: bool = True
    name: str = "flaky"

    async def list(self, options: LookupOptions) -> ProviderObservation:
        candidates = [
            SkillCandidate(
                name=skill, description=f"About {skill}.", source="test", provider="flaky", rank=1
            )
            for skill in self.skills
        ]
        return ProviderObservation(candidates, complete=self.complete)

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        return None


async def test_an_incomplete_read_keeps_the_last_good_view(tmp_path):
    provider = FlakyProvider(["alpha", "beta"])
    registry = SkillRegistry()
    controls = []

    def create(control):
        controls.append(control)
        return provider

    registry.register_provider(create)
    state = DeckState(registry, cwd=str(tmp_path), max_description_length=500)
    first = await state.current()
    assert sorted(first.skills) == ["alpha", "beta"]
    assert "- `beta`: About beta." in first.catalog_text

    provider.skills, provider.complete = ["alpha"], False  # beta lost by a failing read
    controls[0].invalidate()
    assert await state.refresh() is False
    assert (await state.current()) is first

    provider.complete = True  # a complete read replaces the view
    controls[0].invalidate()
    assert await state.refresh() is True
    current = await state.current()
    assert sorted(current.skills) == ["alpha"]
    assert "`beta`" not in current.catalog_text
    assert current.revision > first.revision


async def test_the_first_read_is_served_even_when_incomplete(tmp_path):
    registry = SkillRegistry()
    registry.register_provider(lambda control: FlakyProvider(["alpha"], complete=False))
    view = await DeckState(registry, cwd=str(tmp_path), max_description_length=500).current()
    assert view.complete is False
    assert list(view.skills) == ["alpha"]
