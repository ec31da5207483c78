"""The Skills extension (``io.modelcontextprotocol/skills``, SEP-2640) and ``skill://``
resources, through the SDK client at protocol 2026-07-28: manifests with size and
sha256, files read back byte for byte, and nothing outside a skill's folder served."""

from __future__ import annotations

import base64
import datetime
import hashlib
import os
import tempfile
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp_client_helpers import refused_read, skill_text, skills_get, skills_list, write
from ruamel.yaml import YAML


def _manifest(folder, names):
    return [
        {
            "uri": f"skill://{folder.name}/{name}",
            "digest": "sha256:" + hashlib.sha256((folder / name).read_bytes()).hexdigest(),
            "size": (folder / name).stat().st_size,
        }
        for name in names
    ]


async def test_skills_list_get_and_read_serve_each_skill_folder(connect, project):
    skills = project / ".dsh" / "skills"
    review = skills / "code-review"
    os.mkfifo(review / "pipe")  # never opened, never listed
    with open(review / "big.bin", "wb") as big:  # 9 MiB (sparse): within the 16 MiB limit
        big.truncate(9 * 1024 * 1024)
    # a nested skill's files are files of the enclosing skill too (completeness)
    write(review / "nested" / "SKILL.md", "---\nname: nested\ndescription: x\n---\n")
    write(review / ".git" / "config", "[core]\n")

    async with connect("auto") as client:
        listed = await skills_list(client)
        assert "nextCursor" not in listed
        entries = {entry["uri"]: entry for entry in listed["skills"]}
        # model-visible skills only: deploy (disable-model-invocation) is not served
        assert list(entries) == [
            "skill://code-review/SKILL.md",
            "skill://commit-message/SKILL.md",
            "skill://style-guide/SKILL.md",
        ]
        entry = entries["skill://code-review/SKILL.md"]
        assert entry["frontmatter"] == {"name": "code-review", "description": "Review a change."}
        assert entry["resources"] == _manifest(
            review,
            [
                *("SKILL.md", "big.bin", "checklist.md", "logo.png"),
                *("nested/SKILL.md", "scripts/run.sh"),
            ],
        )
        assert entries["skill://style-guide/SKILL.md"]["frontmatter"]["user-invocable"] is False
        flat = entries["skill://commit-message/SKILL.md"]["resources"]
        data = (skills / "commit-message.md").read_bytes()
        assert flat == [
            {
                "uri": "skill://commit-message/SKILL.md",
                "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
                "size": len(data),
            }
        ]

        got = await skills_get(client, "skill://code-review/SKILL.md")
        assert got["skill"] == entry

        skill_md = (await client.read_resource("skill://code-review/SKILL.md")).contents[0]
        assert skill_md.mime_type == "text/markdown"
        assert skill_md.text == (review / "SKILL.md").read_text(encoding="utf-8")
        script = (await client.read_resource("skill://code-review/scripts/run.sh")).contents[0]
        assert script.text == "#!/bin/sh\necho review\n"
        logo = (await client.read_resource("skill://code-review/logo.png")).contents[0]
        assert logo.mime_type == "image/png"
        assert base64.b64decode(logo.blob) == (review / "logo.png").read_bytes()
        flat_md = (await client.read_resource("skill://commit-message/SKILL.md")).contents[0]
        assert flat_md.text == data.decode("utf-8")

        resources = (await client.list_resources()).resources
        assert [str(resource.uri) for resource in resources] == list(entries)
        templates = (await client.list_resource_templates()).resource_templates
        assert [template.uri_template for template in templates] == ["skill://{name}/{+path}"]


async def test_files_outside_a_skill_and_unknown_skills_are_refused(connect, project):
    skills = project / ".dsh" / "skills"
    write(skills / "code-review" / ".git" / "config", "[core]\n")
    refused_reads = [
        "skill://code-review/.env",  # hidden
        "skill://code-review/.git/config",  # VCS folder
        "skill://code-review/escape.txt",  # symlink out of the folder
        "skill://code-review/../deploy/SKILL.md",  # ..
        "skill://code-review/%2e%2e/deploy/SKILL.md",  # encoded ..
        "skill://code-review/scripts/..%2f..%2fSKILL.md",
        "skill://code-review/",  # the folder itself
        "skill://deploy/SKILL.md",  # not model-visible
        "skill://no-such-skill/SKILL.md",
        "skill://Bad_Name/SKILL.md",
        "skill://commit-message/skill-of-another.md",  # a flat skill serves its file only
        "file:///etc/passwd",
    ]
    write(skills / "skill-of-another.md", "---\nname: skill-of-another\ndescription: x\n---\n")

    async with connect("auto") as client:
        for uri in refused_reads:
            with pytest.raises(MCPError, match="Resource not found") as refused:
                await client.read_resource(uri)
            assert uri.split("://")[0] in str(refused.value), uri
        for uri, reason in (
            ("skill://deploy/SKILL.md", "no skill named 'deploy' is served"),
            ("skill://no-such-skill/SKILL.md", "no skill named 'no-such-skill' is served"),
            ("skill://code-review/checklist.md", "not the URI of a SKILL.md"),
            ("https://example.com/SKILL.md", "not a skill:// URI"),
        ):
            with pytest.raises(MCPError, match="Unknown skill URI") as unknown:
                await skills_get(client, uri)
            assert reason in str(unknown.value)
        with pytest.raises(MCPError, match="Invalid cursor"):
            await skills_list(client, cursor="-1")
        # still serving
        assert (await client.read_resource("skill://code-review/checklist.md")).contents


async def test_skills_results_carry_result_type_and_cache_fields(connect, project):
    """ext-skills ``specification/stable/skills.mdx``: ``ListSkillsResult`` and
    ``GetSkillResult`` set ``resultType`` to ``"complete"`` and, being cacheable results,
    carry the required ``ttlMs`` and ``cacheScope``."""
    async with connect("auto") as client:
        listed = await skills_list(client)
        got = await skills_get(client, "skill://code-review/SKILL.md")
    for result in (listed, got):
        assert result["resultType"] == "complete"
        assert result["ttlMs"] == 0
        assert result["cacheScope"] == "private"
    assert "nextCursor" not in got


async def test_a_skill_over_the_extension_limits_is_not_served_truncated(connect, project):
    """The manifest must be complete, and a skill over 512 files or 16 MiB should not be
    served: such a skill has no entry (and no readable files), with the reason given."""
    skills = project / ".dsh" / "skills"
    many = skills / "many-files"
    write(many / "SKILL.md", "---\nname: many-files\ndescription: Too many files.\n---\n")
    for index in range(512):  # SKILL.md + 512 = 513 files
        write(many / "parts" / f"{index:03}.md", "x\n")
    heavy = skills / "heavy"
    write(heavy / "SKILL.md", "---\nname: heavy\ndescription: Too many bytes.\n---\n")
    for part in ("a.bin", "b.bin"):  # 2 x 8.5 MiB (sparse): over 16 MiB in all
        with open(heavy / part, "wb") as data:
            data.truncate(17 * 512 * 1024)

    async with connect("auto") as client:
        listed = [entry["uri"] for entry in (await skills_list(client))["skills"]]
        assert "skill://many-files/SKILL.md" not in listed
        assert "skill://heavy/SKILL.md" not in listed
        assert "skill://code-review/SKILL.md" in listed
        # resources/list agrees: neither is served through skill:// at all
        resources = [str(resource.uri) for resource in (await client.list_resources()).resources]
        assert "skill://code-review/SKILL.md" in resources
        assert not {"skill://many-files/SKILL.md", "skill://heavy/SKILL.md"} & set(resources)
        for name, limit in (("many-files", "512 files"), ("heavy", "16 MiB")):
            with pytest.raises(MCPError, match="Unknown skill URI") as refused:
                await skills_get(client, f"skill://{name}/SKILL.md")
            assert refused.value.error.code == -32602
            assert f"skill {name!r} exceeds the Skills extension's limit of {limit}" in str(
                refused.value
            )
            with pytest.raises(MCPError, match="exceeds"):
                await client.read_resource(f"skill://{name}/SKILL.md")
        assert (await skills_get(client, "skill://code-review/SKILL.md"))["skill"]


RICH_FRONTMATTER = """\
name: release-notes
description: >-
  Draft release notes
  from merged changes.
license: Apache-2.0
allowed-tools: Read Grep
released: 2026-09-13
metadata:
  owner: docs-team
  version: "2.1"
  tags: [docs, release]
x-custom-key: 7
"""


def _yaml_as_json(value):
    """The JSON rendering a host gives a YAML value (dates as ISO 8601)."""
    if isinstance(value, dict):
        return {str(key): _yaml_as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_yaml_as_json(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def _frontmatter_of(text):
    """The frontmatter block of a SKILL.md, parsed as a host would (YAML 1.2, safe)."""
    block = text.split("---\n", 2)[1]
    return _yaml_as_json(YAML(typ="safe", pure=True).load(block))


async def test_an_entry_carries_the_files_frontmatter_verbatim(connect, project):
    skills = project / ".dsh" / "skills"
    notes = write(
        skills / "release-notes" / "SKILL.md", f"---\n{RICH_FRONTMATTER}---\n\nDraft them.\n"
    )
    # a name that differs from its folder (a warning): the skill is named by its frontmatter
    write(skills / "old-folder" / "SKILL.md", skill_text("renamed-skill", "Renamed."))

    async with connect("auto") as client:
        entries = {entry["uri"]: entry for entry in (await skills_list(client))["skills"]}
        entry = entries["skill://release-notes/SKILL.md"]
        expected = _frontmatter_of(notes.read_text(encoding="utf-8"))
        assert entry["frontmatter"] == expected
        assert entry["frontmatter"] == {
            "name": "release-notes",
            "description": "Draft release notes from merged changes.",
            "license": "Apache-2.0",
            "allowed-tools": "Read Grep",
            "released": "2026-09-13",
            "metadata": {"owner": "docs-team", "version": "2.1", "tags": ["docs", "release"]},
            "x-custom-key": 7,
        }
        assert (await skills_get(client, entry["uri"]))["skill"]["frontmatter"] == expected
        # what a host does before loading: read SKILL.md, check size, digest, frontmatter
        read = (await client.read_resource(entry["uri"])).contents[0]
        data = read.text.encode("utf-8")
        assert data == notes.read_bytes()
        assert entry["resources"][0] == {
            "uri": entry["uri"],
            "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
            "size": len(data),
        }
        assert _frontmatter_of(read.text) == entry["frontmatter"]

        renamed = entries["skill://renamed-skill/SKILL.md"]
        assert renamed["frontmatter"] == {"name": "renamed-skill", "description": "Renamed."}
        assert "skill://old-folder/SKILL.md" not in entries


async def test_a_listed_file_that_becomes_a_symlink_out_is_never_served(connect, project):
    """A file listed by ``skills/list`` and then replaced by a symlink to a file outside
    every root (a pulled hostile commit) is judged again when read: refused, as a fresh
    server refuses it, whether the target's bytes differ or equal the listed ones."""
    review = project / ".dsh" / "skills" / "code-review"
    outside = project.parent / "elsewhere"
    write(outside / "secret.txt", "TOP SECRET, outside every root\n")
    write(outside / "run.sh", (review / "scripts" / "run.sh").read_bytes())

    async with connect("auto") as client:
        listed = await skills_list(client)  # the manifests are built and kept
        entry = next(e for e in listed["skills"] if e["uri"] == "skill://code-review/SKILL.md")
        uris = [resource["uri"] for resource in entry["resources"]]
        assert "skill://code-review/checklist.md" in uris
        assert "skill://code-review/scripts/run.sh" in uris

        for name, target in (("checklist.md", "secret.txt"), ("scripts/run.sh", "run.sh")):
            await skills_list(client)  # the manifest as it is now (the last read dropped it)
            (review / name).unlink()
            (review / name).symlink_to(outside / target)
            uri = f"skill://code-review/{name}"
            # Read before the watcher re-lists the folder, the listed file is judged
            # again and refused; read after, it is no longer served at all. Which comes
            # first depends on the machine's load: both refuse, neither serves a byte.
            assert await refused_read(client, uri) in (
                f"Resource unreadable: {uri}: {name}: "
                "its real path is no longer inside the skill's folder",
                f"Resource not found: {uri}: skill 'code-review' serves no such file",
            )

        got = await skills_get(client, "skill://code-review/SKILL.md")  # as a fresh walk
        uris = [resource["uri"] for resource in got["skill"]["resources"]]
        assert "skill://code-review/checklist.md" not in uris
        assert "skill://code-review/scripts/run.sh" not in uris
        # what is still inside is still served
        assert (await client.read_resource("skill://code-review/logo.png")).contents


async def test_hidden_files_are_not_served_through_a_plainly_named_symlink(connect, project):
    """A skill may ship ``settings.txt -> .env`` or ``gitdir -> .git``: links that stay in
    its folder but lead to the user's local secrets (a token in ``.git/config``). A link
    whose real path passes through a hidden or version-control component is neither
    listed nor read, as the component itself is not; a link to a plain file still is. A
    listed file later replaced by such a link is refused when read, even when the hidden
    file holds the very bytes the manifest attests."""
    review = project / ".dsh" / "skills" / "code-review"
    write(review / ".git" / "config", '[remote "origin"]\n\turl = https://u:TOKEN@x.example\n')
    write(review / "node_modules" / "lib.js", "module.exports = 1;\n")
    (review / "settings.txt").symlink_to(".env")
    (review / "gitdir").symlink_to(".git", target_is_directory=True)
    (review / "modules").symlink_to("node_modules", target_is_directory=True)
    (review / "alias.md").symlink_to("checklist.md")
    hidden = [
        "skill://code-review/settings.txt",
        "skill://code-review/gitdir/config",
        "skill://code-review/modules/lib.js",
    ]
    async with connect("auto") as client:
        got = await skills_get(client, "skill://code-review/SKILL.md")
        uris = [resource["uri"] for resource in got["skill"]["resources"]]
        assert "skill://code-review/alias.md" in uris
        listed = await skills_list(client)
        entry = next(e for e in listed["skills"] if e["uri"] == "skill://code-review/SKILL.md")
        for uri in hidden:
            assert uri not in uris
            assert uri not in [resource["uri"] for resource in entry["resources"]]
            assert await refused_read(client, uri) == (
                f"Resource not found: {uri}: skill 'code-review' serves no such file"
            )
        alias = (await client.read_resource("skill://code-review/alias.md")).contents[0]
        assert alias.text == (review / "checklist.md").read_text(encoding="utf-8")

        write(review / ".secret.md", (review / "checklist.md").read_bytes())
        (review / "checklist.md").unlink()
        (review / "checklist.md").symlink_to(".secret.md")
        uri = "skill://code-review/checklist.md"
        # Judged again when read, or (once the watcher re-listed the folder) not listed.
        assert await refused_read(client, uri) in (
            f"Resource unreadable: {uri}: checklist.md: "
            "not served (its real path is a hidden or version-control path)",
            f"Resource not found: {uri}: skill 'code-review' serves no such file",
        )


async def test_bad_cursors_are_invalid_params(connect):
    """A cursor is an offset in ASCII digits: superscripts, other scripts' digits, a
    5,000-digit number and anything else are ``-32602``, on every paginated list."""
    cursors = ["\u00b2", "\u0661", "9" * 5000, "", " 1", "1\n", "-1", "0x1", "1.0"]
    async with connect("auto") as client:
        for cursor in cursors:
            for request in (
                lambda cursor: skills_list(client, cursor=cursor),
                lambda cursor: client.list_resources(cursor=cursor),
                lambda cursor: client.list_prompts(cursor=cursor),
            ):
                with pytest.raises(MCPError) as refused:
                    await request(cursor)
                assert refused.value.error.code == -32602, (cursor[:10], refused.value)
                assert str(refused.value).startswith("Invalid cursor: ")
                assert len(str(refused.value)) < 80
        assert (await skills_list(client, cursor="0"))["skills"]  # a good one still works


def _nest(folder, depth):
    """``folder/d/d/.../d`` ``depth`` levels deep, made one level at a time."""
    path = folder
    for _ in range(depth):
        path = os.path.join(path, "d")
        os.mkdir(path)
    return path


def _unnest(folder):
    """Remove ``folder`` and a chain made in it by :func:`_nest`, from the bottom up:
    ``shutil.rmtree`` recurses per level, past Python's limit at this depth."""
    chain = [folder]
    while os.path.isdir(os.path.join(chain[-1], "d")):
        chain.append(os.path.join(chain[-1], "d"))
    for level in reversed(chain):
        for name in os.listdir(level):
            if name != "d":
                os.unlink(os.path.join(level, name))
        os.rmdir(level)


@pytest.fixture
def deep_skills(project):
    """Two skills whose trees no walk should follow to the end: ``deep`` nests 1,100
    folders (deeper than Python's recursion limit), ``wide`` holds 2,100 empty folders
    and no other file (the file limit alone never stops its walk).

    ``deep`` is a symlinked bundle (the engine follows those) to a folder outside
    pytest's temporary tree, removed here without recursion, so that no later pytest
    session meets the chain when it cleans its old folders up."""
    skills = project / ".dsh" / "skills"
    outside = tempfile.mkdtemp(prefix="skilldeck-deep-skill-")
    try:
        write(Path(outside) / "SKILL.md", skill_text("deep", "A very deep folder."))
        write(Path(_nest(outside, 1100)) / "bottom.md", "the bottom\n")
        (skills / "deep").symlink_to(outside, target_is_directory=True)
        wide = skills / "wide"
        write(wide / "SKILL.md", skill_text("wide", "A very wide folder."))
        for index in range(2100):
            (wide / f"f{index:04}").mkdir()
        yield skills
    finally:
        _unnest(outside)


async def test_a_deep_or_wide_skill_folder_fails_only_that_skill(connect, deep_skills):
    async with connect("auto") as client:
        listed = [entry["uri"] for entry in (await skills_list(client))["skills"]]
        assert listed == [
            "skill://code-review/SKILL.md",
            "skill://commit-message/SKILL.md",
            "skill://style-guide/SKILL.md",
        ]
        for name, reason in (
            ("deep", "its folders nest deeper than 32 levels"),
            ("wide", "it holds more than 2048 files and folders"),
        ):
            uri = f"skill://{name}/SKILL.md"
            with pytest.raises(MCPError) as refused:
                await skills_get(client, uri)
            assert refused.value.error.code == -32602
            assert str(refused.value) == (
                f"Unknown skill URI: {uri}: "
                f"skill {name!r} is not served through the Skills extension: {reason}"
            )
            # the tool still serves it (only the extension's manifest needs the walk)
            loaded = await client.call_tool("skill", {"name": name})
            assert not loaded.is_error
