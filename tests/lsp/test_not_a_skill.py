"""A Markdown file under a root that the skill layout does not pick up (SD007).

It gets an information diagnostic saying why, hover says it is not a skill (never
"shadowed by ..."), and completion offers no new-skill snippet in it.
"""

from __future__ import annotations

from editing_fixtures import doc_id, open_doc, pos, start_editor
from lsp_harness import Deck, StartServer, diagnostics_of, skill_text
from lsprotocol import types

REASON = "not a skill: nested one level too deep; expected .dsh/skills/<name>/SKILL.md"


async def test_nested_skill_file_is_named_for_what_it_is(
    deck: Deck, start_server: StartServer
) -> None:
    deck.write(deck.project_agents, "pdf-summary")  # the same name loads from .agents
    nested = deck.project_dsh / "skills" / "pdf-summary" / "SKILL.md"
    nested.parent.mkdir(parents=True)
    nested.write_text(skill_text("pdf-summary", "Summarises PDFs."), encoding="utf-8")
    blank = deck.project_dsh / "skills" / "draft" / "SKILL.md"
    blank.parent.mkdir(parents=True)
    blank.write_text("", encoding="utf-8")
    client = await start_editor(start_server)
    open_doc(client, nested)
    open_doc(client, blank)

    [diagnostic] = await diagnostics_of(client, nested, bool)
    assert diagnostic.code == "SD007"
    assert diagnostic.severity == types.DiagnosticSeverity.Information
    assert diagnostic.message == REASON
    assert diagnostic.range == types.Range(start=pos(0, 0), end=pos(0, 0))

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(nested), position=pos(1, 8))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    shown = hover.contents.value
    assert shown.startswith("**`pdf-summary`** · " + REASON)
    assert "never loads this file" in shown
    assert "Shadowed" not in shown and "not in any skill root" not in shown

    described = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(nested), position=pos(2, 15))
    )
    assert described is not None and isinstance(described.contents, types.MarkupContent)
    assert described.contents.value.startswith(
        "Not a skill: nested one level too deep; expected .dsh/skills/<name>/SKILL.md. "
        "The model never sees this description."
    )
    assert "The model sees" not in described.contents.value

    completion = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(blank), position=pos(0, 0))
    )
    labels = [] if completion is None else [item.label for item in completion.items]
    assert "skill frontmatter" not in labels
