"""Property: the spans a rename edits are exactly the name's text and the real mentions.

Generated skill files write the name in every YAML style a name can take (plain, quoted,
anchored, tagged, commented, block scalars, on its own line, in a flow mapping) and mix
mentions with look-alikes (code fences, inline code, ``/alphabet``, ``a/alpha``) and with
every line break (``\\n``, ``\\r\\n``, a lone ``\\r``), tabs, U+2028 and ``...``. The name
span (:func:`scalar_text_span`, what rename's ``own_name_span`` uses) and the mentions
(:func:`mentions_in_text`, what ``deck_mentions`` uses), converted to UTF-16 client
ranges and applied by the client's reference applier, must give the same file written
with the new name, and that file must parse with the new name.
"""

from __future__ import annotations

from client_text import apply_text_edits
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.text._positions import Encoding, Span
from skilldeck.lsp.deck_mentions import mentions_in_text
from skilldeck.lsp.positions import line_source, to_lsp_range
from skilldeck.lsp.scalar_text import scalar_text_span

OLD, NEW = "alpha", "gamma"

#: How the name is written; ``{n}`` is the name. Each keeps the value equal to the name.
NAME_STYLES = [
    "name: {n}",
    "name: '{n}'",
    'name: "{n}"',
    "name: &a {n}",
    "name: !!str {n}",
    'name: !!str "{n}"  # the name',
    "name: {n}  # the name",
    "name: >-\n  {n}",
    "name: |-\n  {n}",
    "name: >-  # folded\n  {n}\n",
    "name:\n  {n}",
    "name: &a\n  {n}",
]
OTHER_KEYS = [
    "description: Does a thing.",
    'description: "Line one\u2028two"',
    "description: 'tabs\tinside'",
    "# a comment line",
    "metadata: {a: b, c: [1, 2]}",
    "metadata:\n  owner: me  # inline comment",
]
#: Body lines; ``{m}`` is a real mention, a literal ``/alpha`` is not one.
BODY_LINES = [
    "Run {m} now.",
    "{m}",
    "\t{m}\tand tabs",
    "See /alphabet and a/alpha and /alpha.",
    "Use `/alpha` and `` /alpha `` inline, then {m} for real.",
    "Separator \u2028 {m} \u2028 here.",
    "...",
    "",
]
FENCED = ["```sh", "rm -rf /alpha /var/cache", "```"]
TILDES = ["~~~", "/alpha", "~~~"]


@st.composite
def skill_files(draw: st.DrawFn) -> tuple[str, str]:
    """``(text with OLD, the same text with NEW where rename must change it)``."""
    name_line = draw(st.sampled_from(NAME_STYLES))
    others = draw(st.lists(st.sampled_from(OTHER_KEYS), max_size=3, unique=True))
    at = draw(st.integers(0, len(others)))
    keys = [*others[:at], name_line, *others[at:]]
    if draw(st.booleans()) and all("\n" not in k and "#" not in k for k in keys):
        # One flow mapping holding every key.
        pairs = [k.replace("name: ", "name: ", 1) for k in keys if k.startswith(("name", "desc"))]
        frontmatter = "{" + ", ".join(pairs) + "}"
    else:
        frontmatter = "\n".join(keys)
    body: list[str] = []
    for block in draw(
        st.lists(
            st.one_of(
                st.sampled_from(BODY_LINES).map(lambda line: [line]),
                st.just(FENCED),
                st.just(TILDES),
            ),
            max_size=6,
        )
    ):
        body.extend(block)
    crlf = draw(st.booleans())
    head = f"---\n{frontmatter}\n---\n".replace("\n", "\r\n" if crlf else "\n")
    breaks = [draw(st.sampled_from(["\n", "\r\n", "\r"])) for _ in body]
    template = head + "".join(line + brk for line, brk in zip(body, breaks, strict=True))
    return (
        template.replace("{n}", OLD).replace("{m}", "/" + OLD),
        template.replace("{n}", NEW).replace("{m}", "/" + NEW),
    )


def rename_edits(text: str) -> list[types.TextEdit]:
    """The rename's text edits for this file (own name + mentions), in UTF-16 ranges."""
    analysis = analyze_skill_text(text, path="/r/alpha/SKILL.md", expected_name=OLD)
    assert analysis.frontmatter is not None
    entry = analysis.frontmatter.get("name")
    assert entry is not None
    lines = line_source(text)
    spans = [scalar_text_span(text, entry)]
    for span, _line in mentions_in_text(text, OLD):
        spans.append(Span.at(span.start.line, span.start.character + 1, span.end.character))
    return [
        types.TextEdit(range=to_lsp_range(span, lines, Encoding.UTF16), new_text=NEW)
        for span in spans
    ]


@settings(max_examples=150, deadline=None)
@given(skill_files())
def test_rename_changes_exactly_the_name_and_the_mentions(files: tuple[str, str]) -> None:
    before, expected = files
    assert analyze_skill_text(before, path="/r/alpha/SKILL.md", expected_name=OLD).name == OLD
    after = apply_text_edits(before, rename_edits(before), Encoding.UTF16)
    assert after == expected
    assert analyze_skill_text(after, path="/r/gamma/SKILL.md", expected_name=NEW).name == NEW
