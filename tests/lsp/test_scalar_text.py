"""The span of a frontmatter ``name``'s own text (what rename replaces, highlights and
the code lens mark): inside quotes, past anchors, tags and block headers, through
escapes, and over every line of a flow scalar broken across lines. Each case names the
source text the span must cover."""

from __future__ import annotations

import pytest

from skilldeck.engine.frontmatter import LineIndex, parse_frontmatter
from skilldeck.lsp.scalar_text import scalar_text_span

CASES = [
    ("name: alpha", "alpha"),
    ("name: alpha  # the name", "alpha"),
    ("name: 'alpha'", "alpha"),
    ('name: "alpha"', "alpha"),
    ('name: "al\\u0070ha"', "al\\u0070ha"),  # an escape: its source, not its character
    ("name: &a alpha", "alpha"),
    ("name: !!str alpha", "alpha"),
    ('name: !!str "alpha"  # the name', "alpha"),
    ("name: >-\n  alpha", "alpha"),
    ("name: |-\n  alpha", "alpha"),
    ("name: >-  # folded\n  alpha\n", "alpha"),
    ("name:\n  alpha", "alpha"),
    ("name: &a\n  alpha", "alpha"),
    ("{name: alpha, description: Does it.}", "alpha"),
    # Wrong before scalar_source: the closing quote was the first quote character found,
    # an escaped or doubled one included; a quoted name over two lines kept its quotes.
    ('name: "al\\"pha"', 'al\\"pha'),
    ("name: 'al''pha'", "al''pha"),
    ('name: "alpha\n  beta"', "alpha\n  beta"),
    ("name: 'alpha\n  beta'", "alpha\n  beta"),
]


@pytest.mark.parametrize(("yaml", "spelt"), CASES)
def test_the_name_span_covers_its_text(yaml: str, spelt: str) -> None:
    text = f"---\n{yaml}\n---\nBody.\n"
    frontmatter = parse_frontmatter(text).frontmatter
    assert frontmatter is not None
    entry = frontmatter.get("name")
    assert entry is not None
    span = scalar_text_span(text, entry)
    index = LineIndex(text)
    assert text[index.offset(span.start) : index.offset(span.end)] == spelt
