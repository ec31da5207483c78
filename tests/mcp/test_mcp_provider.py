"""A ``--provider`` provider's skills reach ``skilldeck mcp`` as they reach ``load`` and
``catalog``: tool, instructions, prompts, and the Skills extension with a ``SKILL.md``
synthesized from the provider's definition (no file on disk)."""

from __future__ import annotations

import hashlib

import pytest
from mcp.shared.exceptions import MCPError
from mcp_client_helpers import skills_get, skills_list, write

PROVIDER_MODULE = """
from skilldeck.engine.registry._model import SkillCandidate, SkillDefinition

class TeamProvider:
    name = "team-server"

    async def list(self, options):
        return [
            SkillCandidate(name="remote-helper", description="Served by the team.",
                           source="remote", provider="team-server", rank=250),
            SkillCandidate(name="remote-notes", description='Notes: "quoted", ünïcode',
                           source="remote", provider="team-server", rank=250,
                           when_to_use="When notes are due."),
        ]

    async def get(self, candidate, options):
        if candidate.name == "remote-notes":
            return SkillDefinition(
                name=candidate.name, description=candidate.description,
                source=candidate.source, provider=candidate.provider,
                when_to_use=candidate.when_to_use, metadata={"owner": "team", "tier": 2},
                content="# Notes\\n\\n---\\nNot frontmatter: a rule.\\n",
            )
        return SkillDefinition(name=candidate.name, description=candidate.description,
                               source=candidate.source, provider=candidate.provider,
                               content="Served remotely.")

def factory(control):
    return TeamProvider()
"""


async def test_a_provider_skill_reaches_tool_prompts_and_instructions(
    connect, cli, project, environment, tmp_path
):
    write(tmp_path / "modules" / "team_provider.py", PROVIDER_MODULE)
    environment["PYTHONPATH"] = str(tmp_path / "modules")
    flag = ("--provider", "team_provider:factory")
    catalog, load = cli(
        ("catalog", "--cwd", str(project), *flag),
        ("load", "remote-helper", "--cwd", str(project), *flag),
    )
    assert "- `remote-helper`: Served by the team." in catalog.stdout

    async with connect("auto", *flag) as client:
        assert client.instructions + "\n" == catalog.stdout
        result = await client.call_tool("skill", {"name": "remote-helper"})
        assert result.content[0].text + "\n" == load.stdout
        assert "Served remotely." in load.stdout
        prompt = await client.get_prompt("remote-helper")
        assert prompt.messages[0].content.text + "\n" == load.stdout


async def test_a_provider_skill_is_served_as_a_synthesized_skill_md(
    connect, cli, project, environment, tmp_path
):
    write(tmp_path / "modules" / "team_provider.py", PROVIDER_MODULE)
    environment["PYTHONPATH"] = str(tmp_path / "modules")
    flag = ("--provider", "team_provider:factory")
    (load,) = cli(("load", "remote-notes", "--cwd", str(project), *flag))
    instructions = load.stdout.split("<skill_instructions>\n", 1)[1].split(
        "\n</skill_instructions>", 1
    )[0]

    async with connect("auto", *flag) as client:
        entries = {entry["uri"]: entry for entry in (await skills_list(client))["skills"]}
        entry = entries["skill://remote-notes/SKILL.md"]
        assert entry["frontmatter"] == {
            "name": "remote-notes",
            "description": 'Notes: "quoted", ünïcode',
            "whenToUse": "When notes are due.",
            "metadata": {"owner": "team", "tier": 2},
        }
        read = (await client.read_resource("skill://remote-notes/SKILL.md")).contents[0]
        assert read.mime_type == "text/markdown"
        data = read.text.encode("utf-8")
        assert entry["resources"] == [
            {
                "uri": "skill://remote-notes/SKILL.md",
                "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
                "size": len(data),
            }
        ]
        # the file: that frontmatter, then the body `skilldeck load` prints
        assert read.text == (
            "---\n"
            'name: "remote-notes"\n'
            'description: "Notes: \\"quoted\\", ünïcode"\n'
            'whenToUse: "When notes are due."\n'
            'metadata: {"owner": "team", "tier": 2}\n'
            "---\n\n" + instructions.removesuffix("\n") + "\n"
        )
        assert (await skills_get(client, entry["uri"]))["skill"] == entry
        helper = entries["skill://remote-helper/SKILL.md"]
        assert helper["frontmatter"] == {
            "name": "remote-helper",
            "description": "Served by the team.",
        }
        resources = await client.list_resources()
        assert "skill://remote-notes/SKILL.md" in [str(r.uri) for r in resources.resources]


ODD_PROVIDER_MODULE = """
from skilldeck.engine.registry._model import SkillCandidate, SkillDefinition

DESCRIPTION = "Next line\\x85inside"

class OddProvider:
    name = "odd-server"

    async def list(self, options):
        return [SkillCandidate(name="odd-skill", description=DESCRIPTION,
                               source="remote", provider="odd-server", rank=250)]

    async def get(self, candidate, options):
        return SkillDefinition(name=candidate.name, description=DESCRIPTION,
                               source=candidate.source, provider=candidate.provider,
                               content="Odd body.")

def factory(control):
    return OddProvider()
"""


async def test_a_definition_no_skill_md_can_carry_gets_no_entry(
    connect, project, environment, tmp_path
):
    # U+0085 is a line break to YAML: no frontmatter scalar reads it back as written
    write(tmp_path / "modules" / "odd_provider.py", ODD_PROVIDER_MODULE)
    environment["PYTHONPATH"] = str(tmp_path / "modules")
    async with connect("auto", "--provider", "odd_provider:factory") as client:
        uris = [entry["uri"] for entry in (await skills_list(client))["skills"]]
        assert "skill://odd-skill/SKILL.md" not in uris
        assert "skill://code-review/SKILL.md" in uris
        with pytest.raises(MCPError) as refused:
            await skills_get(client, "skill://odd-skill/SKILL.md")
        assert refused.value.error.code == -32602
        assert "cannot be written as the frontmatter of a SKILL.md" in refused.value.error.message
        result = await client.call_tool("skill", {"name": "odd-skill"})
        assert not result.is_error and "Odd body." in result.content[0].text
