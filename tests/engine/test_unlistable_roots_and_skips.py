"""A root that can never be listed, and skill files the engine refuses, on real files.

- A root in a lasting state that forbids listing it (a symlink loop here; permission
  denied in ``tests/cli/test_skipped_files_cli.py``, run without the DAC capabilities)
  is complete and empty, and says why: were it incomplete, no snapshot would ever be
  complete and the model would never get a catalog (SPEC §3, §6).
- A refused skill file is logged at WARNING with the finding ``check`` reports, once
  per file version, however often the deck is read (SPEC §2: "skipped with a warning").
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._defaults import default_registry
from skilldeck.engine.filesystem._fs_provider import FilesystemProvider, scan_deck, scan_root
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.model_view._catalog import CatalogTracker
from skilldeck.engine.registry._provider import LookupOptions, ProviderObservation

#: The logger refused skill files are reported on (an embedding agent configures it).
SKIPPED_LOGGER = "skilldeck.engine.filesystem.skipped"


def _skill(path: Path, name: str, extra: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: Does {name}.\n{extra}---\n\nBody.\n")
    return path


def _loop(path: Path) -> Path:
    path.symlink_to(path)  # listing it fails with ELOOP, for ever
    return path


def test_a_symlink_loop_root_is_complete_empty_and_says_why(tmp_path: Path) -> None:
    root = SkillRoot(300, "custom", str(_loop(tmp_path / "loop")), False)
    scan = scan_root(root, RuleSettings())
    assert (scan.entries, scan.complete) == ((), True)
    assert scan.problems == (
        f"{root.path}: skill root cannot be listed: Too many levels of symbolic links; "
        "nothing scanned",
    )


async def test_a_symlink_loop_root_does_not_keep_the_catalog_from_being_published(
    tmp_path: Path,
) -> None:
    _skill(tmp_path / "good" / "a" / "SKILL.md", "a")
    config = SkilldeckConfig(
        include_default_roots=False,
        custom_skill_dirs=(str(tmp_path / "good"), str(_loop(tmp_path / "loop"))),
    )
    listed = await FilesystemProvider(config).list(LookupOptions(cwd=str(tmp_path)))
    assert not isinstance(listed, ProviderObservation)
    assert [c.name for c in listed] == ["a"]
    registry = default_registry(config)
    tracker = CatalogTracker()
    first = await registry.snapshot(cwd=str(tmp_path))
    assert first.complete
    update = tracker.update(first)
    assert update is not None and update.kind == "initial"
    assert [e.name for e in update.entries] == ["a"]
    # a complete catalog is cached: without a watcher, a skill added since is not seen
    # until something invalidates (an incomplete one was scanned again on every read)
    _skill(tmp_path / "good" / "b" / "SKILL.md", "b")
    again = await registry.snapshot(cwd=str(tmp_path))
    assert ([s.name for s in again.skills], again.complete) == (["a"], True)


def _records(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    found = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == SKIPPED_LOGGER]
    caplog.clear()
    return found


async def test_a_refused_skill_file_is_logged_once_per_version_with_checks_finding(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "skills"
    _skill(root / "good" / "SKILL.md", "good")
    legacy = _skill(root / "legacy" / "SKILL.md", "legacy", "disableModelInvocation: true\n")
    maybe = _skill(root / "maybe.md", "maybe", "user-invocable: maybe\n")
    config = SkilldeckConfig(include_default_roots=False, custom_skill_dirs=(str(root),))
    provider = FilesystemProvider(config)
    caplog.set_level(logging.WARNING, logger=SKIPPED_LOGGER)

    # the verdict is the finding check reports (one engine, one verdict)
    deck = scan_deck(config, str(tmp_path))
    reported = {
        entry.path: next(f for f in entry.analysis.findings if f.drops_skill)
        for entry in deck.entries()
        if not entry.analysis.accepted
    }
    assert sorted(reported) == [str(legacy), str(maybe)]
    expected = [
        (logging.WARNING, f"skill file {path} ignored: {f.code} {f.message}")
        for path, f in sorted(reported.items())
    ]
    assert [m for _, m in expected] == [
        f"skill file {legacy} ignored: SD301 unsupported key 'disableModelInvocation': "
        "use 'disable-model-invocation' (skill not loaded)",
        f"skill file {maybe} ignored: SD302 'user-invocable' must be true or false, found "
        "the string 'maybe' (skill not loaded)",
    ]

    options = LookupOptions(cwd=str(tmp_path))
    await provider.list(options)
    assert _records(caplog) == expected
    for _ in range(3):  # read again and again: said once
        await provider.list(options)
    assert _records(caplog) == []

    # a new version still refused is said again; a fixed file no more
    legacy.write_text(legacy.read_text().replace("Body.", "Body, edited."))
    maybe.write_text(maybe.read_text().replace("user-invocable: maybe\n", ""))
    await provider.list(options)
    assert _records(caplog) == [expected[0]]
    # broken again (a new version): said again
    maybe.write_text(maybe.read_text().replace("---\n\nBody", "user-invocable: maybe\n---\n\nBody"))
    await provider.list(options)
    assert _records(caplog) == [expected[1]]


async def test_the_log_record_carries_the_skipped_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "skills"
    path = _skill(root / "bundle-dir" / "SKILL.md", "other-name", "userInvocable: false\n")
    config = SkilldeckConfig(include_default_roots=False, custom_skill_dirs=(str(root),))
    caplog.set_level(logging.WARNING, logger=SKIPPED_LOGGER)
    await FilesystemProvider(config).list(LookupOptions(cwd=str(tmp_path)))
    (record,) = [r for r in caplog.records if r.name == SKIPPED_LOGGER]
    skipped = getattr(record, "skipped_file", None)
    assert (skipped.path, skipped.expected_name, skipped.name) == (
        str(path),
        "bundle-dir",
        "other-name",
    )
    assert (skipped.code, skipped.message) == (
        "SD301",
        "unsupported key 'userInvocable': use 'user-invocable' (skill not loaded)",
    )


async def test_a_skill_md_that_is_a_directory_is_refused_and_the_listing_stays_complete(
    tmp_path: Path,
) -> None:
    """``<root>/odd/SKILL.md`` is a folder: that skill is refused (SD006, as ``check``
    says), its sibling is listed, and the listing is complete. The reference runtime's
    Node path rejects its whole ``list()`` here (``readFile`` fails with EISDIR, which is
    not an absent-path error), so every skill of the provider is left out and the
    snapshot is incomplete; its ``ctx.fs`` path skips the entry and stays complete.
    skilldeck keeps the sibling and the catalog (docs/compatibility.md)."""
    root = tmp_path / "skills"
    (root / "odd" / "SKILL.md").mkdir(parents=True)
    _skill(root / "good" / "SKILL.md", "good")
    config = SkilldeckConfig(include_default_roots=False, custom_skill_dirs=(str(root),))
    listed = await FilesystemProvider(config).list(LookupOptions(cwd=str(tmp_path)))
    assert not isinstance(listed, ProviderObservation)
    assert [candidate.name for candidate in listed] == ["good"]

    scan = scan_root(SkillRoot(300, "custom", str(root), False), RuleSettings())
    assert scan.complete
    (refused,) = [e for e in scan.entries if not e.analysis.accepted]
    assert [(f.code, f.message) for f in refused.analysis.findings] == [
        (
            "SD006",
            "skill path is a directory, not a regular file; it was not opened (skill not loaded)",
        )
    ]
