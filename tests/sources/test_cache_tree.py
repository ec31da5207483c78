"""The source cache's trees, walked and removed without recursion and without following
a symlink out of the tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from source_helpers import deep_chain

from skilldeck.engine.sources._cache_tree import TreeTooDeep, remove_tree, walk_tree

DEEP = 1_100  # deeper than Python's default recursion limit
pytestmark = pytest.mark.usefixtures("removes_deep_trees")


def test_a_deep_tree_is_walked_and_removed_and_a_symlink_out_is_not_followed(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep", encoding="utf-8")
    tree = tmp_path / "tree"
    deep_chain(tree, DEEP)
    os.symlink(outside, tree / "link")

    entries = {entry.relative: entry for entry in walk_tree(tree)}
    assert len(entries) == DEEP + 2  # the folders, the leaf and the link
    leaf = entries["/".join(["d"] * DEEP + ["leaf.txt"])]
    assert (leaf.is_dir, leaf.size, leaf.depth) == (False, 4, DEEP)
    assert entries["link"].is_dir is False  # a symlink is never a folder to walk into
    assert not any(relative.startswith("link/") for relative in entries)

    assert remove_tree(tree) is True
    assert not tree.exists()
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "keep"


def test_a_walk_stops_at_its_depth_limit(tmp_path: Path) -> None:
    deep_chain(tmp_path / "tree", 12)
    assert len(list(walk_tree(tmp_path / "tree", max_depth=12))) == 13
    with pytest.raises(TreeTooDeep, match="folders nested more than 11 deep"):
        list(walk_tree(tmp_path / "tree", max_depth=11))


def test_removing_a_missing_folder_or_a_symlink_to_one(tmp_path: Path) -> None:
    assert remove_tree(tmp_path / "missing") is True
    target = tmp_path / "target"
    (target / "inside").mkdir(parents=True)
    os.symlink(target, tmp_path / "alias")
    assert remove_tree(tmp_path / "alias") is True
    assert not os.path.lexists(tmp_path / "alias")
    assert (target / "inside").is_dir()  # the link went, not what it points to
