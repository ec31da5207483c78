"""``uri_of`` / ``path_of`` for POSIX and Windows paths (the Windows flavour is tested on
any system with ``windows=True``; ``PureWindowsPath`` compares the paths)."""

from __future__ import annotations

from pathlib import PureWindowsPath

import pytest

from skilldeck.lsp.file_uris import path_of, uri_of


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        (r"C:\Users\me\.dsh\skills\a b\SKILL.md", "file:///C:/Users/me/.dsh/skills/a%20b/SKILL.md"),
        ("d:\\work\\caf\u00e9.md", "file:///d:/work/caf%C3%A9.md"),
        (r"\\server\share\skills\x.md", "file://server/share/skills/x.md"),
        (r"C:\100%\#x.md", "file:///C:/100%25/%23x.md"),
    ],
)
def test_windows_paths_round_trip(path: str, uri: str) -> None:
    assert uri_of(path, windows=True) == uri
    back = path_of(uri, windows=True)
    assert back is not None
    assert PureWindowsPath(back) == PureWindowsPath(path)
    assert back == path


def test_windows_reads_what_vs_code_sends() -> None:
    # VS Code lower-cases the drive letter and escapes its colon.
    sent = "file:///c%3A/Users/me/.dsh/skills/pdf/SKILL.md"
    path = path_of(sent, windows=True)
    assert path == r"c:\Users\me\.dsh\skills\pdf\SKILL.md"
    assert PureWindowsPath(path) == PureWindowsPath(r"C:\Users\me\.dsh\skills\pdf\SKILL.md")


def test_posix_paths_keep_their_bytes() -> None:
    assert uri_of("/tmp/a b/caf\udce9.md", windows=False) == "file:///tmp/a%20b/caf%E9.md"
    assert path_of("file:///tmp/a%20b/caf%E9.md", windows=False) == "/tmp/a b/caf\udce9.md"
    assert path_of("file://remote/x.md", windows=False) is None
    assert path_of("untitled:Untitled-1", windows=False) is None
