from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._deck import deck_findings
from skilldeck.engine.filesystem._fs_provider import scan_deck
from skilldeck.engine.filesystem._index_cache import (
    IndexCache,
    default_cache_dir,
    write_atomically,
    write_chunks_atomically,
)
from skilldeck.engine.filesystem._roots import SkillRoot

OLD = time.time() - 3600  # files older than the racy window are cacheable


def _write(path: Path, text: str, *, old: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if old:
        os.utime(path, (OLD, OLD))
    return path


def _skill(root: Path, name: str, description: str = "d", *, old: bool = True) -> Path:
    text = f"---\nname: {name}\ndescription: {description}\n---\nbody\n"
    return _write(root / name / "SKILL.md", text, old=old)


def _scan(root: Path, cache: IndexCache | None, **config: object):  # type: ignore[no-untyped-def]
    roots = [SkillRoot(300, "custom", str(root), True)]
    return scan_deck(SkilldeckConfig(**config), None, roots=roots, cache=cache)  # type: ignore[arg-type]


def _summary(scan) -> list[tuple[str, str, list[str]]]:  # type: ignore[no-untyped-def]
    found = deck_findings(scan)
    return [
        (e.path, str(e.analysis.description), [f"{f.code}@{f.span}" for f in found[e.path]])
        for e in scan.entries()
    ]


def test_default_dir_honours_env(tmp_path: Path) -> None:
    assert default_cache_dir({"SKILLDECK_CACHE_DIR": str(tmp_path)}) == tmp_path
    assert "skilldeck" in str(default_cache_dir({}))


def test_warm_scan_equals_cold_and_reads_no_yaml(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    for i in range(5):
        _skill(root, f"s{i}")
    _write(root / "dup.md", "---\nname: s1\ndescription: again\n---\n")
    _write(root / "bad.md", "---\nname: Bad Name\ndescription: x\n---\n")
    cache = IndexCache(tmp_path / "cache")
    cold = _summary(_scan(root, cache))
    files = list((tmp_path / "cache").glob("root-*.json"))
    assert len(files) == 1
    stored = json.loads(files[0].read_text())
    assert len(stored["entries"]) == 7
    warm_scan = _scan(root, cache)
    assert _summary(warm_scan) == cold  # including SD703 spans from cached entries
    # proof the warm scan used the cache: poison one cached description
    stored["entries"]["s0/SKILL.md"]["analysis"]["description"] = "from-cache"
    files[0].write_text(json.dumps(stored))
    descriptions = {e.expected_name: e.analysis.description for e in _scan(root, cache).entries()}
    assert descriptions["s0"] == "from-cache"


def test_changed_file_is_a_miss(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    path = _skill(root, "s")
    cache = IndexCache(tmp_path / "cache")
    _scan(root, cache)
    _write(path, "---\nname: s\ndescription: changed!\n---\n")
    assert _scan(root, cache).entries()[0].analysis.description == "changed!"


def test_a_same_size_rewrite_with_its_mtime_restored_is_a_miss(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    path = _skill(root, "alpha")
    cache = IndexCache(tmp_path / "cache")
    assert _scan(root, cache).entries()[0].analysis.name == "alpha"
    key = _deck_key(root)
    before = path.stat()
    _write(path, path.read_text().replace("name: alpha", "name: ALPHA"), old=False)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # touch -r / cp -p
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert _scan(root, cache).entries()[0].analysis.name == "ALPHA"
    assert _deck_key(root) not in (key, None)


def test_fresh_files_are_not_cached(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _skill(root, "fresh", old=False)
    cache = IndexCache(tmp_path / "cache")
    _scan(root, cache)
    (file,) = (tmp_path / "cache").glob("root-*.json")
    assert json.loads(file.read_text())["entries"] == {}


def test_settings_change_uses_another_cache(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _skill(root, "s", description="x" * 50)
    cache = IndexCache(tmp_path / "cache")
    assert _summary(_scan(root, cache))[0][2] == []
    capped = _summary(_scan(root, cache, catalog_max_description_length=10))
    assert [f.split("@")[0] for f in capped[0][2]] != []
    assert cache.file_for(str(root), RuleSettings()) != cache.file_for(
        str(root), RuleSettings(catalog_max_description_length=10)
    )


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\x00\xff garbage", b"[]", b'{"key": 1}', b"{" * 10],
)
def test_corrupt_cache_is_a_miss_and_is_rewritten(tmp_path: Path, garbage: bytes) -> None:
    root = tmp_path / "skills"
    _skill(root, "s")
    cache = IndexCache(tmp_path / "cache")
    cold = _summary(_scan(root, cache))
    (file,) = (tmp_path / "cache").glob("root-*.json")
    file.write_bytes(garbage)
    assert _summary(_scan(root, cache)) == cold
    assert json.loads(file.read_text())["entries"].keys() == {"s/SKILL.md"}


def test_garbage_entry_is_a_miss(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _skill(root, "s")
    cache = IndexCache(tmp_path / "cache")
    cold = _summary(_scan(root, cache))
    (file,) = (tmp_path / "cache").glob("root-*.json")
    stored = json.loads(file.read_text())
    stored["entries"]["s/SKILL.md"]["analysis"] = {"version": 1, "nonsense": True}
    file.write_text(json.dumps(stored))
    assert _summary(_scan(root, cache)) == cold


def test_unwritable_cache_dir_still_scans(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _skill(root, "s")
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("x")
    assert [c.name for c in _scan(root, IndexCache(blocker)).candidates()] == ["s"]


def _worker(args: tuple[str, str, int]) -> list[str]:
    root, cache_dir, rounds = args
    out = []
    for _ in range(rounds):
        scan = _scan(Path(root), IndexCache(cache_dir))
        out.append(",".join(sorted(c.name for c in scan.candidates())))
    return out


def test_concurrent_processes(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    for i in range(30):
        _skill(root, f"s{i:02}")
    expected = ",".join(sorted(f"s{i:02}" for i in range(30)))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        results = pool.map(_worker, [(str(root), str(tmp_path / "cache"), 5)] * 4)
    assert all(r == expected for rs in results for r in rs)
    leftovers = [p.name for p in (tmp_path / "cache").iterdir() if p.name.startswith(".tmp")]
    assert leftovers == []


# --- deck memos ---------------------------------------------------------------------------


def _deck_key(root: Path, **settings: object):  # type: ignore[no-untyped-def]
    from skilldeck.cli.check_memo import deck_key  # noqa: PLC0415

    return deck_key(
        [SkillRoot(300, "custom", str(root), True)],
        RuleSettings(**settings),  # type: ignore[arg-type]
        cache_dir=None,
    )


def test_deck_key_follows_every_identity_and_setting(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    skill = _skill(root, "alpha")
    _write(root / "beta.md", "---\nname: beta\ndescription: d\n---\n")
    first = _deck_key(root)
    assert first is not None and _deck_key(root) == first
    os.utime(skill, (OLD + 1, OLD + 1))
    touched = _deck_key(root)
    assert touched is not None and touched.digest != first.digest
    assert touched.locator == first.locator
    _write(skill, skill.read_text().replace("d\n", "e\n"))  # same size, old mtime
    os.utime(skill, (OLD + 2, OLD + 2))
    assert _deck_key(root) not in (first, touched, None)
    (root / "empty").mkdir()  # a folder without SKILL.md still changes the listing
    listed = _deck_key(root)
    _skill(root, "empty")
    assert len({listed, _deck_key(root), touched}) == 3
    other = _deck_key(root, profile="agentskills")
    assert other is not None and other.locator != first.locator


def test_deck_key_refuses_racily_fresh_files(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _skill(root, "alpha")
    assert _deck_key(root) is not None
    _skill(root, "fresh", old=False)
    assert _deck_key(root) is None


def test_deck_key_since_a_scan_started_refuses_files_modified_meanwhile(tmp_path: Path) -> None:
    from skilldeck.cli.check_memo import deck_key  # noqa: PLC0415

    root = tmp_path / "skills"
    skill = _skill(root, "alpha")
    roots = [SkillRoot(300, "custom", str(root), True)]
    started = time.time_ns() - 5 * 10**9  # a scan that began 5 s ago
    assert deck_key(roots, RuleSettings(), cache_dir=None, since_ns=started) is not None
    # Modified while it ran, 3 s ago: outside the racy window of now, inside the one
    # that reaches back to the scan's start.
    moment = time.time() - 3
    os.utime(skill, (moment, moment))
    assert deck_key(roots, RuleSettings(), cache_dir=None) is not None
    assert deck_key(roots, RuleSettings(), cache_dir=None, since_ns=started) is None


def test_deck_memo_round_trip_and_misses(tmp_path: Path) -> None:
    from skilldeck.cli.check_memo import CheckMemos, DeckMemo, MemoFile  # noqa: PLC0415
    from skilldeck.engine.rules._findings import Finding, Severity  # noqa: PLC0415
    from skilldeck.engine.text._positions import FILE_START  # noqa: PLC0415

    root = tmp_path / "skills"
    _skill(root, "alpha")
    key = _deck_key(root)
    assert key is not None
    cache = CheckMemos(IndexCache(tmp_path / "cache"))
    companion = _write(tmp_path / "cache" / "root-x.json", "{}")
    finding = Finding("SD204", Severity.ERROR, "missing required key 'description'", FILE_START)
    memo = DeckMemo((MemoFile("/a/SKILL.md", False, (finding,)),), ("a problem",), True)
    cache.store_deck_memo(key, memo, companions=[companion])
    assert cache.load_deck_memo(key) == memo
    os.utime(skill := root / "alpha" / "SKILL.md", (OLD + 9, OLD + 9))
    assert skill.exists()
    changed = _deck_key(root)
    assert changed is not None and cache.load_deck_memo(changed) is None
    assert cache.load_deck_memo(key) == memo  # the stored key still answers
    companion.write_text('{"other": 1}')  # the root cache it was built beside changed
    assert cache.load_deck_memo(key) is None


def test_a_file_written_in_pieces_that_fail_midway_stays_as_it_was(tmp_path: Path) -> None:
    """A deck memo is encoded and written one file at a time: an error in the middle
    must leave the previous memo whole and no temporary file behind."""
    target = tmp_path / "cache" / "deck-memo.json"
    write_atomically(target, {"files": [1]})

    def pieces() -> Iterator[bytes]:
        yield b'{"files":[1,'
        raise ValueError("cannot encode")

    with pytest.raises(ValueError, match="cannot encode"):
        write_chunks_atomically(target, pieces())
    assert json.loads(target.read_bytes()) == {"files": [1]}
    assert [p.name for p in target.parent.iterdir()] == ["deck-memo.json"]
    write_chunks_atomically(target, iter([b'{"files":', b"[1,2]}"]))
    assert json.loads(target.read_bytes()) == {"files": [1, 2]}
