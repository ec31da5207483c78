"""Hover: key docs by profile, the catalog line on name, description length, /name mentions."""

from __future__ import annotations

from pathlib import Path

from editing_fixtures import doc_id, open_doc, pos, rng, start_editor
from lsp_harness import Deck, StartServer, skill_text, uri
from lsprotocol import types


async def hover(client, path: Path, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(line, character))
    )


def value(result: types.Hover | None) -> str:
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def test_name_shows_catalog_line_source_and_shadowing(
    deck: Deck, start_server: StartServer
) -> None:
    winner = deck.write(
        deck.project_dsh, "review", skill_text("review", "Reviews   <b>code</b> & docs.")
    )
    loser = deck.write(deck.user_agents, "review", skill_text("review", "An older review."))
    client = await start_editor(start_server)
    open_doc(client, winner)

    result = await hover(client, winner, 1, 8)

    assert result is not None and result.range == rng(1, 6, 1, 12)
    assert value(result) == (
        "**`review`** · source `project-dsh` · rank 100 · bundle\n\n"
        "Catalog line, as the model sees it:\n\n"
        "```text\n- `review`: Reviews &lt;b&gt;code&lt;/b&gt; &amp; docs.\n```\n\n"
        f"Shadows 1: [user-agents (rank 500)]({uri(loser)})"
    )

    shadowed = await hover(client, loser, 1, 7)
    assert value(shadowed) == (
        "**`review`** · source `user-agents` · rank 500 · bundle\n\n"
        f"Shadowed by [project-dsh (rank 100)]({uri(winner)}): the model never sees this "
        "skill.\n\n"
        "The catalog lists the winner instead:\n\n"
        "```text\n- `review`: Reviews &lt;b&gt;code&lt;/b&gt; &amp; docs.\n```"
    )


async def test_name_key_adds_the_key_docs_and_unsaved_edits_count(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "notes", flat=True)
    client = await start_editor(start_server)
    text = skill_text("notes", "Takes notes.", extra="disable-model-invocation: yes\n")
    open_doc(client, path, text)  # unsaved: the disk still has a model-invocable skill

    result = await hover(client, path, 1, 2)

    assert result is not None and result.range == rng(1, 0, 1, 4)
    sections = value(result).split("\n\n---\n\n")
    assert sections[0] == (
        "**`notes`** · source `project-dsh` · rank 100 · flat\n\n"
        "Not in the model's catalog (`disable-model-invocation`); users run it with `/notes`."
    )
    assert sections[1].startswith("**`name`**\n\n**Required.** The skill's identifier")
    assert sections[1].endswith("Required  \nProfile: `dsh` (default)")


async def test_key_docs_follow_the_profile(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(
        deck.project_dsh, "forms", skill_text("forms", extra="context: fork\nx-vendor: 1\n")
    )
    client = await start_editor(start_server, settings={"profile": "agentskills"})
    open_doc(client, path)

    context = await hover(client, path, 3, 3)
    assert value(context) == (
        "**`context`** is not a key of the `agentskills` profile; vendor keys belong under "
        "`metadata`."
    )
    description = await hover(client, path, 2, 3)
    text = value(description)
    assert text.startswith(
        "**Catalog length:** 13 of 500 characters (whitespace collapsed; limit 500 by default)"
    )
    assert "Agent Skills limit: 13 of 1024 characters." in text
    assert text.split("\n\n---\n\n")[1].startswith("**`description`**")
    assert "The Agent Skills standard limits it to 1024 characters." in text


async def test_deferred_key_under_dsh(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "forms", skill_text("forms", extra="context: fork\n"))
    client = await start_editor(start_server)
    open_doc(client, path)

    result = await hover(client, path, 3, 1)

    assert result is not None and result.range == rng(3, 0, 3, 7)
    assert value(result) == (
        "**`context`**\n\nWhere the skill runs, e.g. `fork` for a separate sub-agent context. "
        "Reserved by the skill-system design and used by some agents; **skilldeck accepts it "
        "but does not enforce it**.\n\n"
        "Type: string  \nValues: `fork`  \nControls: not enforced  \n"
        "Enforced by skilldeck: no (accepted, not acted on)  \nProfile: `dsh` (default)"
    )


async def test_description_value_shows_the_cut_catalog_text(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "long")
    client = await start_editor(start_server, settings={"catalogDescriptionMaxLength": 10})
    open_doc(client, path, skill_text("long", "Use  when\n  <x> a b c d e f"))

    result = await hover(client, path, 2, 16)

    assert result is not None and result.range == rng(2, 13, 3, 17)
    assert value(result) == (
        "**Catalog length:** 24 of 10 characters (whitespace collapsed; limit 10 from editor "
        "setting `skilldeck.catalogDescriptionMaxLength`)\n\n"
        "Cut to 10 characters: the catalog shows the first 7 and `...`.\n\n"
        "The model sees:\n\n```text\nUse whe...\n```"
    )


async def test_mention_shows_the_winner_summary(deck: Deck, start_server: StartServer) -> None:
    deploy = deck.write(
        deck.user_dsh,
        "deploy",
        skill_text("deploy", "Ships it.", extra="disable-model-invocation: true\n"),
    )
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, skill_text("review") + "Then /deploy and /nope\n")

    result = await hover(client, path, 8, 7)
    assert result is not None and result.range == rng(8, 5, 8, 12)
    assert value(result) == (
        f"**`/deploy`** → [user-dsh (rank 400)]({uri(deploy)})\n\n"
        "```text\nShips it.\n```\n\n"
        "Invocable by users only (`/name`); it is not in the model's catalog."
    )
    unknown = await hover(client, path, 8, 19)
    assert value(unknown) == "**`/nope`**: no skill named `nope` in this workspace."
    assert await hover(client, path, 6, 2) is None


async def test_ranges_are_utf16_after_astral_characters(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, skill_text("review") + "\U0001f600 /review\n")

    result = await hover(client, path, 8, 5)  # UTF-16: the emoji is two code units

    assert result is not None and result.range == rng(8, 3, 8, 10)


async def test_under_a_host_profile_the_hover_says_what_that_agent_does(
    deck: Deck, start_server: StartServer
) -> None:
    """Issue #39: a skill without a description is refused by skilldeck's engine but
    loaded by Claude Code 2.1.332, which takes the first line of the body: the hover says
    both and does not call the skill broken."""
    path = deck.write(deck.project_agents, "notes", "---\nname: notes\n---\n\nFirst line.\n")
    client = await start_editor(start_server, settings={"profile": "claude-code"})
    open_doc(client, path)

    shown = value(await hover(client, path, 1, 7))
    assert shown.endswith(
        "Not loaded by skilldeck's engine (SPEC §2): missing required key 'description'. "
        "Claude Code 2.1.332 takes the first line of the body and loads the skill; "
        "DeepSeek Harness, Codex and the Agent Skills standard reject it."
    ), shown
    key = value(await hover(client, path, 1, 1))
    assert "**Optional in Claude Code 2.1.332**: a missing or empty name is replaced by" in key
