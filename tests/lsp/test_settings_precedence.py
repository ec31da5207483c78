"""Editor settings the user did not set never hide the project's config file (issue #16.2).

The project's ``skilldeck.toml`` sets every setting the editor mirrors that a file can
hold (profile, custom dirs, bundled dir, catalog cap, rules). The client answers
``workspace/configuration`` with only some keys (what the extension sends: values the
user set, never defaults). Diagnostics, the description hover and the catalog must then
equal what ``skilldeck check`` / ``skilldeck catalog`` print for the same project, and
the hover must say where the cap came from.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from editing_fixtures import doc_id, open_doc, pos, start_editor
from lsp_harness import Deck, StartServer, diagnostics_of, request, uri
from lsprotocol import types

LONG = "Use this skill when you need to " + "do a very long thing " * 15
CONFIG = (
    'profile = "agentskills"\n'
    'custom-skill-dirs = ["team"]\n'
    'bundled-skill-dir = "bundled"\n'
    "bundled-skills = true\n"
    "catalog-description-max-length = 200\n"
    "[rules]\n"
    'SD605 = "warning"\n'
)
SEVERITY = {
    types.DiagnosticSeverity.Error: "error",
    types.DiagnosticSeverity.Warning: "warning",
    types.DiagnosticSeverity.Information: "information",
    types.DiagnosticSeverity.Hint: "hint",
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def cli(deck: Deck, *args: str) -> str:
    env = {k: v for k, v in deck.env().items() if not k.startswith("SKILLDECK_")}
    env["SKILLDECK_CACHE_DIR"] = str(deck.base / "cache")
    env["NO_COLOR"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "skilldeck", *args],
        cwd=deck.project,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def as_cli(diagnostic: types.Diagnostic) -> dict[str, Any]:
    start, end = diagnostic.range.start, diagnostic.range.end
    assert diagnostic.severity is not None
    return {
        "code": str(diagnostic.code),
        "severity": SEVERITY[diagnostic.severity],
        "message": diagnostic.message,
        "range": [start.line, start.character, end.line, end.character],
    }


def from_cli(finding: dict[str, Any]) -> dict[str, Any]:
    start, end = finding["range"]["start"], finding["range"]["end"]
    return {
        "code": finding["code"],
        "severity": finding["severity"],
        "message": finding["message"],
        "range": [start["line"], start["character"], end["line"], end["character"]],
    }


@pytest.mark.parametrize(
    ("settings", "flags"),
    [
        ({}, []),
        ({"includeUserRoots": False, "dshHome": None}, []),
        ({"profile": "claude-code"}, ["--profile", "claude-code"]),
        (
            {"customSkillDirs": ["more"], "bundledSkillDir": "more-b"},
            ["--custom-skill-dir", "more", "--bundled-skill-dir", "more-b"],
        ),
    ],
    ids=["nothing-set", "unrelated-keys-set", "profile-set", "dirs-set"],
)
async def test_only_user_set_settings_override_the_project_file(
    deck: Deck, start_server: StartServer, settings: dict[str, Any], flags: list[str]
) -> None:
    write(deck.project / "skilldeck.toml", CONFIG)
    text = f"---\nname: longdesc\ndescription: {LONG}\nx-vendor: 1\n---\n"
    long = deck.write(deck.project_dsh, "longdesc", text)
    write(deck.project / "team" / "tm" / "SKILL.md", "---\nname: tm\ndescription: Team.\n---\n")
    write(deck.project / "bundled" / "bb" / "SKILL.md", "---\nname: bb\ndescription: B.\n---\n")
    write(deck.project / "more" / "mo" / "SKILL.md", "---\nname: mo\ndescription: More.\n---\n")
    write(deck.project / "more-b" / "ab" / "SKILL.md", "---\nname: ab\ndescription: A.\n---\n")

    client = await start_editor(start_server, settings=settings)
    open_doc(client, long)

    findings = [from_cli(f) for f in json.loads(cli(deck, "check", "--format", "json", *flags))]
    assert any("/200 characters; the catalog cuts it after" in f["message"] for f in findings)
    shown = await diagnostics_of(client, long, lambda found: len(found) == len(findings))
    assert sorted(map(as_cli, shown), key=repr) == sorted(findings, key=repr)

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(long), position=pos(2, 20))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith(
        f"**Catalog length:** {len(LONG.strip())} of 200 characters "
        "(whitespace collapsed; limit 200 from `skilldeck.toml`)"
    )

    key = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(long), position=pos(1, 2))
    )
    assert key is not None and isinstance(key.contents, types.MarkupContent)
    profile = settings.get("profile")
    assert key.contents.value.endswith(
        f"Profile: `{profile}` (from editor setting `skilldeck.profile`)"
        if profile
        else "Profile: `agentskills` (from `skilldeck.toml`)"
    )

    catalog = await request(client, "skilldeck/catalog", {"uri": uri(deck.project)})
    assert catalog["text"].rstrip("\n") == cli(deck, "catalog", *flags).rstrip("\n")
    names = [e["name"] for e in catalog["entries"]]
    dirs_set = "--custom-skill-dir" in flags
    assert names == (
        ["ab", "longdesc", "mo", "skill-authoring"]
        if dirs_set
        else ["bb", "longdesc", "skill-authoring", "tm"]
    )


async def test_hover_names_the_editor_setting_that_overrides_the_file(
    deck: Deck, start_server: StartServer
) -> None:
    write(deck.project / "skilldeck.toml", CONFIG)
    long = deck.write(
        deck.project_dsh, "longdesc", f"---\nname: longdesc\ndescription: {LONG}\n---\n"
    )
    client = await start_editor(start_server, settings={"catalogDescriptionMaxLength": 120})
    open_doc(client, long)

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(long), position=pos(2, 20))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith(
        f"**Catalog length:** {len(LONG.strip())} of 120 characters (whitespace collapsed; "
        "limit 120 from editor setting `skilldeck.catalogDescriptionMaxLength`)"
    )


async def test_a_project_skill_shadows_the_bundled_one_as_in_the_cli(
    deck: Deck, start_server: StartServer
) -> None:
    write(deck.project / "skilldeck.toml", "bundled-skills = true\n")
    own = "---\nname: skill-authoring\ndescription: Our own way.\n---\n"
    deck.write(deck.project_dsh, "skill-authoring", own)
    client = await start_editor(start_server)

    catalog = await request(client, "skilldeck/catalog", {"uri": uri(deck.project)})

    assert catalog["entries"] == [{"name": "skill-authoring", "description": "Our own way."}]
    assert catalog["text"].rstrip("\n") == cli(deck, "catalog").rstrip("\n")
