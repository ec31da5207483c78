"""Document symbols (frontmatter keys, Markdown headings) and workspace symbols (skills).

``textDocument/documentSymbol``: a ``frontmatter`` symbol whose children are its
top-level keys (detail: a preview of the value), then the body's headings (ATX and
setext; detail: ``#`` as many times as the level) nested by level, each one's range its
section from its first line, its selection range its text. Clients without hierarchical
support get the same as flat ``SymbolInformation``.

``workspace/symbol``: every skill file of every folder (shadowed ones included), named
by its skill name, with its source (and rank) as the container; the query matches
names case-insensitively as a subsequence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.frontmatter import FrontmatterEntry, describe_value, display_text
from skilldeck.engine.text import Position, Span
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.markdown_body import headings, section_end
from skilldeck.lsp.navigation import entry_location
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

FRONTMATTER_SYMBOL = "frontmatter"


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/documentSymbol`` and ``workspace/symbol``."""
    session = server.session

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbol(
        params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        doc = await load_document(session, params.text_document.uri)
        if doc is None:
            return None
        symbols = document_symbols(doc)
        if _hierarchical(server):
            return symbols
        return flatten(doc.uri, symbols)

    @server.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(
        params: types.WorkspaceSymbolParams,
    ) -> list[types.SymbolInformation]:
        await session.wait_indexed()
        return workspace_symbols(session, params.query)


def _hierarchical(server: SkilldeckServer) -> bool:
    text = server.client_capabilities.text_document
    caps = text.document_symbol if text is not None else None
    return bool(caps and caps.hierarchical_document_symbol_support)


def _value_preview(entry: FrontmatterEntry) -> str:
    value = entry.value
    if isinstance(value, str):
        return display_text(value, 40)
    if isinstance(value, bool):
        return "true" if value else "false"
    return describe_value(value)


def document_symbols(doc: SkillDocument) -> list[types.DocumentSymbol]:
    """The outline of ``doc`` (see the module doc)."""
    symbols: list[types.DocumentSymbol] = []
    lines = doc.frontmatter_lines()
    fm = doc.frontmatter
    if lines is not None:
        first, closing = lines
        last = min(closing, len(doc.lines) - 1)
        outer = Span(Position(first, 0), Position(last, len(doc.line(last))))
        children = [
            types.DocumentSymbol(
                name=entry.key,
                kind=types.SymbolKind.Key,
                detail=_value_preview(entry),
                range=doc.range(entry.span),
                selection_range=doc.range(entry.key_span),
            )
            for entry in (fm.entries if fm is not None else ())
        ]
        symbols.append(
            types.DocumentSymbol(
                name=FRONTMATTER_SYMBOL,
                kind=types.SymbolKind.Namespace,
                range=doc.range(outer),
                selection_range=doc.range(Span.at(first, 0, len(doc.line(first)))),
                children=children,
            )
        )
    found = headings(doc.lines, doc.body_start_line())
    stack: list[tuple[int, types.DocumentSymbol]] = []
    for position, heading in enumerate(found):
        end = section_end(doc.lines, found, position)
        symbol = types.DocumentSymbol(
            name=heading.text or "#" * heading.level,
            kind=types.SymbolKind.String,
            detail="#" * heading.level,
            range=doc.range(Span(Position(heading.line, 0), Position(end, len(doc.line(end))))),
            selection_range=doc.range(heading.span),
            children=[],
        )
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        if stack:
            parent = stack[-1][1]
            assert parent.children is not None
            parent.children = [*parent.children, symbol]
        else:
            symbols.append(symbol)
        stack.append((heading.level, symbol))
    return symbols


def flatten(uri: str, symbols: list[types.DocumentSymbol]) -> list[types.SymbolInformation]:
    """Hierarchical symbols as flat ``SymbolInformation`` (container = parent name)."""
    result: list[types.SymbolInformation] = []

    def walk(items: list[types.DocumentSymbol], container: str | None) -> None:
        for item in items:
            result.append(
                types.SymbolInformation(
                    name=item.name,
                    kind=item.kind,
                    location=types.Location(uri=uri, range=item.range),
                    container_name=container,
                )
            )
            walk(list(item.children or []), item.name)

    walk(symbols, None)
    return result


def matches(query: str, name: str) -> bool:
    """True when ``query``'s characters appear in ``name`` in order (case-insensitive)."""
    remaining = iter(name.lower())
    return all(char in remaining for char in query.lower())


def workspace_symbols(session: Session, query: str) -> list[types.SymbolInformation]:
    """Every skill file whose name matches ``query``, sorted by name then rank."""
    seen: set[str] = set()
    result: list[tuple[str, int, types.SymbolInformation]] = []
    for index in session.folders.values():
        for entry in index.entries():
            if entry.path in seen:
                continue
            seen.add(entry.path)
            name = entry.analysis.name or entry.expected_name
            if not matches(query, name):
                continue
            container = f"{entry.root.source} (rank {entry.root.rank})"
            if not entry.analysis.accepted:
                container += ", not loaded"
            else:
                group = index.group(name)
                if group and group[0].path != entry.path:
                    container += ", shadowed"
            result.append(
                (
                    name,
                    entry.root.rank,
                    types.SymbolInformation(
                        name=name,
                        kind=types.SymbolKind.Module,
                        location=entry_location(session, entry)
                        if entry.analysis.name
                        else types.Location(
                            uri=uri_of(entry.path),
                            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                        ),
                        container_name=container,
                    ),
                )
            )
    result.sort(key=lambda row: (row[0], row[1]))
    return [row[2] for row in result]
