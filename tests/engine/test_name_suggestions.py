""" "Did you mean": the deck's index of names (NameSuggestions) answers exactly what
``nearest_names`` answers, looks each unknown name up once, and follows the names as
they change (the language server keeps one per folder)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.engine.checks._near_misses import NameSuggestions, nearest_names
from skilldeck.engine.files._skill_file import analyze_skill_file

#: Names with every kind of neighbour nearest_names knows: same shape (case,
#: separators), one and two edits, swaps, prefixes, short and long words.
NAMES = [
    "review",
    "reviews",
    "Review",
    "re_view",
    "reveiw",
    "code-review",
    "code-reviewer",
    "codereview",
    "deploy",
    "deplot",
    "deploy-app",
    "deploy-apps",
    "a",
    "b",
    "bb",
    "ab",
    "ba",
    "nmae",
    "name",
    "game",
    "pdf",
    "pdf-tools",
    "pptx",
    "docx",
    "xlsx",
    "frontend-design",
    "frontend-designs",
    "front-end-design",
    "backend-dev-guidelines",
    "backend-dev-guideline",
    "brainstorming",
    "brainstormin",
    "brianstorming",
    "writing-plans",
    "writing-plan",
    "writting-plans",
    "test-driven-development",
    "test-driven-developement",
    "systematic-debugging",
]
QUERIES = [*NAMES, "reviw", "revew", "code_review", "CODE-REVIEW", "deply", "x", "pdff", "docs"]
QUERIES += ["frontenddesign", "brainstrming", "writing_plans", "tdd", "nonexistent", "ba-", ""]


def test_equals_nearest_names_on_the_fixture() -> None:
    index = NameSuggestions(NAMES)
    for query in QUERIES:
        for limit in (1, 3, 10):
            assert index.nearest(query, limit) == nearest_names(query, NAMES, limit), query


def test_the_old_examples() -> None:
    assert NameSuggestions(["a", "b"]).nearest("bb") == ["b"]
    assert NameSuggestions(["review", "reviews", "x"]).nearest("reveiw") == ["review"]
    assert NameSuggestions(["deplot", "deploy", "x"]).nearest("deplo") == ["deplot", "deploy"]
    assert NameSuggestions(["a", "b"]).nearest("nonexistent") == []


_name = st.text(alphabet="abcde-_A", min_size=0, max_size=10)


@given(names=st.lists(_name, max_size=30, unique=True), query=_name)
@settings(max_examples=300, deadline=None)
def test_equals_nearest_names_on_any_names(names: list[str], query: str) -> None:
    assert NameSuggestions(names).nearest(query) == nearest_names(query, names)


def test_each_unknown_name_is_looked_up_once_until_the_names_change() -> None:
    index = NameSuggestions(["review", "deploy"])
    assert index.nearest("reviw") == ["review"]
    assert index.nearest("reviw") == ["review"]
    assert index.nearest("deply") == ["deploy"]
    assert index.lookups == 2
    index.add("reviwe")
    assert index.nearest("reviw") == ["review", "reviwe"]
    index.discard("review")
    index.discard("not-there")
    assert index.nearest("reviw") == ["reviwe"]
    assert index.lookups == 4


def _corpora() -> Path | None:
    here = Path(__file__).resolve().parents[2]
    for base in (here.parent, here.parent.parent):
        found = base / "shared" / "corpora" / "antigravity-awesome-skills" / "skills"
        if found.is_dir():
            return found
    return None


def test_equals_nearest_names_on_the_real_corpus_unknown_mentions() -> None:
    skills = _corpora()
    if skills is None:
        pytest.skip("../shared/corpora is absent")
    files = sorted(skills.rglob("SKILL.md"))
    analyses = [analyze_skill_file(str(path), expected_name=path.parent.name) for path in files]
    mentioned = sorted({name for a in analyses for name, _ in a.mentions})
    assert mentioned  # b, commit, imports, pr, tmp: none of them a skill of the collection
    # The benchmarks' deck: each skill under new names (<name>-r1, <name>-r2), where every
    # mention is unknown (the 10,000-skill deck's 126 SD704 findings name these).
    renamed = list(dict.fromkeys(f"{path.parent.name}-r{k}" for k in (1, 2) for path in files))
    # The collection's own names, asked for as an author mistypes them (a letter dropped,
    # two swapped, another spelling) besides the real mentions.
    own = list(dict.fromkeys(a.name for a in analyses if a.name))
    typed = [*mentioned]
    for name in own[::8]:  # every 8th: the old function takes ~20 us a pair
        typed += [name[:-1], name[1] + name[0] + name[2:], name.replace("-", "_"), name + "s"]
    suggested = 0
    for names, queries in ((renamed, mentioned), (own, typed)):
        index = NameSuggestions(names)
        for query in queries:
            expected = nearest_names(query, names)
            assert index.nearest(query) == expected, query
            suggested += bool(expected)
    assert suggested > len(own) // 8
