"""A live deck: editing a skill file tells connected clients that tools, prompts and
resources changed, and what they read next is the new deck."""

from __future__ import annotations

import anyio
from mcp_client_helpers import skill_text, write


async def test_list_changed_notifications_follow_a_file_edit(connect, project):
    methods: list[str] = []
    arrived = anyio.Event()

    async def on_message(message):
        method = getattr(getattr(message, "root", message), "method", None)
        if isinstance(method, str):
            methods.append(method)
            if method.endswith("list_changed") and len(methods) >= 3:
                arrived.set()

    async with connect("legacy", message_handler=on_message) as client:
        before = {
            prompt.name: prompt.description for prompt in (await client.list_prompts()).prompts
        }
        assert before["code-review"] == "Review a change."

        write(
            project / ".dsh" / "skills" / "code-review" / "SKILL.md",
            skill_text("code-review", "Review a change, tests first."),
        )
        write(project / ".dsh" / "skills" / "triage" / "SKILL.md", skill_text("triage"))
        with anyio.fail_after(20):
            await arrived.wait()
        assert sorted(set(methods)) == [
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed",
            "notifications/tools/list_changed",
        ]

        after = {
            prompt.name: prompt.description for prompt in (await client.list_prompts()).prompts
        }
        assert after["code-review"] == "Review a change, tests first."
        assert "triage" in after
        resources = [str(resource.uri) for resource in (await client.list_resources()).resources]
        assert "skill://triage/SKILL.md" in resources
        result = await client.call_tool("skill", {"name": "triage"})
        assert not result.is_error and "Body of triage." in result.content[0].text
        catalog = (await client.get_prompt("skills_catalog")).messages[0].content.text
        assert "- `triage`: Does a thing when asked." in catalog
