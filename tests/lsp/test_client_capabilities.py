"""Capabilities are read one by one, as each editor really announces them
(``client_profiles``; issue #41, items 9-11): push or pull diagnostics, filter text on
completion items, Markdown or plain text in hover and completion documentation."""

from __future__ import annotations

import pytest
from client_profiles import PROFILES, ClientProfile, neovim_shown, profile_params
from editing_fixtures import doc_id, open_doc, pos, replace_doc
from lsp_harness import Deck, StartServer, codes, diagnostics_of, indexed, pulls, skill_text
from lsprotocol import types


def announces_pull_with_refresh(profile: ClientProfile) -> bool:
    raw = profile.raw()
    pull = "diagnostic" in raw.get("textDocument", {})
    refresh = raw.get("workspace", {}).get("diagnostics", {}).get("refreshSupport", False)
    return pull and bool(refresh)


def lists_markdown(formats: list[str] | None) -> bool:
    return "markdown" in (formats or [])


@pytest.mark.parametrize("profile", profile_params())
async def test_pull_only_for_a_client_that_can_be_told_to_pull_again(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    deck.write(deck.project_dsh, "alpha")
    client = await start_server(profile=profile)
    await indexed(client)
    assert pulls(client) == announces_pull_with_refresh(profile)


async def test_neovim_011_sees_another_buffer_change_because_of_an_edit(
    deck: Deck, start_server: StartServer
) -> None:
    """Neovim 0.11 announces pull diagnostics without refreshSupport: the server pushes,
    so a buffer whose findings another file changed is updated (item 9)."""
    winner = deck.write(deck.project_dsh, "review")
    shadowed = deck.write(deck.user_dsh, "review")
    client = await start_server(profile=PROFILES["neovim-0.11"])
    await indexed(client)
    open_doc(client, winner)
    open_doc(client, shadowed)
    await diagnostics_of(client, shadowed, lambda d: codes(d) == ["SD701"])

    # Renamed in the other buffer: the user copy is no longer shadowed.
    replace_doc(client, winner, skill_text("review-v2").replace("# review-v2", "# r"), 2)
    await diagnostics_of(client, shadowed, lambda d: "SD701" not in codes(d))


@pytest.mark.parametrize("profile", profile_params())
async def test_completion_items_narrow_as_typed_in_every_editor(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    """Every item with a text edit has a filter text, so Neovim 0.11 (which shows an item
    with an edit and no filter text whatever was typed) lists only what matches (item 10)."""
    path = deck.write(deck.project_dsh, "review")
    client = await start_server(profile=profile)
    await indexed(client)
    line = "al"
    open_doc(client, path, f"---\nname: review\ndescription: Reviews code.\n{line}\n---\n\nBody.\n")
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(path), position=pos(3, 2))
    )
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert all(item.filter_text is not None for item in items if item.text_edit is not None)
    assert neovim_shown(items, line, 2) == ["allowed-tools"]


@pytest.mark.parametrize("profile", profile_params())
async def test_documentation_is_markdown_only_for_a_client_that_lists_it(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    """Hover and completion documentation are Markdown where the client lists Markdown,
    else plain text without Markdown's marks (eglot 1.9 showed raw ``**``; item 11)."""
    path = deck.write(deck.project_dsh, "review")
    client = await start_server(profile=profile)
    await indexed(client)
    open_doc(client, path)
    raw = profile.raw().get("textDocument", {})

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 2))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    replace_doc(client, path, "---\nname: review\ndescription: Reviews code.\nus\n---\n", 2)
    completion = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(path), position=pos(3, 2))
    )
    assert completion is not None
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    (item,) = [i for i in items if i.label == "user-invocable"]
    item_formats = raw.get("completion", {}).get("completionItem", {}).get("documentationFormat")
    if item_formats:
        assert isinstance(item.documentation, types.MarkupContent)
        item_doc = item.documentation
    else:  # a bare string: plain text to every client
        assert isinstance(item.documentation, str)
        item_doc = types.MarkupContent(kind=types.MarkupKind.PlainText, value=item.documentation)

    for content, formats in (
        (hover.contents, raw.get("hover", {}).get("contentFormat")),
        (item_doc, item_formats),
    ):
        if lists_markdown(formats):
            assert content.kind == types.MarkupKind.Markdown
            assert "**`" in content.value
        else:
            assert content.kind == types.MarkupKind.PlainText
            prose = [line for line in content.value.split("\n") if not line.startswith("    ")]
            assert not [line for line in prose if "**" in line or "`" in line], content.value
    if not lists_markdown(raw.get("hover", {}).get("contentFormat")):
        assert hover.contents.value.startswith("review · source project-dsh · rank 100"), hover
