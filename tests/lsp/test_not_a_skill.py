"""A Markdown file under a root that the skill layout does not pick up (SD007).

It gets an information diagnostic saying why, hover says it is not a skill (never
"shadowed by ..."), and completion offers no new-skill snippet in it.
"""

from __future__ import annotations

from pathlib import Path

from editing_fixtures import doc_id, open_doc, pos, start_editor
from lsp_harness import Deck, StartServer, diagnostics_of, pull_capabilities, skill_text, uri
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


async def test_a_skill_file_two_folders_down_is_published_without_being_opened(
    deck: Deck, start_server: StartServer
) -> None:
    # #31 (the parity suite's CLI-only finding): `check` reports SD007 for
    # .dsh/skills/nested/inner/SKILL.md (no SKILL.md in nested/); the editor must too.
    inner = _nested_two_down(deck)
    client = await start_server()

    [diagnostic] = await diagnostics_of(client, inner, bool)
    assert (diagnostic.code, diagnostic.message) == ("SD007", REASON)


async def test_a_skill_file_two_folders_down_is_in_the_workspace_report(
    deck: Deck, start_server: StartServer
) -> None:
    inner = _nested_two_down(deck)
    client = await start_server(capabilities=pull_capabilities())

    workspace = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    by_uri = {item.uri: [d.message for d in item.items] for item in workspace.items}
    assert by_uri.get(uri(inner)) == [REASON]


def _nested_two_down(deck: Deck) -> Path:
    """A good skill, and ``.dsh/skills/nested/inner/SKILL.md`` with no ``nested/SKILL.md``."""
    deck.write(deck.project_dsh, "good")
    inner = deck.project_dsh / "nested" / "inner" / "SKILL.md"
    inner.parent.mkdir(parents=True)
    inner.write_text(skill_text("inner", "Does inner things."), encoding="utf-8")
    return inner
