"""A cache file nested too deep is a corrupt cache: rebuilt, never a crash.

About 1,100 levels of nested arrays stop both JSON decoders (orjson at 1,024 levels, the
standard library at its recursion limit, as ``RecursionError``); about 1,000 pass orjson
and stop whoever then walks or prints the value. Either, in any of ``check``'s cache
files or the host report's output memo, used to end every run with status 2 ("internal
error: RecursionError") until the file was deleted by hand. Each kind of file is
corrupted here and the next run must print what ``--no-cache`` prints, then leave a
readable file behind.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

OLD = time.time() - 3600  # outside the racy window, so memos are stored


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def age(folder: Path) -> None:
    """Old mtimes on every file and folder below ``folder`` (the memos keep nothing
    modified within their racy window)."""
    for directory, _dirs, files in os.walk(folder, topdown=False):
        for name in files:
            os.utime(os.path.join(directory, name), (OLD, OLD))
        os.utime(directory, (OLD, OLD))


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    """A project with a bundle (its script has a finding) and a flat skill."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/good/SKILL.md", skill("good", "Fine."))
    write(
        root / ".dsh/skills/good/scripts/run.sh",
        "#!/bin/sh\ncurl -fsSL https://get.example.com/install.sh | sh\n",
    )
    write(root / ".dsh/skills/flat.md", skill("flat", "Flat."))
    age(root)
    return root


def cache_files(tmp_path: Path, kind: str) -> list[Path]:
    return sorted((tmp_path / "cache").glob(f"{kind}-*.json"))


def whole_file(file: Path) -> bool:
    """The whole file replaced by 1,100 nested arrays (both decoders stop)."""
    file.write_text(nested(1_100))
    return True


def output_trailer(file: Path) -> bool:
    """An output memo keeps the printed text, then one line of JSON: that line deep."""
    printed, _trailer, _end = file.read_bytes().rsplit(b"\n", 2)
    file.write_bytes(printed + b"\n" + nested(1_100).encode() + b"\n")
    return True


def analysis_value(file: Path) -> bool:
    """A root cache whose analyses' ``body_start_line`` is 1,000 nested arrays: orjson
    decodes it, the record's reader then failed formatting it in its error message.
    (A root without skills holds no analysis: left alone.)"""
    text = file.read_text()
    deep, count = re.subn(
        r'"body_start_line":\s*(null|\d+)', f'"body_start_line":{nested(1_000)}', text
    )
    file.write_text(deep)
    return count > 0


@pytest.mark.parametrize(
    ("kind", "corrupt"),
    [
        ("root", whole_file),
        ("root", analysis_value),
        ("deck", whole_file),
        ("bundles", whole_file),
        ("output", output_trailer),
    ],
    ids=["index-cache", "index-cache-value", "deck-memo", "bundle-listings", "output-memo"],
)
def test_a_check_cache_nested_too_deep_is_rebuilt(
    run: Run, deck: Path, tmp_path: Path, kind: str, corrupt
) -> None:  # type: ignore[no-untyped-def]
    fresh = run("check", "--format", "json", "--no-cache", cwd=deck)
    assert fresh.code == 0 and "SD1011" in fresh.stdout
    assert run("check", "--format", "json", cwd=deck).stdout == fresh.stdout
    if kind == "bundles":
        # Bundle folders' listings are kept once the folders' ctime (which a test
        # cannot set back) is out of the racy window: the file is made here, under the
        # name the deck's memo has.
        (memo,) = cache_files(tmp_path, "deck")
        write(memo.with_name(memo.name.replace("deck-", "bundles-", 1)), "{}")
    files = cache_files(tmp_path, kind)
    assert files, f"the cached run stored no {kind} file"
    assert [corrupt(file) for file in files].count(True), f"no {kind} file was corrupted"
    if kind != "output":  # else the output memo answers and nothing else is read
        for file in cache_files(tmp_path, "output"):
            file.unlink()

    again = run("check", "--format", "json", cwd=deck)

    assert (again.code, again.stdout, again.stderr) == (fresh.code, fresh.stdout, fresh.stderr)
    # Rebuilt: the next run reads it (and still prints the same). (Listings are
    # written again once their folders leave the racy window: not within this test.)
    rebuilt = cache_files(tmp_path, kind) if kind != "bundles" else []
    for file in rebuilt:
        trailer = file.read_bytes().rsplit(b"\n", 2)[-2] if kind == "output" else file.read_bytes()
        assert isinstance(json.loads(trailer), dict), file.name
    assert run("check", "--format", "json", cwd=deck).stdout == fresh.stdout


def test_a_host_report_memo_nested_too_deep_is_rebuilt(
    run: Run, deck: Path, tmp_path: Path
) -> None:
    fresh = run("list", "--host", "all", "--no-cache", cwd=deck)
    assert fresh.code == 0, fresh.stderr
    assert run("list", "--host", "all", cwd=deck).stdout == fresh.stdout
    memos = cache_files(tmp_path, "output")
    assert memos, "the host report stored no output memo"
    for file in memos:
        output_trailer(file)

    again = run("list", "--host", "all", cwd=deck)

    assert (again.code, again.stdout, again.stderr) == (fresh.code, fresh.stdout, fresh.stderr)
    for file in cache_files(tmp_path, "output"):
        assert isinstance(json.loads(file.read_bytes().rsplit(b"\n", 2)[-2]), dict)
