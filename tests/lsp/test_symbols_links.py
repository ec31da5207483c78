"""Document symbols, workspace symbols, document links and folding ranges."""

from __future__ import annotations

from pathlib import Path

from editing_fixtures import doc_id, open_doc, rng, start_editor
from lsp_harness import Deck, StartServer, skill_text, uri
from lsprotocol import types

TEXT = (
    "---\n"  # 0
    "name: forms\n"  # 1
    "description: Fill forms.\n"  # 2
    "metadata:\n"  # 3
    "  owner: docs\n"  # 4
    "---\n"  # 5
    "\n"  # 6
    "# Forms\n"  # 7
    "See [ref](reference.md) and https://example.com/spec.\n"  # 8
    "## Steps\n"  # 9
    "Run scripts/fill.py, not ../../etc/passwd or /etc/passwd.\n"  # 10
    "```\n"  # 11
    "# not a heading\n"  # 12
    "```\n"  # 13
    "\n"  # 14
    "# Notes\n"  # 15
    "Done.\n"  # 16
)


def bundle(deck: Deck) -> Path:
    path = deck.write(deck.project_dsh, "forms", TEXT)
    (path.parent / "reference.md").write_text("r\n", encoding="utf-8")
    (path.parent / "scripts").mkdir()
    (path.parent / "scripts" / "fill.py").write_text("p\n", encoding="utf-8")
    return path


async def test_document_symbols_keys_and_headings(deck: Deck, start_server: StartServer) -> None:
    path = bundle(deck)
    client = await start_editor(start_server)

    symbols = list(
        await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=doc_id(path))
        )
        or []
    )

    assert [(s.name, s.kind, s.range, s.selection_range) for s in symbols] == [
        ("frontmatter", types.SymbolKind.Namespace, rng(0, 0, 5, 3), rng(0, 0, 0, 3)),
        ("Forms", types.SymbolKind.String, rng(7, 0, 13, 3), rng(7, 2, 7, 7)),
        ("Notes", types.SymbolKind.String, rng(15, 0, 16, 5), rng(15, 2, 15, 7)),
    ]
    frontmatter, forms, _ = symbols
    assert isinstance(frontmatter, types.DocumentSymbol)
    assert [(c.name, c.detail, c.range, c.selection_range) for c in frontmatter.children or []] == [
        ("name", "forms", rng(1, 0, 1, 11), rng(1, 0, 1, 4)),
        ("description", "Fill forms.", rng(2, 0, 2, 24), rng(2, 0, 2, 11)),
        ("metadata", "a mapping", rng(3, 0, 5, 0), rng(3, 0, 3, 8)),
    ]
    assert isinstance(forms, types.DocumentSymbol)
    assert [(c.name, c.range) for c in forms.children or []] == [("Steps", rng(9, 0, 13, 3))]


async def test_workspace_symbols_every_skill_with_source(
    deck: Deck, start_server: StartServer
) -> None:
    winner = deck.write(deck.project_dsh, "review")
    shadowed = deck.write(deck.user_agents, "review")
    broken = deck.write(deck.user_dsh, "rebuild", "---\nname: rebuild\n---\n")
    deck.write(deck.project_dsh, "deploy")
    client = await start_editor(start_server)

    found = list(await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="rv")) or [])

    assert [(s.name, s.container_name, s.location.uri) for s in found] == [
        ("review", "project-dsh (rank 100)", uri(winner)),
        ("review", "user-agents (rank 500), shadowed", uri(shadowed)),
    ]
    assert isinstance(found[0].location, types.Location)
    assert found[0].location.range == rng(1, 6, 1, 12)
    rebuilt = list(await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="reb")))
    assert [(s.name, s.container_name, s.location.uri) for s in rebuilt] == [
        ("rebuild", "user-dsh (rank 400), not loaded", uri(broken))
    ]


async def test_links_stay_inside_the_skill_folder(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    path = bundle(deck)
    (tmp_path / "outside.md").write_text("x\n", encoding="utf-8")
    (path.parent / "out.md").symlink_to(tmp_path / "outside.md")
    client = await start_editor(start_server)
    open_doc(client, path, TEXT + "Also out.md and file:///etc/passwd\n")  # unsaved line 17

    links = list(
        await client.text_document_document_link_async(
            types.DocumentLinkParams(text_document=doc_id(path))
        )
        or []
    )

    assert [(link.range, link.target) for link in links] == [
        (rng(8, 10, 8, 22), uri(path.parent / "reference.md")),
        (rng(8, 28, 8, 52), "https://example.com/spec"),
        (rng(10, 4, 10, 19), uri(path.parent / "scripts" / "fill.py")),
    ]


async def test_flat_skill_links_and_folding(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "notes", skill_text("notes") + "## Tail\nx\n", flat=True)
    client = await start_editor(start_server)

    ranges = list(
        await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=doc_id(path))
        )
        or []
    )

    assert [(r.start_line, r.end_line, r.kind) for r in ranges] == [
        (0, 3, types.FoldingRangeKind.Region),
        (5, 9, types.FoldingRangeKind.Region),
        (8, 9, types.FoldingRangeKind.Region),
    ]


SETEXT_BODY = [
    "Title 😀",  # 4
    "=====",  # 5: h1
    "Intro.",  # 6
    "",  # 7
    "Part",  # 8
    "  two",  # 9
    "---  ",  # 10: h2 of both lines above
    "text",  # 11
    "",  # 12
    "---",  # 13: a blank line before: a thematic break
    "- item",  # 14
    "---",  # 15: under a list item: a thematic break
    "> quote",  # 16
    "---",  # 17: under a block quote: a thematic break
    "```",  # 18
    "code",  # 19
    "---",  # 20: in a code fence
    "```",  # 21
    "    indented",  # 22: indented code
    "    ---",  # 23
    "",  # 24
    "## ATX",  # 25
    "Also",  # 26
    "    ===",  # 27: indented 4: the paragraph goes on
    "",  # 28
    "<!-- note -->",  # 29: an HTML block
    "---",  # 30: a thematic break
    "After",  # 31
    "- - -",  # 32: spaces inside: a thematic break
    "***",  # 33
    "Last",  # 34
    "===   ",  # 35: h1, no line break after it
]
SETEXT = "---\r\nname: heads\r\ndescription: Setext headings.\r\n---\r\n" + "\r\n".join(SETEXT_BODY)


async def test_setext_headings_are_symbols_and_fold(deck: Deck, start_server: StartServer) -> None:
    # Session 14: `Title` over `=====` (or `---`) was missing from the outline.
    path = deck.write(deck.project_dsh, "heads", SETEXT)
    client = await start_editor(start_server)
    open_doc(client, path)

    symbols = list(
        await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=doc_id(path))
        )
        or []
    )

    def outline(items) -> list:
        return [
            (s.name, s.detail, s.range, s.selection_range, outline(s.children or [])) for s in items
        ]

    assert outline(symbols[1:]) == [
        (
            "Title 😀",
            "#",
            rng(4, 0, 33, 3),
            rng(4, 0, 4, 8),  # UTF-16: the emoji is two units
            [
                ("Part two", "##", rng(8, 0, 23, 7), rng(8, 0, 9, 5), []),
                ("ATX", "##", rng(25, 0, 33, 3), rng(25, 3, 25, 6), []),
            ],
        ),
        ("Last", "#", rng(34, 0, 35, 6), rng(34, 0, 34, 4), []),
    ]
    ranges = list(
        await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=doc_id(path))
        )
        or []
    )
    assert [(r.start_line, r.end_line) for r in ranges] == [(0, 3), (4, 33), (8, 23), (25, 33)]
