"""Watcher failure: a root deleted and recreated, and a root whose permission is revoked.

The server is started without client-side watching, so its own watchfiles watcher
(``engine/filesystem/_watch.py`` through ``lsp/watching.py``) is what keeps the index true.
"""

from __future__ import annotations

import os
import shutil

from lsp_harness import Deck, codes, diagnostics_of, skill_text, uri

BAD = "---\nname: Bad_Name\ndescription: d\n---\nbody\n"
# No pause before deleting or recreating a root: roots are listed before the scan, and
# what changed up to the moment a watch is live is re-read once it is (see
# test_a_change_right_after_the_first_diagnostics_is_seen), so each step may come at once.


async def test_a_root_deleted_and_recreated_is_followed(deck: Deck, start_server):
    path = deck.write(deck.project_dsh, "alpha", BAD)
    deck.write(deck.project_agents, "beta")
    client = await start_server()
    [diagnostic] = await diagnostics_of(client, path, lambda d: len(d) == 1)
    assert diagnostic.code == "SD203"
    shutil.rmtree(deck.project_dsh)
    assert await diagnostics_of(client, path, lambda d: d == []) == []
    deck.write(deck.project_dsh, "alpha", BAD)
    [again] = await diagnostics_of(client, path, lambda d: len(d) == 1)
    assert again.code == "SD203"
    # Repaired on disk after the recreation: the watcher still sees the new root.
    path.write_text(skill_text("alpha"), encoding="utf-8")
    assert await diagnostics_of(client, path, lambda d: d == []) == []
    assert uri(path) in client.diagnostics


async def test_a_root_made_unreadable_never_hides_other_roots(deck: Deck, start_server):
    """As root, mode 000 does not bind: this proves only that nothing breaks.

    Tests run as root here, so ``chmod 000`` cannot make the folder unreadable; the
    engine-level refusal is covered by ``tests/engine/test_hostile_trees.py`` where a
    non-root run is possible. What this proves: revoking permission on one root while
    the server runs neither stops the server nor hides another root's diagnostics.
    """
    locked = deck.write(deck.project_dsh, "alpha", BAD)
    other = deck.write(deck.project_agents, "beta", BAD.replace("Bad_Name", "Beta_Bad"))
    client = await start_server()
    await diagnostics_of(client, locked, lambda d: len(d) == 1)
    os.chmod(deck.project_dsh, 0)
    try:
        other.write_text(skill_text("beta"), encoding="utf-8")
        assert await diagnostics_of(client, other, lambda d: d == []) == []
        other.write_text(BAD.replace("Bad_Name", "Beta_Bad"), encoding="utf-8")
        [diagnostic] = await diagnostics_of(client, other, lambda d: len(d) == 1)
        assert "Beta_Bad" in diagnostic.message
    finally:
        os.chmod(deck.project_dsh, 0o755)


async def test_a_change_right_after_the_first_diagnostics_is_seen(deck: Deck, start_server):
    """No pause between the first diagnostics and the edit: the watcher must be live."""
    path = deck.write(deck.project_dsh, "alpha", BAD)
    client = await start_server()
    await diagnostics_of(client, path, lambda d: codes(d) == ["SD203"])
    path.write_text(skill_text("alpha"), encoding="utf-8")
    assert await diagnostics_of(client, path, lambda d: d == []) == []
