"""A ``--provider`` provider's skills reach ``skilldeck mcp`` as they reach ``load`` and
``catalog``: tool, instructions, prompts (not the Skills extension: no file to serve)."""

from __future__ import annotations

from mcp_client_helpers import skills_list, write

PROVIDER_MODULE = """
from skilldeck.engine.model import SkillCandidate, SkillDefinition

class TeamProvider:
    name = "team-server"

    async def list(self, options):
        return [SkillCandidate(name="remote-helper", description="Served by the team.",
                               source="remote", provider="team-server", rank=250)]

    async def get(self, candidate, options):
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
        listed = await skills_list(client)
        assert "skill://remote-helper/SKILL.md" not in [entry["uri"] for entry in listed["skills"]]
