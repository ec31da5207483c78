"""``engine/hosts/_table.py`` against what Gemini CLI's and Kimi Code's own discovery code loaded
from the same fixture trees (``host_trees.py``; the observed table, named by host version
and commit, is ``hosts_observed.json``). The differences that remain are listed here and
in ``docs/hosts.md`` ("Differential"), each with why."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.host_views._view import build_view, host_listing
from skilldeck.engine.hosts._table import get_host
from skilldeck.engine.text import collapse_whitespace

_SPEC = importlib.util.spec_from_file_location(
    "host_trees", Path(__file__).with_name("host_trees.py")
)
assert _SPEC is not None and _SPEC.loader is not None
host_trees = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(host_trees)
TREES, build = host_trees.TREES, host_trees.build

OBSERVED = json.loads((Path(__file__).parent / "hosts_observed.json").read_text("utf-8"))

#: (tree, host) -> the observed rows skilldeck does not reproduce, and the rows it adds.
KNOWN: dict[tuple[str, str], tuple[list[list[str]], list[list[str]]]] = {}


def _loaded(tree: Path, cwd: Path, host: str) -> list[list[str]]:
    """[name, path relative to the tree, listed text] of every skill ``host`` loads."""
    config = SkilldeckConfig(
        dsh_home=str(tree / "home/.dsh"), agents_home=str(tree / "home/.agents")
    )
    view = build_view([get_host(host)], config, str(cwd))
    listed = {
        line.name: collapse_whitespace(line.text or "")
        for line in host_listing(view, get_host(host))
    }
    return sorted(
        [load.name, os.path.relpath(load.path, tree), listed.get(load.name, "")]
        for load in view.loads_of(host)
        if load.loads
    )


@pytest.mark.parametrize("host", ["kimi-code", "gemini-cli"])
@pytest.mark.parametrize("name", list(TREES))
def test_hosts_py_loads_what_the_host_loaded(
    name: str, host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path.resolve() / name / "home"))
    cwd = build(tmp_path, name)
    tree = tmp_path.resolve() / name
    observed = OBSERVED["trees"][name][host]
    missing, extra = KNOWN.get((name, host), ([], []))
    expected = sorted([row for row in observed if row not in missing] + extra)
    assert _loaded(tree, cwd, host) == expected
