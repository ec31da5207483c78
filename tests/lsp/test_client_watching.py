"""Changes a shell makes on disk reach the index, whatever the editor reports (issue #41,
items 1 and 12), each editor as it really announces and watches (``client_profiles``).

- VS Code watches what the server registers, as VS Code does it: a root whose folder does
  not exist yet (``.dsh/skills`` in the project, ``~/.agents/skills``) must go live when a
  shell creates it with a skill in one go (``mkdir -p`` + the file), with the server
  bundled in the extension (no watchfiles: the client watches every root) and with an
  installed one.
- Helix announces watching but reports only its own saves; eglot, Neovim and LSP4IJ are
  given no report at all: the server watches the roots itself.
"""

from __future__ import annotations

import pytest
from client_profiles import PROFILES, ClientProfile, profile_params
from lsp_harness import (
    SERVER_COMMAND,
    Deck,
    StartServer,
    codes,
    indexed,
    request,
    seen_diagnostics,
    skill_text,
    wait_for,
)
from test_pure_server import PURE_SERVER

VSCODE = PROFILES["vscode-1.100"]


async def names_in_view(client) -> set[str]:
    result = await request(client, "skilldeck/skills", {})
    return {
        skill["name"]
        for folder in result["folders"]
        for root in folder["roots"]
        for skill in root["skills"]
    }


async def wait_for_name(client, name: str) -> None:
    found: set[str] = set()

    async def probe() -> bool:
        found.clear()
        found.update(await names_in_view(client))
        return name in found

    for _ in range(3000):  # bounded by HANG_S through the waits below
        if await probe():
            return
        await wait_for(lambda: True)
    raise AssertionError(f"{name!r} never reached the Skills view; it shows {sorted(found)}")


@pytest.mark.parametrize("command", [PURE_SERVER, SERVER_COMMAND], ids=["bundled", "installed"])
async def test_vscode_a_project_root_created_by_a_shell_goes_live(
    deck: Deck, start_server: StartServer, command: list[str]
) -> None:
    deck.write(deck.project_agents, "anchor")
    (deck.base / "home").mkdir()  # as on every machine: nothing else makes the server rescan
    assert not (deck.project / ".dsh").exists()
    client = await start_server(profile=VSCODE, command=command)
    await indexed(client)
    watching = client.skilldeck_watching

    late = deck.project_dsh / "late" / "SKILL.md"
    watching.create(late, "---\nname: late\n---\n")  # mkdir -p .dsh/skills/late + the file
    await seen_diagnostics(client, late, lambda d: codes(d) == ["SD204"])
    await wait_for_name(client, "late")

    # A second skill in the root, now live: it shadows the project's .agents copy.
    shadow = deck.project_dsh / "anchor" / "SKILL.md"
    watching.create(shadow, skill_text("anchor"))
    await wait_for_name(client, "anchor")
    other = deck.project_agents / "anchor" / "SKILL.md"
    await seen_diagnostics(client, other, lambda d: codes(d) == ["SD701"])


@pytest.mark.parametrize("command", [PURE_SERVER, SERVER_COMMAND], ids=["bundled", "installed"])
async def test_vscode_a_user_root_created_by_a_shell_goes_live(
    deck: Deck, start_server: StartServer, command: list[str]
) -> None:
    deck.write(deck.project_dsh, "anchor")
    (deck.base / "home").mkdir()  # the home folder exists, ~/.agents does not
    assert not deck.agents_home.exists()
    client = await start_server(profile=VSCODE, command=command)
    await indexed(client)

    mine = deck.user_agents / "mine" / "SKILL.md"
    client.skilldeck_watching.create(mine, "---\nname: mine\n---\n")  # ~/.agents did not exist
    await seen_diagnostics(client, mine, lambda d: codes(d) == ["SD204"])
    await wait_for_name(client, "mine")


@pytest.mark.parametrize("profile", profile_params())
async def test_a_skill_written_by_a_shell_is_seen_in_every_editor(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    deck.write(deck.project_dsh, "anchor")
    deck.write(deck.user_dsh, "home")
    client = await start_server(profile=profile)
    await indexed(client)
    watching = client.skilldeck_watching

    # A new skill folder in an existing root, and an edit of an existing skill, from a
    # shell: Helix reports neither, the others are given nothing.
    fresh = deck.project_dsh / "fresh" / "SKILL.md"
    watching.create(fresh, "---\nname: fresh\n---\n")
    await seen_diagnostics(client, fresh, lambda d: codes(d) == ["SD204"])
    home = deck.user_dsh / "home" / "SKILL.md"
    watching.create(home, "---\nname: Home\ndescription: Mine.\n---\n")
    await seen_diagnostics(client, home, lambda d: "SD203" in codes(d))
    # A root that did not exist.
    late = deck.project_agents / "late" / "SKILL.md"
    watching.create(late, "---\nname: late\n---\n")
    await seen_diagnostics(client, late, lambda d: codes(d) == ["SD204"])
