"""skilldeck's prediction for a batch: the listing its per-host view (the engine's
``host_views.build_view`` and ``host_listing_text``, what ``list --host`` and
``catalog --host`` print) says the host sends, read back by the same reader as the
host's own listing (:func:`skilldeck.observe.listing.read_listing`) and split by case
as the observations are (:func:`host_lab.observation.split_listing`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from host_lab.matrix import Batch, build_tree, tree_root
from host_lab.observation import Entry, split_listing
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.host_views import build_view, host_listing_text
from skilldeck.engine.hosts import get_host
from skilldeck.observe.listing import read_listing
from skilldeck.observe.wiring import get_wiring


@contextmanager
def _home(home: Path, env: dict[str, str] | None = None) -> Iterator[None]:
    """``HOME`` set to the tree's home while the view is built (hosts' user folders),
    and the variables the batch's cases set in the host's environment."""
    values = {"HOME": str(home), **(env or {})}
    old = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in old.items():
            if value is None:
                del os.environ[key]
            else:
                os.environ[key] = value


def predicted_text(batch: Batch, base: Path) -> tuple[str, Path]:
    """The listing skilldeck says ``batch.host`` sends for ``batch``'s tree (built fresh
    under ``base``), and the tree's root."""
    root = tree_root(base, f"m-{batch.host[:6]}-{batch.id}")
    cwd = build_tree(root, batch)
    host = get_host(batch.host)
    with _home(root / "home", batch.env):
        config = SkilldeckConfig(
            dsh_home=str(root / "home/.dsh"), agents_home=str(root / "home/.agents")
        )
        view = build_view([host], config, str(cwd))
        text = host_listing_text(view, host)
    return text, root


def predict(batch: Batch, base: Path) -> dict[str, list[Entry]]:
    """Each case's entries as skilldeck says ``batch.host`` lists them."""
    text, root = predicted_text(batch, base)
    listing = read_listing(text, get_wiring(batch.host).fmt)
    return split_listing(listing, batch, root).cases
