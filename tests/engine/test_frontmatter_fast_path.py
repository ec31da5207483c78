"""The C-composed fast path gives exactly what the event composer gives.

``parse_frontmatter`` composes plain frontmatter (no tags, anchors, duplicate keys or
errors) in libyaml and falls back to the event composer for everything else. These tests
hold the two to the same result, field by field, on hand-picked edge cases and on
generated YAML, and check that plain frontmatter really takes the fast path.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skilldeck.engine.frontmatter._frontmatter import _compose_plain, parse_frontmatter
from skilldeck.engine.text._positions import Position, Span


def both(text: str):
    fast, events = parse_frontmatter(text), parse_frontmatter(text, fast=False)
    assert fast == events
    return fast


PLAIN = [
    "name: pdf\ndescription: Fill PDF forms.\n",
    'name: pdf\ndescription: "h\u00e9llo \U0001f600 w"\n',
    "name: a\ndescription: >\n  folded\n  text\nmetadata:\n  k: [1, 2.5, true, null, ~]\n",
    "name: a\ndescription: |\n  literal\n\n  kept\n",
    "name: a\ndescription: 'it''s'\nallowed-tools:\n  - Read\n  - Bash(git:*)\n",
    "name: a  # comment\n# a comment line\ndescription: b\n\nmetadata: {x: {y: [z]}}\n",
    "name: a\ndescription:\n",
    "name: 0x1F\nversion: 1.10\nn: -3\nf: .inf\nq: 1e3\nb: False\n",
    "name: a\ndescription: tab\tinside\n",
    "name: a\r\ndescription: b\r\n",
    "name: a\rdescription: b\n",
    "name: a\ndescription: \u4e2d\u6587\u63cf\u8ff0 \U00010348\nmetadata:\n  - - x\n",
    "1: a\ntrue: b\nnull: c\n",
]

NOT_PLAIN = [
    "name: a\nname: b\n",  # duplicate key
    "name: !!str a\n",  # tag
    "base: &b x\nname: *b\n",  # anchor and alias
    "? [a, b]\n: v\n",  # collection key
    "- a\n- b\n",  # not a mapping
    "name: a\n---\nx: 1\n",  # second document
    "name: [a\n",  # syntax error
    "name: a\u2028b\n",  # a line break only YAML counts
    "a: " + "[" * 300 + "]" * 300 + "\n",  # could nest past the C composer's bound
    "<<: {name: a}\nname: b\n",  # a merge key
    "m:\n  k: [{<<: {a: 1}}]\n",  # a merge key further down
]


@pytest.mark.parametrize("yaml", PLAIN)
@pytest.mark.parametrize("opening", ["---\n", "---\r\n", "\ufeff---\n"])
def test_plain_frontmatter_takes_the_fast_path_with_identical_results(yaml, opening):
    assert _compose_plain(yaml) is not None
    parsed = both(f"{opening}{yaml}---\nbody\n")
    assert parsed.frontmatter is not None
    assert parsed.findings == ()


@pytest.mark.parametrize("yaml", NOT_PLAIN)
def test_everything_else_is_left_to_the_event_composer(yaml):
    assert _compose_plain(yaml) is None
    both(f"---\n{yaml}---\nbody\n")


def test_fast_path_positions_are_document_positions():
    parsed = both('---\nname: pdf\ndescription: "\U0001f600 w"\nmeta:\n  k: v\n---\nbody\n')
    fm = parsed.frontmatter
    assert fm is not None
    assert fm.get("description").value_span == Span.at(2, 13, 18)
    assert fm.get("meta").value_span == Span(Position(4, 2), Position(5, 0))
    assert fm.span == Span(Position(0, 0), Position(5, 3))
    assert fm.yaml_span == Span(Position(1, 0), Position(5, 0))
    assert fm.body_start_line == 6


def test_odd_opening_lines_use_the_event_composer_positions():
    # "---\r\r\n" is accepted as the opening line but holds two LSP line breaks.
    parsed = both("---\r\r\nname: a\ndescription: b\n---\n")
    assert parsed.frontmatter is not None
    assert parsed.frontmatter.get("name").key_span == Span.at(2, 0, 4)


def test_hostile_nesting_never_reaches_the_c_composer():
    # 30,000 nested lists crash libyaml's recursive composer; the bound sends them to
    # the event composer, which refuses them with SD107.
    parsed = both("---\na: " + "[" * 30_000 + "]" * 30_000 + "\n---\n")
    assert [f.code for f in parsed.findings] == ["SD107"]
    parsed = both("---\na:\n" + "- " * 20_000 + "x\n---\n")
    assert [f.code for f in parsed.findings] == ["SD107"]


_TOKENS = st.sampled_from(
    [
        "name", "description", "a", "b", "x y", "1", "0x1", "1.5", "true", "null", "~",
        "-", "- ", ": ", ":", "? ", ",", "[", "]", "{", "}", "#", " #c", "'", '"', "''",
        "|", ">", "|-", ">+", "\n", "\r\n", "\r", "\n  ", "\n    ", "\t", " ", "  ",
        "\u00e9", "\U0001f600", "\u4e2d", "\\", "\\n", "%", "@", "`", "*", "&", "!",
        "!!str ", "...", "---",
    ]
)  # fmt: skip


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_TOKENS, max_size=40).map("".join))
def test_generated_yaml_parses_the_same_on_both_paths(yaml):
    both(f"---\n{yaml}\n---\nbody\n")


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=12),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=5), inner, max_size=3)
            ),
            max_leaves=8,
        ),
        max_size=6,
    )
)
def test_generated_mappings_parse_the_same_on_both_paths(mapping):
    # JSON is YAML: every generated mapping as a flow mapping, one key per line.
    lines = "".join(f"{json.dumps(k)}: {json.dumps(v)}\n" for k, v in mapping.items())
    both(f"---\n{lines}---\n")


@pytest.mark.parametrize("depth", [62, 63, 64, 65])
def test_the_depth_cap_is_the_same_on_both_paths(depth):
    flow = both(f"---\na: {'[' * depth}{']' * depth}\n---\n")
    block = both(f"---\na:\n{'- ' * depth}x\n---\n")
    expected = ["SD107"] if depth >= 64 else []
    assert [f.code for f in flow.findings] == [f.code for f in block.findings] == expected
