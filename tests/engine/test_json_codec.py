"""The cache's JSON codec round-trips what the standard library did, fast or not."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.disk._json_codec import dump_bytes, has_non_finite, load_bytes
from skilldeck.engine.filesystem._fs_provider import scan_deck
from skilldeck.engine.filesystem._index_cache import IndexCache


def test_plain_payloads_round_trip():
    payload = {"a": [1, 2.5, True, None, "\u00e9\U0001f600"], "b": {"c": "d"}}
    assert load_bytes(dump_bytes(payload)) == payload


def test_what_orjson_refuses_falls_back_to_the_standard_library():
    undecodable = "caf\udce9/SKILL.md"  # a file name that is not UTF-8 (surrogateescape)
    payload = {undecodable: [2**80, -(2**70)]}
    data = dump_bytes(payload)
    assert data == json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogateescape"
    )
    assert load_bytes(data) == payload


def test_garbage_is_a_value_error():
    for garbage in (b"", b"{", b"\xff\xfe", b"nul"):
        try:
            load_bytes(garbage)
        except ValueError:
            continue
        raise AssertionError(f"{garbage!r} decoded")


def test_non_finite_floats_are_found_anywhere():
    assert not has_non_finite({"a": [1.5, {"b": 2}], "c": "nan"})
    assert has_non_finite({"a": [1.5, {"b": math.nan}]})
    assert has_non_finite([math.inf])


def test_an_analysis_with_a_nan_is_never_cached_and_stays_the_same(tmp_path: Path):
    root = tmp_path / "skills"
    for name, extra in (("plain", "metadata: {v: 1.5}\n"), ("odd", "metadata: {v: .nan}\n")):
        (root / name).mkdir(parents=True)
        skill = root / name / "SKILL.md"
        skill.write_text(f"---\nname: {name}\ndescription: d\n{extra}---\n", encoding="utf-8")
        old = time.time() - 3600
        os.utime(skill, (old, old))
    config = SkilldeckConfig(custom_skill_dirs=(str(root),))
    cache = IndexCache(tmp_path / "cache")
    first = scan_deck(config, tmp_path, cache=cache)
    again = scan_deck(config, tmp_path, cache=cache)
    metadata = {e.expected_name: dict(e.analysis.metadata or {}) for e in again.entries()}
    assert metadata["plain"] == {"v": 1.5}
    assert math.isnan(metadata["odd"]["v"])  # not null: analysed again, not cached
    stored = load_bytes(cache.file_for(str(root), config.rule_settings()).read_bytes())
    assert sorted(stored["entries"]) == ["plain/SKILL.md"]
    assert [e.path for e in first.entries()] == [e.path for e in again.entries()]
