"""``skilldeck mcp`` over stdio with the MCP SDK's own client, in both protocol eras:
what a host sees (instructions, tool, prompts) equals what ``skilldeck catalog`` and
``skilldeck load`` print, and refusals are clear errors after which the server serves on."""

from __future__ import annotations

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from mcp_client_helpers import skills_list

from skilldeck.engine.model_view._skill_tool import skill_tool_schema

#: name -> is the tool's answer an error? (one of each of the tool's outcomes)
TOOL_CASES = {
    "code-review": False,  # success (a bundle)
    "commit-message": False,  # success (a flat file)
    "style-guide": False,  # user-invocable: false does not restrict the tool
    "Not_Kebab": True,  # invalid-name
    "no-such-skill": True,  # unknown-skill
    "deploy": True,  # not-model-invocable (disable-model-invocation)
}


def _cli_views(cli, project):
    """``skilldeck catalog`` and ``skilldeck load NAME`` for each case, run at once."""
    catalog, *loads = cli(
        ("catalog", "--cwd", str(project)),
        *(("load", name, "--cwd", str(project)) for name in TOOL_CASES),
    )
    assert catalog.returncode == 0, catalog.stderr
    return catalog.stdout, dict(zip(TOOL_CASES, loads, strict=True))


async def _assert_tool_matches_load(client, loads):
    for name, is_error in TOOL_CASES.items():
        result = await client.call_tool("skill", {"name": name})
        assert result.is_error is is_error, name
        assert [content.type for content in result.content] == ["text"]
        assert result.content[0].text + "\n" == loads[name].stdout, name
        assert loads[name].returncode == (1 if is_error else 0), name
    for arguments, shown in (({}, "no name"), ({"name": 7}, "a value of type int")):
        result = await client.call_tool("skill", arguments)
        assert result.is_error
        assert result.content[0].text.startswith(f"Error: invalid skill name: got {shown}.")


async def test_handshake_era_serves_catalog_tool_and_prompts(connect, cli, project):
    catalog, loads = _cli_views(cli, project)
    assert 'Error: skill "deploy" is not available for model invocation' in loads["deploy"].stdout

    async with connect("legacy") as client:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info is not None and client.server_info.name == "skilldeck"
        assert client.instructions is not None and client.instructions + "\n" == catalog
        assert "`deploy`" not in client.instructions  # not model-invocable: not listed
        capabilities = client.server_capabilities
        assert capabilities.tools is not None and capabilities.tools.list_changed
        assert capabilities.prompts is not None and capabilities.prompts.list_changed
        assert capabilities.resources is not None and capabilities.resources.list_changed
        assert not capabilities.extensions  # the Skills extension is a 2026-07-28 one

        tools = (await client.list_tools()).tools
        schema = skill_tool_schema()
        assert [(tool.name, tool.description) for tool in tools] == [
            ("skill", schema["description"])
        ]
        assert tools[0].input_schema == schema["parameters"]
        await _assert_tool_matches_load(client, loads)

        prompts = {prompt.name: prompt for prompt in (await client.list_prompts()).prompts}
        # user-invocable skills (deploy too: prompts are its only way in); not style-guide
        assert sorted(prompts) == ["code-review", "commit-message", "deploy", "skills_catalog"]
        assert prompts["code-review"].description == "Review a change."
        review = await client.get_prompt("code-review")
        assert [message.role for message in review.messages] == ["user"]
        assert review.messages[0].content.text + "\n" == loads["code-review"].stdout
        deploy = (await client.get_prompt("deploy")).messages[0].content.text
        assert deploy.startswith('<skill_content name="deploy">')
        assert "Body of deploy." in deploy
        catalog_prompt = await client.get_prompt("skills_catalog")
        assert catalog_prompt.messages[0].content.text == client.instructions

        for name in ("style-guide", "no-such-skill", "../etc", ""):
            with pytest.raises(MCPError, match="no skill the user can invoke has this name"):
                await client.get_prompt(name)
        with pytest.raises(MCPError, match="Unknown tool: 'shell'"):
            await client.call_tool("shell", {"command": "ls"})
        with pytest.raises(MCPError, match="Invalid cursor: 'abc'"):
            await client.session.list_prompts(params=types.PaginatedRequestParams(cursor="abc"))
        with pytest.raises(MCPError, match="Method not found: skills/list"):
            await skills_list(client)
        # the server keeps serving after every refusal
        result = await client.call_tool("skill", {"name": "commit-message"})
        assert result.content[0].text + "\n" == loads["commit-message"].stdout


async def test_discover_era_serves_the_same_tool_and_catalog(connect, cli, project):
    catalog, loads = _cli_views(cli, project)

    async with connect("auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert client.instructions is not None and client.instructions + "\n" == catalog
        capabilities = client.server_capabilities
        assert capabilities.extensions == {"io.modelcontextprotocol/skills": {}}
        assert capabilities.tools is not None and capabilities.prompts is not None
        await _assert_tool_matches_load(client, loads)
        prompts = [prompt.name for prompt in (await client.list_prompts()).prompts]
        assert prompts == ["skills_catalog", "code-review", "commit-message", "deploy"]
