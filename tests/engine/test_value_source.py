"""The span helper (``frontmatter.scalar_source``): each character of a parsed YAML value
mapped back to the source that spells it, in every scalar style, held to the YAML parser's
own values on the real skills of ``../shared/corpora`` and on written examples."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from skilldeck.engine.frontmatter import LineIndex, parse_frontmatter, scalar_source
from skilldeck.engine.frontmatter._value_source import _escape

_WHITE = " \t\r\n"


def _corpora() -> Path | None:
    here = Path(__file__).resolve().parents[2]
    for base in (here.parent, here.parent.parent):
        found = base / "shared" / "corpora" / "antigravity-awesome-skills" / "skills"
        if found.is_dir():
            return found
    return None


def _spells(source: str, char: str) -> bool:
    """True when ``source`` spells ``char``: itself, a doubled quote, an escape."""
    if source == char or (char == "'" and source == "''"):
        return True
    return source.startswith("\\") and _escape(source, 0) == (char, len(source))


def _entries(text: str):  # type: ignore[no-untyped-def]
    parsed = parse_frontmatter(text)
    assert parsed.frontmatter is not None
    index = LineIndex(text)
    for entry in parsed.frontmatter.entries:
        if isinstance(entry.value, str):
            start = index.offset(entry.value_span.start)
            end = index.offset(entry.value_span.end)
            yield entry, start, end


def _map(text: str, key: str):  # type: ignore[no-untyped-def]
    for entry, start, end in _entries(text):
        if entry.key == key:
            return entry, scalar_source(text, start, end, entry.style, entry.value)
    raise AssertionError(f"no {key}")


def _found(text: str, key: str, words: str) -> str:
    """The source text the helper gives for ``words`` inside ``key``'s parsed value."""
    entry, mapped = _map(text, key)
    assert mapped is not None
    at = entry.value.index(words)
    start, end = mapped.source_range(at, at + len(words))
    return text[start:end]


def test_every_string_value_of_the_real_skills_maps_back_to_its_source() -> None:
    skills = _corpora()
    if skills is None:
        pytest.skip("../shared/corpora is absent")
    styles: Counter[str] = Counter()
    unmapped: list[str] = []
    for path in sorted(skills.rglob("SKILL.md")):
        text = path.read_text(encoding="utf-8")
        if parse_frontmatter(text).frontmatter is None:
            continue
        for entry, start, end in _entries(text):
            mapped = scalar_source(text, start, end, entry.style, entry.value)
            if mapped is None:
                unmapped.append(f"{path.parent.name}: {entry.key} ({entry.style})")
                continue
            styles[entry.style] += 1
            assert len(mapped.starts) == len(entry.value)
            for i, char in enumerate(entry.value):
                spelt = text[mapped.starts[i] : mapped.ends[i]]
                if char in _WHITE:
                    assert not spelt.strip(_WHITE), (path, entry.key, i)
                else:
                    assert _spells(spelt, char), (path, entry.key, i, char, spelt)
    assert unmapped == []
    # The corpus writes values in every style but single quotes (the written cases below).
    assert {"plain", "double", "folded", "literal"} <= set(styles), styles


@pytest.mark.parametrize(
    ("yaml", "words", "expected"),
    [
        # plain, folded over two lines: the words' source crosses the line break
        ("description: Use it when\n  the user asks.\n", "when the user", "when\n  the user"),
        # single-quoted: a doubled quote is one character
        ("description: 'It''s for PDF forms'\n", "It's for", "It''s for"),
        # double-quoted: escapes, and an escaped line break that joins two lines
        (
            'description: "Say \\"hi\\" \\u00e9t\\u00e9 and\\\n    more"\n',
            '"hi" été andmore',
            '\\"hi\\" \\u00e9t\\u00e9 and\\\n    more',
        ),
        # literal block: header and indentation left out, line breaks kept
        (
            "description: |-  # note\n  First line.\n  Second line.\n",
            "line.\nSecond",
            "line.\n  Second",
        ),
        # folded block: a single line break is a space, an empty line a line break
        ("description: >\n  One\n  two.\n\n  Three.\n", "two.\nThree", "two.\n\n  Three"),
        # CRLF line endings
        ("description: >-\r\n  One\r\n  two\r\n", "One two", "One\r\n  two"),
    ],
)
def test_words_inside_a_value_map_to_their_source(yaml: str, words: str, expected: str) -> None:
    text = f"---\nname: x\n{yaml}---\nBody.\n"
    assert _found(text, "description", words) == expected


def test_a_value_the_source_does_not_spell_gets_no_map() -> None:
    text = "---\nname: x\nwhenToUse: &a Some text\ndescription: *a\n---\n"
    entry, mapped = _map(text, "description")
    assert entry.value == "Some text"  # an alias: spelt elsewhere
    assert mapped is None


@pytest.mark.parametrize(
    ("yaml", "expected"),
    [
        ("description: &a Some text\n", "text"),
        ('description: !!str "Some text"  # c\n', "text"),
        ("description: &a !!str >-\n  Some\n  text\n", "text"),
    ],
)
def test_an_anchor_or_a_tag_before_the_value_is_skipped(yaml: str, expected: str) -> None:
    # (before scalar_source skipped them, such a value had no map: the rule's range was
    # the whole value)
    text = f"---\nname: x\n{yaml}---\n"
    assert _found(text, "description", "text") == expected
