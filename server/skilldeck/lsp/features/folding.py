"""``textDocument/foldingRange``: the frontmatter block and each Markdown section."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.lsp.markdown_body import headings, section_end
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/foldingRange``."""

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding_range(params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        doc = await load_document(server.session, params.text_document.uri)
        return None if doc is None else folding_ranges(doc)


def folding_ranges(doc: SkillDocument) -> list[types.FoldingRange]:
    """The frontmatter (opening to closing ``---``) and every section with a body (below
    the heading: a setext heading's two lines are not a section)."""
    ranges: list[types.FoldingRange] = []
    lines = doc.frontmatter_lines()
    if lines is not None and lines[1] < len(doc.lines):
        ranges.append(
            types.FoldingRange(
                start_line=lines[0],
                end_line=lines[1],
                kind=types.FoldingRangeKind.Region,
                collapsed_text="frontmatter",
            )
        )
    found = headings(doc.lines, doc.body_start_line())
    for position, heading in enumerate(found):
        end = section_end(doc.lines, found, position)
        if end > heading.last:
            ranges.append(
                types.FoldingRange(
                    start_line=heading.line, end_line=end, kind=types.FoldingRangeKind.Region
                )
            )
    return ranges
