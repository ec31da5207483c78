"""A manifest taken before a file changed is judged again when a file is read.

``skills/list`` keeps the manifest it built; a file of it replaced afterwards (a pulled
hostile commit) is read through :func:`read_served_file`, which refuses what now leads
outside the skill's folder or into a hidden path, or (``--require-safe``) what the
safety scan no longer reads. The end-to-end MCP tests cannot hold the watcher back, so
they accept either refusal; these tests hold the stale-manifest path itself on real
files, with no watcher running.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skilldeck.mcp.skill_files import SkillFileError, collect_skill_files, read_served_file


def _bundle(tmp_path: Path) -> Path:
    folder = tmp_path / "skills" / "code-review"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: code-review\ndescription: Review a change.\n---\nBody.\n", encoding="utf-8"
    )
    (folder / "checklist.md").write_text("# Checklist\n", encoding="utf-8")
    (folder / "scripts" / "run.sh").write_text("#!/bin/sh\necho review\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("relative", ["checklist.md", "scripts/run.sh"])
def test_a_listed_file_replaced_by_a_link_out_is_refused(tmp_path: Path, relative: str) -> None:
    folder = _bundle(tmp_path)
    files = collect_skill_files(str(folder / "SKILL.md"))
    listed = files.find(relative)
    assert listed is not None
    outside = tmp_path / "elsewhere.txt"
    outside.write_bytes((folder / relative).read_bytes())  # the very bytes listed

    (folder / relative).unlink()
    (folder / relative).symlink_to(outside)

    with pytest.raises(SkillFileError) as refused:
        read_served_file(files, listed)
    assert str(refused.value) == f"{relative}: its real path is no longer inside the skill's folder"


def test_a_listed_file_replaced_by_a_link_to_a_hidden_file_is_refused(tmp_path: Path) -> None:
    folder = _bundle(tmp_path)
    files = collect_skill_files(str(folder / "SKILL.md"))
    listed = files.find("checklist.md")
    assert listed is not None
    (folder / ".secret.md").write_bytes((folder / "checklist.md").read_bytes())

    (folder / "checklist.md").unlink()
    (folder / "checklist.md").symlink_to(".secret.md")

    with pytest.raises(SkillFileError) as refused:
        read_served_file(files, listed)
    assert str(refused.value) == (
        "checklist.md: not served (its real path is a hidden or version-control path)"
    )


def test_a_listed_file_still_in_place_is_served(tmp_path: Path) -> None:
    folder = _bundle(tmp_path)
    files = collect_skill_files(str(folder / "SKILL.md"))
    listed = files.find("scripts/run.sh")
    assert listed is not None
    assert read_served_file(files, listed) == b"#!/bin/sh\necho review\n"


def test_a_listed_file_the_safety_scan_no_longer_reads_is_refused(tmp_path: Path) -> None:
    """Under ``--require-safe`` a listed file pushed past the scan's 200 files (new files
    sorted before it) keeps its bytes but is no longer judged: refused when read."""
    folder = _bundle(tmp_path)
    files = collect_skill_files(str(folder / "SKILL.md"), scanned_only=True)
    listed = files.find("checklist.md")
    assert listed is not None
    assert read_served_file(files, listed) == b"# Checklist\n"

    for index in range(200):
        (folder / f"a{index:03}.txt").write_text("x\n", encoding="utf-8")

    with pytest.raises(SkillFileError) as refused:
        read_served_file(files, listed)
    assert str(refused.value) == (
        "checklist.md: not served under --require-safe: the safety scan did not read it "
        "(the scan stopped early: it has more than 200 files)"
    )
