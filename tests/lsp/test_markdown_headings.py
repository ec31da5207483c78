"""Property: the outline's headings (ATX and setext) are CommonMark's, as markdown-it-py
reads them, for bodies without block quotes and lists (whose headings the outline does
not look for) and without a fence inside an HTML block (fences are found as the gesture
grammar finds them, HTML or not)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.lsp.markdown_body import headings

markdown_it = pytest.importorskip("markdown_it")  # a development dependency's (rich's)

LINES = [
    *["Foo", "bar baz", "  two spaces", "   three", "    code", "\tTab", "Foo\\", "text -->"],
    *["", "", "===", "=", "  ===", "   ===", "    ===", "= =", "==  "],
    *["---", "-", "--", "--- ", "   ---", "    ---", "- - -", "***", "___", "_ _ _"],
    *["```", "~~~", "````", "```md", "# H", "## H2 ##", "#nope", "  # H", "#"],
    *["<!-- c -->", "<!--", "-->", "<div>", "</div>", "<span>", '<a href="x">', "<?php", "?>"],
    *["<script>", "</script>", "<![CDATA[", "]]>", "- item", "* item", "1. one", "2. two"],
    *["> quote", ">"],
]
CONTAINERS = ("bullet_list_open", "ordered_list_open", "blockquote_open")


def commonmark(text: str) -> list[tuple[int, int, int, str]] | None:
    """``(level, first line, last line, text)`` of each heading; ``None`` for a body
    with a block quote, a list or a fence in an HTML block."""
    tokens = markdown_it.MarkdownIt("commonmark").parse(text)
    found: list[tuple[int, int, int, str]] = []
    for at, token in enumerate(tokens):
        if token.type in CONTAINERS:
            return None
        if token.type == "html_block" and ("```" in token.content or "~~~" in token.content):
            return None
        if token.type == "heading_open":
            assert token.map is not None
            text = " ".join(part.strip() for part in tokens[at + 1].content.split("\n"))
            found.append((int(token.tag[1]), token.map[0], token.map[1] - 1, text))
    return found


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=10))
def test_headings_are_commonmark_headings(lines: list[str]) -> None:
    expected = commonmark("\n".join(lines))
    if expected is None:
        return
    found = [(h.level, h.line, h.last, h.text) for h in headings(lines, 0)]
    assert found == expected


def test_a_setext_heading_is_the_whole_paragraph_over_the_underline() -> None:
    lines = ["Intro.", "", " Part", "\ttwo  ", "---", "text"]
    [heading] = headings(lines, 0)
    assert (heading.level, heading.text, heading.line, heading.last) == (2, "Part two", 2, 4)
    assert (heading.span.start.line, heading.span.start.character) == (2, 1)
    assert (heading.span.end.line, heading.span.end.character) == (3, 4)
