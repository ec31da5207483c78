"""The editor never shows an analysis another version of the code made (issue #42): the
index cache a check of the unedited code warmed is not read by a server whose rules
table changed, so the diagnostics it pushes are the new code's."""

from __future__ import annotations

import subprocess
import sys

import pytest
from lsp_harness import Deck, StartServer, codes, diagnostics_of


@pytest.mark.timeout(120)
async def test_the_editor_reads_no_analysis_of_other_code(
    deck: Deck, start_server: StartServer, package_copy, monkeypatch: pytest.MonkeyPatch
) -> None:
    nodesc = deck.write(deck.project_dsh, "nodesc", "---\nname: nodesc\n---\nBody.\n")
    deck.write(deck.project_dsh, "clean")
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(deck.base / "cache"))
    for key, value in package_copy.env().items():
        monkeypatch.setenv(key, value)
    # The unedited code analyses the deck and writes the index cache.
    warm = subprocess.run(
        [sys.executable, "-m", "skilldeck", "check", "--cwd", str(deck.project)],
        env=deck.env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert warm.returncode == 1, warm.stderr
    assert "missing required key 'description'" in warm.stdout
    assert list((deck.base / "cache").glob("root-*.json"))

    package_copy.edit(
        "message=\"missing required key 'description'\"",
        'message="no description: the catalog would have nothing to show"',
    )
    client = await start_server()  # the edited copy (PYTHONPATH), the warm cache
    found = await diagnostics_of(client, nodesc, bool)
    assert codes(found) == ["SD204"]
    assert found[0].message == (
        "no description: the catalog would have nothing to show (skill not loaded)"
    )
