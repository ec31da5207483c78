"""Every cache key comes from one function (``cache_key``): skilldeck's code, the
settings that reach the answer (as the settings table declares them) and the inputs'
identity. A new setting declared with ``reach`` ``file`` or ``deck`` is in every key
without a line of key code; the code digest costs a warm run only a ``stat`` per file."""

from __future__ import annotations

import json
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._settings_schema import SETTINGS
from skilldeck.engine.filesystem._cache_key import cache_key, code_digest
from skilldeck.engine.rules._findings import Severity

#: A value other than the default for each field of RuleSettings.
CHANGED: dict[str, object] = {
    "profile": "agentskills",
    "catalog_max_description_length": 40,
    "overrides": {"SD501": None, "SD204": Severity.WARNING},
    "hosts": ("dsh", "codex"),
    "context_tokens": {"codex": 400000},
    "overlap_threshold": 0.5,
    "near_duplicate_threshold": 0.9,
    "overlap_distinct": (("c4-*",),),
}
ANALYSIS = {s.analysis_name: s for s in SETTINGS if s.analysis_name is not None}


def test_every_setting_that_reaches_the_analysis_has_a_changed_value_here() -> None:
    assert set(CHANGED) == set(ANALYSIS)


@pytest.mark.parametrize("name", sorted(ANALYSIS))
def test_a_setting_reaches_the_keys_its_reach_declares(name: str) -> None:
    base = RuleSettings()
    changed = replace(base, **{name: CHANGED[name]})  # type: ignore[arg-type]

    def key(settings: RuleSettings, reach: str) -> str:
        return cache_key("test", settings, reach=reach, inputs=["/r"], cache_dir=None)  # type: ignore[arg-type]

    assert key(changed, "deck") != key(base, "deck")
    # A deck-wide setting leaves each file's analysis (the index cache) where it was.
    assert (key(changed, "file") != key(base, "file")) == (ANALYSIS[name].reach == "file")


def test_the_inputs_and_the_purpose_are_in_the_key() -> None:
    settings = RuleSettings()

    def key(purpose: str, inputs: object) -> str:
        return cache_key(purpose, settings, reach="deck", inputs=inputs, cache_dir=None)

    assert len({key("deck", ["/a"]), key("deck", ["/b"]), key("hosts-view", ["/a"])}) == 3


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    (package / "engine" / "__pycache__").mkdir(parents=True)
    (package / "cli").mkdir()
    (package / "lsp").mkdir()
    (package / "bundled").mkdir()
    (package / "__init__.py").write_text("VERSION = 1\n")
    (package / "engine" / "rules.py").write_text("RULES = ('SD101',)\n")
    (package / "cli" / "text.py").write_text("FORMAT = '{path}'\n")
    (package / "engine" / "__pycache__" / "x.py").write_text("not code\n")
    (package / "bundled" / "skill.py").write_text("a skill's script\n")
    (package / "lsp" / "hover.py").write_text("caches nothing\n")
    old = time.time_ns() - 60 * 10**9  # settled files: the stamp is kept
    for path in package.rglob("*"):
        os.utime(path, ns=(old, old))
    return package


def test_the_code_digest_follows_the_code_of_cached_answers(tmp_path: Path) -> None:
    package = _package(tmp_path)
    first = code_digest(None, package)
    assert code_digest(None, package) == first  # once per process
    # Another process (no memo: another path) sees the same code; files whose code makes
    # no cached answer (the language server's, bytecode, bundled skills) leave it alone.
    copy = tmp_path / "copy"
    os.rename(package, copy)
    assert code_digest(None, copy) == first
    (copy / "engine" / "__pycache__" / "x.py").write_text("changed\n")
    (copy / "bundled" / "skill.py").write_text("changed\n")
    (copy / "lsp" / "hover.py").write_text("changed\n")
    os.rename(copy, tmp_path / "copy2")
    assert code_digest(None, tmp_path / "copy2") == first
    # The engine's code and the CLI's (its memos hold the rendering) are in the digest.
    (tmp_path / "copy2" / "engine" / "rules.py").write_text("RULES = ('SD102',)\n")
    os.rename(tmp_path / "copy2", tmp_path / "copy3")
    second = code_digest(None, tmp_path / "copy3")
    assert second != first
    (tmp_path / "copy3" / "cli" / "text.py").write_text("FORMAT = '{path}:'\n")
    os.rename(tmp_path / "copy3", tmp_path / "copy4")
    assert code_digest(None, tmp_path / "copy4") not in (first, second)


def test_a_warm_run_reads_the_digest_its_files_identities_stored(tmp_path: Path) -> None:
    package = _package(tmp_path)
    cache = tmp_path / "cache"
    real = code_digest(cache, package)
    (stamp,) = cache.glob("code-*.json")
    stored = json.loads(stamp.read_text())
    assert stored["code"] == real
    # A later run stats the files and reads the stamp (it never reads the files): a stamp
    # that says otherwise for these identities is believed ...
    stamp.write_text(json.dumps({**stored, "code": "from-the-stamp"}))
    moved = tmp_path / "same-files"
    os.rename(package, moved)  # the same inodes: a new path is a new process's memo
    os.rename(cache / stamp.name, cache / f"code-{_short(str(moved))}.json")
    assert code_digest(cache, moved) == "from-the-stamp"
    # ... and no longer once a file changed (a new identity): the contents are digested.
    (moved / "engine" / "rules.py").write_text("RULES = ('SD101',)\n")  # same bytes
    os.rename(moved, tmp_path / "edited")
    os.rename(
        cache / f"code-{_short(str(moved))}.json",
        cache / f"code-{_short(str(tmp_path / 'edited'))}.json",
    )
    assert code_digest(cache, tmp_path / "edited") == real


def test_a_file_modified_just_now_is_digested_but_not_stamped(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / "engine" / "rules.py").write_text("RULES = ('SD103',)\n")  # racy
    cache = tmp_path / "cache"
    code_digest(cache, package)
    assert not list(cache.glob("code-*.json"))


def _short(text: str) -> str:
    import hashlib  # noqa: PLC0415

    return hashlib.sha256(text.encode()).hexdigest()[:16]
