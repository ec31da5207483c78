"""The one layout rule: where a skill file must sit, and why a Markdown file is not one."""

from __future__ import annotations

import os
from pathlib import Path

from skilldeck.cli.check_memo import deck_key
from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.filesystem._fs_provider import classify_path, scan_root
from skilldeck.engine.filesystem._layout import NotASkill, SkillPlace, place_in_root
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.text._positions import FILE_START

GOOD = "---\nname: {name}\ndescription: Does a thing.\n---\n"


OLD = 1_600_000_000  # an mtime far from "racily fresh" (deck keys refuse fresh files)


def write(path: Path, text: str = "") -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (OLD, OLD))
    return str(path)


def dsh_root(tmp_path: Path) -> SkillRoot:
    path = tmp_path / "proj" / ".dsh" / "skills"
    path.mkdir(parents=True)
    return SkillRoot(100, "project-dsh", str(path), True, frozenset({".system"}))


def reason(found: object) -> str:
    assert isinstance(found, NotASkill), found
    return found.reason


def test_bundles_and_flat_files_are_skills(tmp_path: Path) -> None:
    root = dsh_root(tmp_path)
    bundle = write(Path(root.path) / "pdf" / "SKILL.md", GOOD.format(name="pdf"))
    flat = write(Path(root.path) / "notes.md", GOOD.format(name="notes"))
    assert place_in_root(bundle, root) == SkillPlace(root, "bundle", "pdf")
    assert place_in_root(flat, root) == SkillPlace(root, "flat", "notes")
    assert classify_path(bundle, [root]) == (root, "bundle", "pdf")


def test_misplaced_markdown_says_why_it_is_not_a_skill(tmp_path: Path) -> None:
    root = dsh_root(tmp_path)
    base = Path(root.path)
    nested = write(base / "skills" / "pdf-summary" / "SKILL.md", GOOD.format(name="pdf-summary"))
    deeper = write(base / "a" / "b" / "c" / "SKILL.md")
    lower = write(base / "forms" / "skill.md")
    loose = write(base / "drafts" / "idea.md")
    deep_loose = write(base / "drafts" / "old" / "idea.md")
    assert reason(place_in_root(nested, root)) == (
        "nested one level too deep; expected .dsh/skills/<name>/SKILL.md"
    )
    assert reason(place_in_root(deeper, root)) == (
        "nested 2 levels too deep; expected .dsh/skills/<name>/SKILL.md"
    )
    assert reason(place_in_root(lower, root)) == (
        "the file is named skill.md; a bundle's skill file is named exactly SKILL.md"
    )
    assert reason(place_in_root(loose, root)) == (
        "the folder 'drafts' has no SKILL.md; expected .dsh/skills/<name>/SKILL.md or "
        ".dsh/skills/<name>.md"
    )
    assert reason(place_in_root(deep_loose, root)).startswith("nested too deep; expected ")
    finding = NotASkill(root, "x").finding()
    assert finding is not None
    assert (finding.code, finding.severity, finding.span) == (
        "SD007",
        Severity.INFORMATION,
        FILE_START,
    )
    assert finding.message == "not a skill: x" and not finding.drops_skill
    assert NotASkill(root, "x").finding(RuleSettings(overrides={"SD007": "off"})) is None


def test_resources_skipped_names_and_outsiders_are_none(tmp_path: Path) -> None:
    root = dsh_root(tmp_path)
    base = Path(root.path)
    write(base / "pdf" / "SKILL.md", GOOD.format(name="pdf"))
    resource = write(base / "pdf" / "reference.md")
    deep_resource = write(base / "pdf" / "docs" / "guide.md")
    system = write(base / ".system" / "x" / "SKILL.md")
    outside = write(tmp_path / "proj" / "README.md")
    script = write(base / "drafts" / "run.sh")
    for path in (resource, deep_resource, system, outside, script):
        assert place_in_root(path, root) is None, path


def test_scanning_a_root_reports_misplaced_files_and_keys_them(tmp_path: Path) -> None:
    root = dsh_root(tmp_path)
    base = Path(root.path)
    write(base / "pdf" / "SKILL.md", GOOD.format(name="pdf"))
    write(base / "pdf" / "notes.md")  # a resource: not reported
    nested = write(base / "skills" / "pdf-summary" / "SKILL.md", GOOD.format(name="pdf-summary"))
    settings = RuleSettings()
    before = deck_key([root], settings, cache_dir=None)
    scan = scan_root(root, settings)
    assert [entry.path for entry in scan.entries] == [str(base / "pdf" / "SKILL.md")]
    assert [(path, finding.code, finding.message) for path, finding in scan.strays] == [
        (
            nested,
            "SD007",
            "not a skill: nested one level too deep; expected .dsh/skills/<name>/SKILL.md",
        )
    ]
    write(base / "skills" / "other.md")
    after = deck_key([root], settings, cache_dir=None)
    assert before is not None and after is not None and before.digest != after.digest
    assert len(scan_root(root, settings).strays) == 2
    off = RuleSettings(overrides={"not-a-skill": "off"})
    assert scan_root(root, off).strays == ()
