"""skilldeck's prediction for a batch: what its per-host view (the engine's
``host_views.build_view`` and ``host_listing``, what ``list --host`` and
``catalog --host`` print) says the host lists, in the lab's :class:`Entry` shape."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from host_lab.matrix import Batch, build_tree, case_of, tree_root
from host_lab.observation import TREE, Entry
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.host_views import build_view, host_listing
from skilldeck.engine.hosts import get_host

_CODEX_PATH = re.compile(r" \(file: (?P<path>[^()]*)\)\n?\Z")


@contextmanager
def _home(home: Path) -> Iterator[None]:
    """``HOME`` set to the tree's home while the view is built (hosts' user folders)."""
    old = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        yield
    finally:
        if old is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = old


def predict(batch: Batch, base: Path) -> dict[str, list[Entry]]:
    """Each case's entries as skilldeck says ``batch.host`` lists them (a fresh tree of
    the batch is built under ``base``)."""
    root = tree_root(base, f"m-{batch.host[:6]}-{batch.id}")
    cwd = build_tree(root, batch)
    host = get_host(batch.host)
    with _home(root / "home"):
        config = SkilldeckConfig(
            dsh_home=str(root / "home/.dsh"), agents_home=str(root / "home/.agents")
        )
        view = build_view([host], config, str(cwd))
        lines = host_listing(view, host)
    keys = [entry.key for entry in view.catalogs[host.name].entries if entry.state != "left-out"]
    prefix = str(root)
    ids = [case.id for case in batch.cases]
    cases: dict[str, list[Entry]] = {case_id: [] for case_id in ids}
    for key, line in zip(keys, lines, strict=True):
        file = os.path.relpath(key, prefix) if key.startswith(prefix + os.sep) else None
        owner = case_of((file, line.name), ids)
        if owner is None:
            continue
        shown = line.line.rstrip("\n").replace(prefix, TREE)
        match = _CODEX_PATH.search(shown) if host.catalog.listed_line is not None else None
        text = line.text.replace(prefix, TREE) if line.text is not None else None
        cases[owner].append(
            Entry(line.name, text, match.group("path") if match else None, file, None, shown)
        )
    return cases
