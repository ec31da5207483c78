"""Near-duplicate families and bounded competitors (``engine/overlap/_families.py``): what a
fresh build and the editor's one-skill updates agree on, and what the bound keeps."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.engine.overlap._families import MAX_PAIRS_PER_SKILL, OverlapFamilies
from skilldeck.engine.overlap._index import OverlapSkill

PDF = "Fill PDF forms and extract the fields of a PDF form from a scanned document."
TEXTS = [
    PDF,
    PDF.upper().replace(".", "!"),  # the same words: a copy
    PDF + " Handles signatures.",  # nearly the same
    "Deploy the service to the staging cluster, then watch the rollout and roll back.",
    "Deploy the service to staging clusters with a canary and roll back on errors.",
    "Review pull requests for security holes, naming and dead branches.",
    "Review a pull request for security holes and leaked secrets before merge.",
]
NAMES = ["pdf-forms", "pdf-fill", "deploy", "staging-deploy", "review", "code-reviewer", "notes"]


def _view(families: OverlapFamilies, keys: list[str]) -> dict[str, object]:
    """What findings are made of, per skill: its family and the skills named for the
    families it competes with (as sets: scores depend on word weights, which an update
    keeps from the last full build)."""
    view: dict[str, object] = {}
    for key in keys:
        rivals = {
            frozenset(families.family(families.rival(key, p).key).members)
            for p in families.competitors(key)
        }
        family = families.family(key)
        view[key] = (family.members, family.identical, frozenset(rivals))
    return view


_SKILL = st.tuples(st.sampled_from(NAMES), st.integers(0, len(TEXTS) - 1))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_SKILL, min_size=1, max_size=10),
    st.lists(st.tuples(st.integers(0, 12), st.none() | _SKILL), max_size=8),
)
def test_updates_one_skill_at_a_time_agree_with_a_fresh_build(
    start: list[tuple[str, int]], edits: list[tuple[int, tuple[str, int] | None]]
) -> None:
    """Any sequence of edits, additions and removals leaves the families and competitors
    a fresh build of the same skills has, and every skill whose view changed is among
    those an update returns. (A threshold near 0: every pair sharing a word scores, so
    which pairs exist does not depend on the word weights.)"""
    skills = {f"k{i}": OverlapSkill(f"k{i}", name, TEXTS[t]) for i, (name, t) in enumerate(start)}
    live = OverlapFamilies(skills.values(), threshold=1e-9)
    for number, change in edits:
        key = f"k{number}"
        before = _view(live, sorted(skills))
        if change is None:
            skills.pop(key, None)
            changed = live.update(key, None)
        else:
            skills[key] = OverlapSkill(key, change[0], TEXTS[change[1]])
            changed = live.update(key, skills[key])
        after = _view(live, sorted(skills))
        moved = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
        assert moved <= changed
    fresh = OverlapFamilies(skills.values(), threshold=1e-9)
    assert _view(live, sorted(skills)) == _view(fresh, sorted(skills))
    assert live.families() == fresh.families()


def test_copies_make_one_family_and_are_indexed_once() -> None:
    skills = [OverlapSkill(f"k{i}", f"pdf-{i}", PDF) for i in range(7)]
    skills.append(OverlapSkill("z", "pdf", TEXTS[2]))
    families = OverlapFamilies(skills)
    (family,) = families.families()
    assert family.members == ("k0", "k1", "k2", "k3", "k4", "k5", "k6", "z")
    assert not family.identical  # one member's text only nearly the same
    assert families.pairs() == []  # no pair among the members of a family
    assert all(families.competitors(skill.key) == [] for skill in skills)


def test_each_skill_keeps_its_strongest_competitors_only() -> None:
    """Thirty skills that all compete (no two nearly the same): each one's
    ``MAX_PAIRS_PER_SKILL`` strongest pairs are listed, and no more than that per skill
    are needed (435 pairs compete; at most 30 x 10 are listed)."""
    core = "Fill PDF forms and extract the fields of a PDF form"
    extra = [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
        "kilo",
        "lima",
    ]
    skills = [
        OverlapSkill(
            f"k{i:02}", f"forms-{i}", f"{core} {extra[i % 12]} {extra[(i * 5 + 1) % 12]} v{i}"
        )
        for i in range(30)
    ]
    families = OverlapFamilies(skills, threshold=1e-9, near_duplicate_threshold=0.99)
    assert families.families() == []
    listed = {(p.a.key, p.b.key) for p in families.pairs()}
    assert len(listed) <= 30 * MAX_PAIRS_PER_SKILL
    everything = sum(len(families.competitors(s.key)) for s in skills) // 2
    assert everything == 435 > len(listed)
    for skill in skills:
        strongest = families.competitors(skill.key)[:MAX_PAIRS_PER_SKILL]
        assert {(p.a.key, p.b.key) for p in strongest} <= listed
