from __future__ import annotations

import os
from pathlib import Path

import pytest

from skilldeck.engine.model_view._resources import ResolvedResource, resolve_resource
from skilldeck.engine.registry._model import (
    DirectoryResourceBase,
    OpaqueResourceBase,
    ResourceBase,
    SkillDefinition,
    SkillSummary,
    UrlResourceBase,
)


def skill(base: ResourceBase | None) -> SkillSummary:
    return SkillSummary(
        name="demo", description="Demo.", source="custom", provider="fs", resource_base=base
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "skills" / "demo"
    (root / "scripts").mkdir(parents=True)
    (root / "SKILL.md").write_text("---\nname: demo\ndescription: Demo.\n---\nbody\n")
    (root / "reference.md").write_text("ref\n")
    (root / "scripts" / "run.sh").write_text("echo\n")
    (tmp_path / "secret.txt").write_text("secret\n")
    return root


def test_relative_paths_resolve_inside_the_folder(folder: Path) -> None:
    demo = skill(DirectoryResourceBase(str(folder)))
    real = folder.resolve()
    assert resolve_resource(demo, "reference.md") == ResolvedResource(
        "path", str(real / "reference.md")
    )
    assert resolve_resource(demo, "scripts/run.sh") == ResolvedResource(
        "path", str(real / "scripts" / "run.sh")
    )
    assert resolve_resource(demo, "./scripts/run.sh") == ResolvedResource(
        "path", str(real / "scripts" / "run.sh")
    )
    # a file that does not exist yet still resolves (nothing is read or listed)
    assert resolve_resource(demo, "notes/later.md") == ResolvedResource(
        "path", str(real / "notes" / "later.md")
    )
    assert resolve_resource(demo, (folder / "reference.md").as_uri()) == ResolvedResource(
        "path", str(real / "reference.md")
    )


def test_definitions_resolve_like_summaries(folder: Path) -> None:
    loaded = SkillDefinition(
        name="demo",
        description="Demo.",
        source="custom",
        provider="fs",
        resource_base=DirectoryResourceBase(str(folder)),
        content="See reference.md",
    )
    resolved = resolve_resource(loaded, "reference.md")
    assert resolved is not None and resolved.location == str(folder.resolve() / "reference.md")


@pytest.mark.parametrize(
    "reference",
    [
        "../secret.txt",
        "../../secret.txt",
        "scripts/../../secret.txt",
        "scripts/../reference.md",  # any '..' segment is refused, even one that stays inside
        "..\\secret.txt",
        "/etc/passwd",
        "\\etc\\passwd",
        "~/secret.txt",
        "~",
        "C:/Windows/win.ini",
        "reference.md\x00.png",
        "",
        "   ",
        ".",
        "./",
        "https://example.com/reference.md",
        "file:///etc/passwd",
        "file://otherhost/reference.md",
        "mailto:someone@example.com",
    ],
)
def test_escapes_from_a_directory_are_refused(folder: Path, reference: str) -> None:
    assert resolve_resource(skill(DirectoryResourceBase(str(folder))), reference) is None


def test_file_url_outside_the_folder_is_refused(folder: Path, tmp_path: Path) -> None:
    demo = skill(DirectoryResourceBase(str(folder)))
    assert resolve_resource(demo, (tmp_path / "secret.txt").as_uri()) is None


def test_absolute_path_even_inside_the_folder_is_refused(folder: Path) -> None:
    demo = skill(DirectoryResourceBase(str(folder)))
    assert resolve_resource(demo, str(folder / "reference.md")) is None


def test_symlinks_out_of_the_folder_are_refused(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "data.txt").write_text("x\n")
    os.symlink(tmp_path / "secret.txt", folder / "secret-link.txt")
    os.symlink(outside, folder / "linked-dir")
    os.symlink(folder / "reference.md", folder / "inner-link.md")
    demo = skill(DirectoryResourceBase(str(folder)))
    assert resolve_resource(demo, "secret-link.txt") is None
    assert resolve_resource(demo, "linked-dir/data.txt") is None
    assert resolve_resource(demo, "linked-dir") is None
    # a symlink that stays inside is fine and resolves to its target
    assert resolve_resource(demo, "inner-link.md") == ResolvedResource(
        "path", str(folder.resolve() / "reference.md")
    )


def test_a_symlinked_skill_folder_is_its_own_boundary(folder: Path, tmp_path: Path) -> None:
    link = tmp_path / "linked-skill"
    os.symlink(folder, link)
    demo = skill(DirectoryResourceBase(str(link)))
    assert resolve_resource(demo, "reference.md") == ResolvedResource(
        "path", str(folder.resolve() / "reference.md")
    )
    assert resolve_resource(demo, "../secret.txt") is None


BASE = "https://skills.example.test/packs/url-skill"


@pytest.mark.parametrize(
    ("base", "reference", "expected"),
    [
        (BASE, "reference.md", f"{BASE}/reference.md"),
        (BASE + "/", "reference.md", f"{BASE}/reference.md"),
        (BASE, "./scripts/run.sh?raw=1#top", f"{BASE}/scripts/run.sh?raw=1#top"),
        (BASE, f"{BASE}/ref.md", f"{BASE}/ref.md"),
        (
            BASE,
            "https://SKILLS.example.test/packs/url-skill/ref.md",
            "https://SKILLS.example.test/packs/url-skill/ref.md",
        ),
        ("http://host/skill?v=2", "a.md", "http://host/skill/a.md"),
    ],
)
def test_relative_urls_resolve_under_the_base(base: str, reference: str, expected: str) -> None:
    assert resolve_resource(skill(UrlResourceBase(base)), reference) == ResolvedResource(
        "url", expected
    )


@pytest.mark.parametrize(
    "reference",
    [
        "../other-skill/reference.md",
        "/packs/other/reference.md",
        "//evil.example/reference.md",
        "https://evil.example/packs/url-skill/reference.md",
        "http://skills.example.test/packs/url-skill/reference.md",  # scheme downgrade
        "https://skills.example.test/packs/url-skill-evil/x.md",  # prefix, not a child
        "%2e%2e/other-skill/reference.md",
        "a/%2E%2E/%2e%2e/x",
        "..%2fother-skill",
        "..\\other-skill\\x.md",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "",
        ".",
    ],
)
def test_urls_that_leave_the_base_are_refused(reference: str) -> None:
    assert resolve_resource(skill(UrlResourceBase(BASE)), reference) is None


@pytest.mark.parametrize("base", ["ftp://host/skill", "file:///srv/skill", "not a url"])
def test_only_http_and_https_bases_resolve(base: str) -> None:
    assert resolve_resource(skill(UrlResourceBase(base)), "a.md") is None


def test_opaque_and_missing_bases_resolve_nothing() -> None:
    assert resolve_resource(skill(OpaqueResourceBase("ask the service")), "a.md") is None
    assert resolve_resource(skill(None), "a.md") is None
