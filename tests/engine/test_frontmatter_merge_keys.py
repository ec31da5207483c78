"""YAML merge keys (``<<``) read as ruamel's safe loader reads them (SPEC §2).

``<<: *anchor``, ``<<: [*a, *b]`` and ``<<: {inline}`` merge mappings into the mapping
that holds them: a key written in the mapping wins over a merged one, and in a list the
earlier mapping wins. A merged key keeps the position where it is written (in the
anchored mapping); a value that is not a mapping or a list of mappings is invalid YAML.
Both composition paths (libyaml's nodes and the event composer) give the same result.
"""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from skilldeck.engine.frontmatter._frontmatter import (
    MAX_YAML_NODES,
    FrontmatterParse,
    _compose_plain,
    parse_frontmatter,
)
from skilldeck.engine.text._positions import Span

_RUAMEL = YAML(typ="safe", pure=True)


def both(yaml: str) -> FrontmatterParse:
    """The parse of ``yaml`` as frontmatter, the same on the fast and the event path."""
    text = f"---\n{yaml}---\nbody\n"
    fast, events = parse_frontmatter(text), parse_frontmatter(text, fast=False)
    assert fast == events
    return fast


def mapping(yaml: str) -> dict[str, object]:
    parsed = both(yaml)
    assert parsed.frontmatter is not None, parsed.findings
    assert parsed.findings == ()
    return {entry.key: entry.value for entry in parsed.frontmatter.entries}


def test_a_merged_description_is_read_where_the_anchor_writes_it() -> None:
    parsed = both(
        "base: &b\n  description: Does a thing when asked about widgets\nname: a\n<<: *b\n"
    )
    assert parsed.findings == ()
    fm = parsed.frontmatter
    assert fm is not None
    assert [entry.key for entry in fm.entries] == ["base", "name", "description"]
    description = fm.get("description")
    assert description is not None
    assert description.value == "Does a thing when asked about widgets"
    assert description.style == "plain"
    assert description.key_span == Span.at(2, 2, 13)  # in the anchored mapping
    assert description.value_span == Span.at(2, 15, 52)


MERGES = [
    "base: &b\n  description: d\nname: a\n<<: *b\n",
    # a key written in the mapping wins, before or after the merge key
    "base: &b {name: b, description: d}\nname: a\n<<: *b\n",
    "base: &b {name: b, description: d}\n<<: *b\nname: a\n",
    # in a list, the earlier mapping wins
    "a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc: {<<: [*a, *b], w: 0}\n",
    "a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc: {<<: [*b, *a], x: 9}\n",
    "a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\n<<: [*a, *b]\n",
    # an inline mapping, anywhere in the mapping
    "c: {x: 2, <<: {x: 1, q: 3}}\n",
    "<<: {name: a, description: d}\n",
    "<<:\n  name: a\n  description: d\nname: b\n",
    "metadata:\n  <<: {k: v}\n  k: w\n",
    # merges of merges, an empty merge, a mapping merged twice
    "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b}\n",
    "<<: []\nname: a\n",
    "<<: {}\nname: a\n",
    "a: &a {x: 1}\n<<: [*a, *a]\n",
    # an explicit key, a flow root, the !!merge tag
    "? <<\n: {name: a}\n",
    "{<<: {name: a}, description: d}\n",
    "!!merge <<: {name: a}\n",
    # merged values keep their types, nested values and aliases inside
    "t: &t\n  n: 1\n  f: 1.5\n  b: true\n  z: null\n  l: [1, {k: v}]\n<<: *t\n",
    "s: &s text\nm: &m {s: *s}\n<<: *m\n",
]


@pytest.mark.parametrize("yaml", MERGES)
def test_merge_keys_read_as_ruamels_safe_loader_reads_them(yaml: str) -> None:
    expected = _RUAMEL.load(yaml)
    assert mapping(yaml) == expected
    for key, value in expected.items():  # nested mappings in the loader's key order
        if isinstance(value, dict):
            assert list(mapping(yaml)[key].items()) == list(value.items())  # type: ignore[attr-defined]


def test_a_quoted_merge_key_is_a_plain_key() -> None:
    assert mapping("'<<': {a: 1}\nb: \"<<\"\n") == {"<<": {"a": 1}, "b": "<<"}


def test_a_key_both_written_and_merged_is_no_duplicate() -> None:
    parsed = both("base: &b {name: b}\nname: a\n<<: *b\n")
    assert parsed.findings == ()
    fm = parsed.frontmatter
    assert fm is not None
    assert [entry.key for entry in fm.entries] == ["base", "name"]
    assert fm.get("name").value == "a"  # type: ignore[union-attr]
    assert fm.get("name").key_span == Span.at(2, 0, 4)  # type: ignore[union-attr]
    # A key written twice is still a duplicate, merge or no merge.
    (dup,) = both("base: &b {x: 1}\nname: a\n<<: *b\nname: c\n").findings
    assert (dup.code, dup.span) == ("SD105", Span.at(4, 0, 4))


def test_a_second_merge_key_is_a_duplicate_key() -> None:
    parsed = both("<<: {name: a}\ndescription: d\n<<: {name: b}\n")
    (dup,) = parsed.findings
    assert dup.code == "SD105"
    assert dup.message == "duplicate key '<<' (first defined on line 2) (skill not loaded)"
    assert dup.span == Span.at(3, 0, 2)
    assert dup.related[0].span == Span.at(1, 0, 2)


@pytest.mark.parametrize(
    ("yaml", "problem", "span"),
    [
        (
            "name: a\n<<: text\n",
            "the merge key '<<' takes a mapping or a list of mappings, not the string 'text'",
            Span.at(2, 4, 8),
        ),
        (
            "s: &s text\n<<: *s\n",
            "the merge key '<<' takes a mapping or a list of mappings, not the string 'text'",
            Span.at(2, 4, 6),  # the alias, where the merge is written
        ),
        (
            "a: &a {x: 1}\n<<: [*a, 1]\n",
            "the merge key '<<' takes a list of mappings, not one holding the number 1",
            Span.at(2, 9, 10),
        ),
        (
            "<<: [[{x: 1}]]\n",
            "the merge key '<<' takes a list of mappings, not one holding a list",
            Span.at(1, 5, 13),
        ),
        (
            "name: a\n<<:\ndescription: d\n",
            "the merge key '<<' takes a mapping or a list of mappings, not null",
            Span.at(2, 0, 2),  # no value written: the key
        ),
    ],
)
def test_a_merge_of_something_else_is_invalid_yaml(yaml: str, problem: str, span: Span) -> None:
    with pytest.raises(Exception, match="merging"):
        _RUAMEL.load(yaml)  # the safe loader refuses it too
    parsed = both(yaml)
    assert parsed.frontmatter is None
    (finding,) = parsed.findings
    assert finding.code == "SD103"
    assert finding.message == f"invalid YAML in frontmatter: {problem} (skill not loaded)"
    assert finding.span == span


def test_the_merge_tag_is_no_ignored_tag() -> None:
    parsed = both("!!merge <<: {name: a}\nx: !!merge y\n")
    assert parsed.frontmatter is not None
    assert parsed.frontmatter.get("name").value == "a"  # type: ignore[union-attr]
    (ignored,) = parsed.findings  # the tag on a value is still ignored, with SD108
    assert (ignored.code, ignored.span) == ("SD108", Span.at(2, 3, 12))


def test_merged_values_count_toward_the_alias_expansion_cap() -> None:
    # Each level merges the one before ten times over: 10^5 mappings for the loader to
    # walk (ruamel's safe loader copies every merged pair each time).
    levels = ["l0: &l0 {k: v}"]
    levels += [f"l{n}: &l{n} {{<<: [{', '.join([f'*l{n - 1}'] * 10)}]}}" for n in range(1, 6)]
    parsed = both("\n".join(levels) + "\n")
    (finding,) = parsed.findings
    assert finding.code == "SD107"
    assert finding.message == (
        f"frontmatter YAML is too complex: more than {MAX_YAML_NODES:,} values after alias "
        "expansion (skill not loaded)"
    )


@pytest.mark.parametrize(
    "yaml", ["<<: {name: a}\n", "m: {<<: {a: 1}}\n", "<<: 1\n", "m:\n  - {<<: {a: 1}}\n"]
)
def test_merge_keys_are_left_to_the_event_composer(yaml: str) -> None:
    assert _compose_plain(yaml) is None
