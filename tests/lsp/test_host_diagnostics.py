"""``skilldeck.hosts`` in the editor: SD901/SD902 diagnostics equal to ``check``'s, and a
per-agent line in the hover on ``name``; ``skilldeck/hostCatalog`` equal to ``budget`` /
``catalog --host --json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from editing_fixtures import doc_id, open_doc, pos, start_editor
from lsp_harness import Deck, StartServer, codes, diagnostics_of, request, uri
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from test_settings_precedence import as_cli, cli, from_cli, write


def _deck(deck: Deck) -> tuple[Path, Path]:
    flat = deck.write(deck.project_agents, "quick", flat=True)
    long = "Writes release notes. " * 80  # 1,760 characters: over Claude Code's 1,536
    bundle = deck.write(
        deck.project / ".claude" / "skills",
        "notes",
        f"---\nname: notes\ndescription: {long.strip()}\n---\n\nBody.\n",
    )
    return flat, bundle


async def test_host_diagnostics_are_the_checks_and_hover_has_a_line_per_agent(
    deck: Deck, start_server: StartServer
) -> None:
    flat, _ = _deck(deck)
    write(deck.project / "skilldeck.toml", 'hosts = ["dsh", "codex"]\n')
    client = await start_editor(start_server, settings={"hosts": ["dsh", "codex", "opencode"]})
    open_doc(client, flat)

    findings = [
        from_cli(f)
        for f in json.loads(cli(deck, "check", "--format", "json"))
        if f["path"].endswith("quick.md")
    ]
    assert [f["code"] for f in findings] == ["SD901"]  # the file's hosts: dsh and codex
    shown = await diagnostics_of(client, flat, lambda found: len(found) == 2)
    editor = sorted((as_cli(d) for d in shown), key=repr)
    assert editor == sorted(
        [
            *findings,
            {
                "code": "SD901",
                "severity": "information",
                "message": "OpenCode does not load this skill: flat file: OpenCode reads "
                "bundles only (.agents/skills/<name>/SKILL.md) (source: "
                "OpenCode 1.18.33, observed by scripts/host-lab)",
                "range": findings[0]["range"],
            },
        ],
        key=repr,
    )
    assert findings[0]["message"] == (
        "Codex does not load this skill: flat file: Codex reads bundles only "
        "(.agents/skills/<name>/SKILL.md) (source: "
        "Codex 0.171.0, observed by scripts/host-lab)"
    )
    by_code: dict[str, Any] = {d.code: d for d in shown}
    assert by_code["SD901"].code_description.href.endswith("docs/rules.md#sd901-host-does-not-load")

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(flat), position=pos(1, 7))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.endswith(
        "Agents (`skilldeck.hosts`, docs/hosts.md):\n\n"
        "- **DeepSeek Harness** (skilldeck's engine (SPEC.md)): loads (catalog: full)\n"
        "- **Codex** (Codex 0.171.0): does not load: flat file: Codex reads bundles "
        "only (.agents/skills/<name>/SKILL.md)\n"
        "- **OpenCode** (OpenCode 1.18.33): does not load: flat file: OpenCode reads "
        "bundles only (.agents/skills/<name>/SKILL.md)"
    )


async def test_codex_listing_one_name_twice_is_reported_on_both_files(
    deck: Deck, start_server: StartServer
) -> None:
    project = deck.write(deck.project_agents, "deploy", _text("deploy", "Deploys the project."))
    personal = deck.write(deck.user_agents, "deploy", _text("deploy", "Deploys my sandbox."))
    client = await start_editor(start_server, settings={"hosts": ["dsh", "codex"]})
    open_doc(client, project)
    # hosts.md: codex, precedence between same-named skills (every one is listed)
    shown = await diagnostics_of(client, project, lambda found: "SD903" in codes(found))
    twice = [d for d in shown if d.code == "SD903"]
    assert [d.message for d in twice] == [
        f"Codex lists 2 skills named `deploy`; its model sees each as an entry of its own: "
        f"{personal} (source: Codex 0.171.0, observed by scripts/host-lab)"
    ]
    assert twice[0].range.start == types.Position(1, 6)
    related = twice[0].related_information or []
    assert [(r.location.uri, r.message) for r in related] == [
        (uri(personal), "also listed by Codex as 'deploy'")
    ]
    # the CLI says the same, on both files, once the user's folder is checked too
    checked = json.loads(
        cli(deck, "check", "--host", "codex", "--include-user-roots", "--format", "json")
    )
    assert sorted(f["path"] for f in checked if f["code"] == "SD903") == sorted(
        [".agents/skills/deploy/SKILL.md", str(personal)]
    )
    # and reports it when it is the only rule selected (its pass runs for it alone)
    selected = json.loads(
        cli(
            deck, "check", "--host", "codex", "--include-user-roots", "--select", "SD903",
            "--format", "json",
        )
    )  # fmt: skip
    assert sorted((f["path"], f["code"]) for f in selected) == sorted(
        [(".agents/skills/deploy/SKILL.md", "SD903"), (str(personal), "SD903")]
    )
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(project), position=pos(1, 7))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert (
        "- **Codex** (Codex 0.171.0): loads (catalog: full); the model also sees "
        f"another entry named 'deploy': {personal}" in hover.contents.value
    )


def _text(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\nBody.\n"


async def test_without_hosts_nothing_changes(deck: Deck, start_server: StartServer) -> None:
    flat, _ = _deck(deck)
    client = await start_editor(start_server)
    open_doc(client, flat)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(flat), position=pos(1, 7))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "Agents (" not in hover.contents.value


async def test_a_file_changed_on_disk_gets_the_hosts_verdict(
    deck: Deck, start_server: StartServer
) -> None:
    first = deck.write(deck.project_agents, "first")
    client = await start_editor(
        start_server, settings={"hosts": ["dsh", "codex"], "includeUserRoots": False}
    )
    long = "x" * 1100
    first.write_text(f"---\nname: first\ndescription: {long}\n---\n", encoding="utf-8")
    # The file's own findings come at once (SD501: too long for DSH's catalog); the
    # hosts' verdict follows when the burst of disk events is over.
    shown = await diagnostics_of(client, first, lambda found: "SD902" in codes(found))
    # Codex 0.171.0 cuts a description past 1,024 characters (observed: y-desc-1100)
    assert [d.message for d in shown if d.code == "SD902"] == [
        "Codex's skill listing cuts this skill's entry to 1024 characters "
        "(source: Codex 0.171.0, observed by scripts/host-lab)"
    ]


async def test_host_catalog_request_is_the_clis_budget_and_listing(
    deck: Deck, start_server: StartServer
) -> None:
    for number in range(10):
        name = f"skill-{number}"
        deck.write(
            deck.project_agents, name, f"---\nname: {name}\ndescription: {'d' * 1000}\n---\n"
        )
    deck.write(deck.project_agents, "flat", flat=True)
    client = await start_editor(start_server)

    answer = await request(
        client, "skilldeck/hostCatalog", {"uri": uri(deck.project), "host": "codex"}
    )
    assert answer["budget"] == json.loads(cli(deck, "budget", "--host", "codex", "--json"))
    listing = json.loads(cli(deck, "catalog", "--host", "codex", "--json"))
    assert answer["entries"] == listing["entries"]
    # 2 % of Codex's 272,000-token window, counted in tokens; ten entries of 1,000
    # characters fit whole
    assert answer["budget"]["budgetTokens"] == 5440
    assert {e["state"] for e in answer["budget"]["entries"]} == {"full"}
    assert (answer["host"], answer["label"], answer["complete"]) == ("codex", "Codex", True)

    small = await request(
        client,
        "skilldeck/hostCatalog",
        {"uri": uri(deck.project), "host": "codex", "contextTokens": 100},
    )
    assert small["budget"] == json.loads(
        cli(deck, "budget", "--host", "codex", "--context", "100", "--json")
    )
    with pytest.raises(JsonRpcException, match="'host' must be one of: dsh, claude-code"):
        await request(client, "skilldeck/hostCatalog", {"uri": uri(deck.project), "host": "x"})
    with pytest.raises(JsonRpcException, match="'contextTokens' must be a positive integer"):
        await request(
            client,
            "skilldeck/hostCatalog",
            {"uri": uri(deck.project), "host": "codex", "contextTokens": 0},
        )


async def test_the_skills_view_carries_each_agents_verdict(
    deck: Deck, start_server: StartServer
) -> None:
    flat, _ = _deck(deck)
    bundle = deck.write(deck.project_agents, "tidy")
    client = await start_editor(start_server, settings={"hosts": ["dsh", "codex"]})
    await diagnostics_of(client, flat, lambda found: "SD901" in codes(found))

    result = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    skills = {
        skill["uri"]: skill for root in result["folders"][0]["roots"] for skill in root["skills"]
    }
    assert skills[uri(flat)]["hosts"]["codex"] == {"loads": False, "catalog": None}
    assert skills[uri(flat)]["hosts"]["dsh"] == {"loads": True, "catalog": "full"}
    assert skills[uri(bundle)]["hosts"]["codex"] == {"loads": True, "catalog": "full"}


async def test_a_nested_copy_codex_loads_gets_check_s_sd903_in_the_editor(
    deck: Deck, start_server: StartServer
) -> None:
    # Codex searches below a root: a SKILL.md nested in a folder is no skill of the deck
    # (SD007) but Codex lists it beside the other 'deploy' (SD903 on both), as check says.
    top = deck.write(deck.project_agents, "deploy")
    nested = deck.write(
        deck.project_agents / "grp",
        "deploy",
        "---\nname: deploy\ndescription: Deploy to staging.\n---\n\nBody.\n",
    )
    write(deck.project / "skilldeck.toml", 'hosts = ["dsh", "codex"]\n')
    expected = {
        path: sorted(
            (from_cli(f) for f in json.loads(cli(deck, "check", "--format", "json"))
             if Path(deck.project, f["path"]) == path),
            key=repr,
        )
        for path in (top, nested)
    }  # fmt: skip
    assert [f["code"] for f in expected[nested]] == ["SD007", "SD903"]
    client = await start_editor(start_server)
    open_doc(client, nested)
    shown = await diagnostics_of(client, nested, lambda found: len(found) == 2)
    assert sorted((as_cli(d) for d in shown), key=repr) == expected[nested]


async def test_context_tokens_from_the_editor_reach_sd902_as_the_config_file_does(
    deck: Deck, start_server: StartServer
) -> None:
    bundle = deck.write(
        deck.project_agents,
        "pdf-forms",
        "---\nname: pdf-forms\ndescription: Fills PDF forms "
        "from structured data when asked.\n---\n\nBody.\n",
    )
    # The same window from skilldeck.toml: what check reports with it.
    write(
        deck.project / "skilldeck.toml",
        'hosts = ["dsh", "codex"]\n\n[context-tokens]\ncodex = 5000\n',
    )
    expected = [from_cli(f) for f in json.loads(cli(deck, "check", "--format", "json"))]
    assert [f["code"] for f in expected] == ["SD902"]
    write(deck.project / "skilldeck.toml", 'hosts = ["dsh", "codex"]\n')
    assert json.loads(cli(deck, "check", "--format", "json")) == []

    client = await start_editor(
        start_server, settings={"hosts": ["dsh", "codex"], "contextTokens": {"codex": 5000}}
    )
    open_doc(client, bundle)
    shown = await diagnostics_of(client, bundle, lambda found: len(found) == 1)
    assert [as_cli(d) for d in shown] == expected
    listing = await request(
        client, "skilldeck/hostCatalog", {"uri": uri(deck.project), "host": "codex"}
    )
    assert (listing["budget"]["contextTokens"], listing["budget"]["budgetTokens"]) == (5000, 100)
