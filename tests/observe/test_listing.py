"""Reading each host's skills listing out of a recorded request body
(``skilldeck.observe.listing``), on bodies shaped as the releases send them (the
shapes recorded by the host lab, ``tests/hosts/observed/``; built-in skills replaced by
one made-up entry)."""

from __future__ import annotations

import json

import pytest

from skilldeck.observe.listing import NoListing, has_listing, read_listing


def _body(*texts: str) -> str:
    """A chat request whose messages hold ``texts``."""
    return json.dumps({"model": "m", "messages": [{"role": "user", "content": t} for t in texts]})


def test_codex_roots_table_short_paths_and_a_name_only_entry() -> None:
    text = (
        "<skills_instructions>\n## Skills\nA skill is ...\n### Skill roots\n"
        "- `r0` = `/h/.codex/skills/.system`\n- `r1` = `/p/.agents/skills`\n"
        "### Available skills\n"
        "- builtin-one: Made up. (file: r0/builtin-one/SKILL.md)\n"
        "- deploy: Use when: deploying (file: r1/deploy/SKILL.md)\n"
        "- bare (file: r1/bare/SKILL.md)\n"
        "</skills_instructions>"
    )
    listing = read_listing(_body("other", text), "codex")
    assert listing.roots == (("r0", "/h/.codex/skills/.system"), ("r1", "/p/.agents/skills"))
    assert listing.header.endswith("### Skill roots\n{roots}\n### Available skills\n")
    assert listing.footer == "</skills_instructions>"
    assert [(e.name, e.description, e.path) for e in listing.entries] == [
        ("builtin-one", "Made up.", "r0/builtin-one/SKILL.md"),
        ("deploy", "Use when: deploying", "r1/deploy/SKILL.md"),
        ("bare", None, "r1/bare/SKILL.md"),
    ]


def test_claude_code_multi_line_descriptions_and_folder_names() -> None:
    text = (
        "# Environment\n...\nThe following skills are available for use with the Skill tool:\n\n"
        "- literal: First line\nsecond line\n"
        "- folder (name): Plain.\n"
        "- name-only\n\nToday's date is 2026-12-06."
    )
    listing = read_listing(_body(text), "claude")
    assert [(e.name, e.description) for e in listing.entries] == [
        ("literal", "First line\nsecond line"),
        ("folder (name)", "Plain."),
        ("name-only", None),
    ]
    assert listing.footer == "Today's date is"


def test_xml_listing_keeps_escapes_and_locations() -> None:
    text = (
        "Skills provide specialized instructions.\n<available_skills>\n  <skill>\n"
        "    <name>xml</name>\n    <description>Use &lt;b&gt; &amp; more</description>\n"
        "    <location>/p/.agents/skills/xml/SKILL.md</location>\n  </skill>\n"
        "</available_skills>"
    )
    # a tool description that mentions the tag is not the listing
    body = _body("check current <available_skills> first", text)
    listing = read_listing(body, "xml")
    assert [(e.name, e.description, e.path) for e in listing.entries] == [
        ("xml", "Use &lt;b&gt; &amp; more", "/p/.agents/skills/xml/SKILL.md")
    ]
    assert listing.header == "Skills provide specialized instructions.\n<available_skills>\n"


def test_kimi_code_sections_and_path_lines() -> None:
    text = (
        "# Skills\n\n## Available skills\n\nGrouped by scope.\n\n"
        "DISREGARD any earlier skill listings. Current available skills:\n"
        "### Project\n- deploy: Deploys.\n  Path: /p/.agents/skills/deploy/SKILL.md\n"
        "### Built-in\n- made-up: Made up...\n  Path: builtin://made-up\n\n\n"
    )
    listing = read_listing(_body(text), "kimi")
    assert [(e.name, e.description, e.path, e.scope) for e in listing.entries] == [
        ("deploy", "Deploys.", "/p/.agents/skills/deploy/SKILL.md", "Project"),
        ("made-up", "Made up...", "builtin://made-up", "Built-in"),
    ]


def test_a_request_without_the_listing() -> None:
    body = _body("a routing call: which model should answer?")
    assert not has_listing(body, "xml")
    with pytest.raises(NoListing):
        read_listing(body, "xml")
