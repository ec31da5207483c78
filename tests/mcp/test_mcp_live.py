"""A live deck: editing a skill file tells connected clients that tools, prompts and
resources changed, and what they read next is the new deck."""

from __future__ import annotations

import hashlib

import anyio
from mcp_client_helpers import HANG_S, refused_read, skill_text, skills_get, skills_list, write


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
        with anyio.fail_after(HANG_S):
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


async def test_an_edit_right_after_the_first_answer_is_announced(connect, project):
    """The root watches go live only after the first answer (docs/mcp.md, *Start*): an
    edit made at once, before they are live, is still announced and served."""
    arrived = anyio.Event()

    async def on_message(message):
        method = getattr(getattr(message, "root", message), "method", None)
        if method == "notifications/prompts/list_changed":
            arrived.set()

    async with connect("legacy", message_handler=on_message) as client:
        write(
            project / ".dsh" / "skills" / "code-review" / "SKILL.md",
            skill_text("code-review", "Review a change, tests first."),
        )
        with anyio.fail_after(HANG_S):
            await arrived.wait()
        prompts = {
            prompt.name: prompt.description for prompt in (await client.list_prompts()).prompts
        }
        assert prompts["code-review"] == "Review a change, tests first."


async def test_the_discover_era_hears_of_changes_on_subscriptions_listen(connect, project):
    async with connect("auto") as client:
        before = await skills_get(client, "skill://code-review/SKILL.md")
        assert before["skill"]["frontmatter"]["description"] == "Review a change."
        async with client.listen(
            tools_list_changed=True, prompts_list_changed=True, resources_list_changed=True
        ) as subscription:
            write(
                project / ".dsh" / "skills" / "code-review" / "SKILL.md",
                skill_text("code-review", "Review a change, tests first."),
            )
            kinds: set[str] = set()
            with anyio.fail_after(HANG_S):
                async for event in subscription:
                    kinds.add(type(event).__name__)
                    if len(kinds) == 3:
                        break
        assert kinds == {"ToolsListChanged", "PromptsListChanged", "ResourcesListChanged"}
        after = await skills_get(client, "skill://code-review/SKILL.md")
        assert after["skill"]["frontmatter"]["description"] == "Review a change, tests first."
        digest = after["skill"]["resources"][0]["digest"]
        assert digest != before["skill"]["resources"][0]["digest"]


async def test_an_edited_resource_file_gets_a_new_digest(connect, project):
    """A file edited after its manifest was built is refused (its bytes are not the ones
    the manifest attests), the clients hear that resources changed, and the skill's next
    entry carries the new digest, which a read then serves."""
    checklist = project / ".dsh" / "skills" / "code-review" / "checklist.md"
    uri = "skill://code-review/checklist.md"

    def digest_of(entry, name):
        uri = f"skill://code-review/{name}"
        return next(item for item in entry["resources"] if item["uri"] == uri)["digest"]

    async with connect("auto") as client:
        listed = await skills_list(client)  # builds (and keeps) the manifests
        old = digest_of(listed["skills"][0], "checklist.md")
        # The root watcher reports SKILL.md files only: this edit is not announced.
        write(checklist, "# Checklist\n\n- tests first\n- then the API\n")
        async with client.listen(resources_list_changed=True) as subscription:
            assert await refused_read(client, uri) == (
                f"Resource changed: {uri}: its bytes no longer match the digest its skill "
                "listed; read the skill's entry again (skills/get)"
            )
            with anyio.fail_after(HANG_S):
                event = await subscription.__anext__()  # the read found the manifest stale
            assert type(event).__name__ == "ResourcesListChanged"
        fresh = "sha256:" + hashlib.sha256(checklist.read_bytes()).hexdigest()
        assert fresh != old
        got = await skills_get(client, "skill://code-review/SKILL.md")
        assert digest_of(got["skill"], "checklist.md") == fresh
        relisted = await skills_list(client)
        assert digest_of(relisted["skills"][0], "checklist.md") == fresh
        read = await client.read_resource(uri)
        assert read.contents[0].text == "# Checklist\n\n- tests first\n- then the API\n"
