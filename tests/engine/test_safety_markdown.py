"""What a rendered view hides, checked against the real things: markdown-it-py parsing
the whole document (the windows and the outline must agree with it), and the HTML that
markdown-it and GitHub's own renderer (cmark-gfm) produce, read by an HTML5 tree builder
(html5lib), which is what a browser shows (issue #40)."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import cmarkgfm
import html5lib
import pytest
from cmarkgfm.cmark import Options
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skilldeck.engine.safety._html import NEVER_RENDERED, style_hides
from skilldeck.engine.safety._markdown import _markdown_it, outline, render, structure

_REPO = Path(__file__).resolve().parents[2]
CORPUS = next(
    (
        base / "shared" / "corpora" / "antigravity-awesome-skills" / "skills"
        for base in (_REPO.parent, _REPO.parent.parent)
        if (base / "shared" / "corpora").is_dir()
    ),
    None,
)

#: Lines that make CommonMark's block structure hard: fences of every shape, list
#: items, quotes, HTML blocks of each kind, indented code, tables, definitions.
_LINES = [
    "```", "````", "~~~", "```py", "```not`a fence", "``` info words here", "  ```",
    "   ```", "    ```", "\t```", "- item", "1. item", "  - nested", "   continued",
    "> quote", "> ```", "<!-- note", "-->", "<!-- one line -->", "<div>", "</div>",
    "<div hidden>", "<span>x</span>", "<span hidden>zz</span> text", "text", "",
    "    code", "<?pi", "?>", "<![CDATA[", "]]>", "<script>", "</script>", "# heading",
    "---", "| a | b |", "|---|---|", "[x]: # (a comment)", '[y]: https://e.x "title"',
    "text <b>bold</b>", '<p style="display:none">', "</p>", "<template>", "</template>",
    "<p>", "<span hidden>", "</span>", "<details>", "</details>", "<div style=display:none>",
]  # fmt: skip


def _documents() -> st.SearchStrategy[str]:
    return st.builds(
        lambda lines, newline: newline.join(lines) + newline,
        st.lists(st.sampled_from(_LINES), min_size=1, max_size=25),
        st.sampled_from(["\n", "\r\n", "\r"]),
    )


def _pieces(found: object) -> set[tuple[int, int, str]]:
    return {(h.start, h.end, h.why) for h in found.hidden}  # type: ignore[attr-defined]


def _whole(text: str) -> set[tuple[int, int, str]]:
    """Every hidden piece markdown-it finds parsing the whole text at once."""
    return _pieces(render(text))


def _windowed(text: str) -> set[tuple[int, int, str]]:
    return _pieces(structure(text, 0, len(text), [(0, len(text))]))


def _significant(pieces: set[tuple[int, int, str]], text: str) -> set[tuple[int, int, str]]:
    # a fence's info string of one word is a language name: no candidate looks for it
    return {
        p
        for p in pieces
        if not (p[2] == "a code fence's info string" and len(text[p[0] : p[1]].split()) < 2)
    }


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
# An element raw HTML opened before a window and closed inside it closes what the window
# opened in it (an end tag of its name, or a tag that closes an open <p>): the window
# must start before it, whatever the line endings.
@example('<div>\n\n<p style="display:none">\n</div>\n')
@example('<div>\r\n\r\n<p style="display:none">\r\n</div>\r\n')
@example('<div>\r\r<p style="display:none">\r</div>\r')
@example("<p>\n\n<span hidden>\n<div>\nshown\n")
@example("<details>\n\n<template>\n</details>\nshown\n")
def test_the_windows_find_what_parsing_the_whole_document_finds(text: str) -> None:
    assert _significant(_windowed(text), text) == _significant(_whole(text), text)


def _code_lines(text: str) -> set[int]:
    """The lines markdown-it puts in a code block (fenced or indented)."""
    lines: set[int] = set()
    for token in _markdown_it().parse(text):
        if token.type in ("fence", "code_block") and token.map is not None:
            lines.update(range(token.map[0], token.map[1]))
    return lines


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_what_the_outline_calls_code_is_code(text: str) -> None:
    plan = outline(text, 0, len(text))
    starts = [0] + [m.end() for m in re.finditer(r"\r\n?|\n", text)]
    code = _code_lines(text)
    for number, start in enumerate(starts):
        if start < len(text) and plan.in_code(start):
            assert number in code, (number, text)


@pytest.mark.skipif(CORPUS is None, reason="../shared/corpora is not beside the repo")
def test_the_windows_agree_with_the_whole_document_on_the_collection() -> None:
    assert CORPUS is not None
    checked = 0
    for path in sorted(CORPUS.glob("*/SKILL.md")):
        text = path.read_text("utf-8", "replace")
        body = text.split("\n---\n", 1)[-1]
        assert _significant(_windowed(body), body) == _significant(_whole(body), body), path
        plan = outline(body, 0, len(body))
        code = _code_lines(body)
        starts = [0] + [m.end() for m in re.finditer(r"\r\n?|\n", body)]
        assert all(n in code for n, s in enumerate(starts) if plan.in_code(s)), path
        checked += 1
    assert checked > 500


# --- against the HTML a browser reads ------------------------------------------------------

#: Each construct holds a marker word; whether the reader sees it is decided by an HTML5
#: tree builder on the rendered HTML, and must be what the hidden pieces say.
_CONSTRUCTS = [
    "<!-- zq01 -->",
    "text <!-- zq02 --> text",
    "<!-- zq03 --!> zq04 -->",
    "<div hidden>zq05</div>",
    "<div hidden>\nzq06\n\nzq07\n</div>\n\nzq08",
    "<div style=display:none>zq09<div>zq10</div>zq11</div>zq12",
    "<span style='visibility: hidden'>zq13</span> zq14",
    "<template><p>zq15</p></template>",
    "<?pi zq16 ?>",
    "<!DOCTYPE zq17>",
    "<![CDATA[ zq18 ]]>",
    "<script>zq19</script>\n\nzq20",
    "<style>zq21</style>",
    "[//]: # (zq22)\n\nzq23",
    '[a]: https://e.example "zq24"\n\nzq25',
    "```\n<!-- zq26 -->\n```",
    "- item\n  ```\n  zq27\n\n<!-- zq28 -->\n\nzq29",
    "```not`fence\n<!-- zq30 -->\n```",
    "`<!-- zq31 -->` zq32",
    "<details><summary>zq33</summary>\n\nzq34\n\n</details>",
    "<p hidden>zq35",
    "> <!-- zq36 -->\n> zq37",
    "<div>\n<!-- zq38\n\nzq39\n\n-->\n</div>\n\nzq40",
    "    <!-- zq41 -->",
    "| a | b |\n|---|---|\n| <span hidden>zq42</span> | zq43 |",
    "<input type=hidden value=zq44> zq45",
    "<dialog>zq46</dialog><dialog open>zq47</dialog>",
    "<noscript>zq48</noscript>",
]
_MARKER = re.compile(r"zq\d\d")


def _visible_words(html: str) -> set[str]:
    """The marker words an HTML5 browser shows of ``html``: text nodes outside comments,
    elements never rendered, ``hidden`` elements and elements hidden by style."""
    tree = html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False)
    seen: list[str] = []

    def hidden(element: ET.Element) -> bool:
        if not isinstance(element.tag, str):
            return True  # a comment
        attributes = element.attrib
        if "hidden" in attributes or element.tag in NEVER_RENDERED:
            return True
        if element.tag == "dialog" and "open" not in attributes:
            return True
        if element.tag == "input" and attributes.get("type", "").lower() == "hidden":
            return True
        return style_hides(attributes.get("style", "")) is not None

    def walk(element: ET.Element) -> None:
        if hidden(element):
            return
        seen.append(element.text or "")
        for child in element:
            walk(child)
            seen.append(child.tail or "")

    seen.append(tree.text or "")
    for child in tree:
        walk(child)
        seen.append(child.tail or "")
    return set(_MARKER.findall(" ".join(seen)))


def _hidden_words(text: str) -> set[str]:
    rendered = render(text)
    words: set[str] = set()
    for piece in rendered.hidden:
        words.update(_MARKER.findall(text[piece.start : piece.end]))
    return words


@pytest.mark.parametrize("construct", _CONSTRUCTS)
def test_hidden_is_what_a_browser_does_not_show_of_markdown_it_html(construct: str) -> None:
    html = _markdown_it().render(construct)
    every = set(_MARKER.findall(construct))
    assert _hidden_words(construct) == every - _visible_words(html), html


#: Where GitHub's renderer (cmark-gfm, with raw HTML and its tag filter) differs from
#: markdown-it on these constructs, and why (checked 2026-12-06, cmarkgfm 2025.10.22).
_GITHUB_DIFFERS = {
    # the GFM tag filter escapes <script>, <style>, <noscript>...: GitHub shows the text
    "<script>zq19</script>\n\nzq20": {"zq19"},
    "<style>zq21</style>": {"zq21"},
    "<noscript>zq48</noscript>": {"zq48"},
}


@pytest.mark.parametrize("construct", _CONSTRUCTS)
def test_hidden_is_what_a_browser_does_not_show_of_githubs_html(construct: str) -> None:
    html = cmarkgfm.github_flavored_markdown_to_html(construct, options=Options.CMARK_OPT_UNSAFE)
    every = set(_MARKER.findall(construct))
    differs = _GITHUB_DIFFERS.get(construct, set())
    assert _hidden_words(construct) - differs == every - _visible_words(html) - differs, html


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents(), st.lists(st.integers(min_value=0, max_value=40), max_size=4))
def test_an_outline_read_a_chunk_at_a_time_is_the_whole_outline(text: str, cuts: list[int]) -> None:
    starts = [0] + [m.end() for m in re.finditer(r"\r\n?|\n", text)]
    bounds = sorted({starts[c] for c in cuts if c < len(starts)} | {0, len(text)})
    chunks = list(itertools.pairwise(bounds))
    whole = outline(text, 0, len(text))
    chunked = outline(text, 0, len(text), chunks)
    assert chunked.restarts == whole.restarts
    assert [chunked.in_code(s) for s in starts] == [whole.in_code(s) for s in starts]
