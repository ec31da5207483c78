"""``python -m skilldeck`` started in a workspace imports nothing from it.

``python -m`` puts the working directory first on ``sys.path``; a workspace holding a
``typing.py`` (or ``logging.py``) had it imported in place of the standard library's by
``python -m skilldeck serve``, the language server's documented command. The modules
here are real and hostile: imported, they leave a mark and end the process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HOSTILE = (
    "import pathlib, sys\n"
    "pathlib.Path(__file__).with_suffix('.imported').write_text(sys.argv[0])\n"
    "raise SystemExit(99)\n"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    (folder / ".git").mkdir(parents=True)
    for name in ("typing", "logging", "json", "asyncio"):
        (folder / f"{name}.py").write_text(HOSTILE, encoding="utf-8")
    return folder


def _environment(tmp_path: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DSH_", "SKILLDECK_", "PYTHONSAFEPATH"))
    }
    env.update(
        {
            "HOME": str(tmp_path / "home"),
            "DSH_HOME": str(tmp_path / "home" / ".dsh"),
            "DSH_AGENTS_HOME": str(tmp_path / "home" / ".agents"),
            "SKILLDECK_CACHE_DIR": str(tmp_path / "cache"),
        }
    )
    return env


def _imported(workspace: Path) -> list[str]:
    return sorted(path.stem for path in workspace.glob("*.imported"))


def _initialize() -> bytes:
    """An LSP ``initialize`` request, then ``shutdown`` and ``exit``, as framed bytes."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    framed = b""
    for message in messages:
        body = json.dumps(message).encode()
        framed += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return framed


@pytest.mark.parametrize("module", ["skilldeck", "skilldeck.lsp"])
def test_the_language_server_run_with_dash_m_imports_nothing_from_the_workspace(
    workspace: Path, tmp_path: Path, module: str
) -> None:
    args = ["serve"] if module == "skilldeck" else []
    result = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=workspace,
        env=_environment(tmp_path),
        input=_initialize(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert _imported(workspace) == []
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert b'"capabilities"' in result.stdout  # it answered initialize


def test_a_command_run_with_dash_m_imports_nothing_from_the_workspace(
    workspace: Path, tmp_path: Path
) -> None:
    result = subprocess.run(
        [sys.executable, "-X", "utf8", "-m", "skilldeck", "check", "--format", "json"],
        cwd=workspace,
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert _imported(workspace) == []
    assert (result.returncode, result.stdout) == (0, "[]\n"), result.stderr


def test_a_program_of_the_user_run_with_dash_m_keeps_its_working_directory(
    tmp_path: Path,
) -> None:
    """Only skilldeck's own ``-m`` drops the entry: a module of the user's, run with
    ``-m``, that imports skilldeck still imports its neighbours."""
    folder = tmp_path / "tool"
    folder.mkdir()
    (folder / "neighbour.py").write_text("VALUE = 'from the working directory'\n")
    (folder / "mytool.py").write_text(
        "import skilldeck\nimport neighbour\nprint(neighbour.VALUE)\n", encoding="utf-8"
    )
    result = subprocess.run(
        [sys.executable, "-m", "mytool"],
        cwd=folder,
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "from the working directory\n"), result.stderr


@pytest.mark.skipif(sys.version_info < (3, 11), reason="-P is Python 3.11+")
def test_dash_p_keeps_a_workspace_skilldeck_folder_out(workspace: Path, tmp_path: Path) -> None:
    """What the package cannot do for itself (a ``skilldeck/`` folder in the working
    directory is found before it is), ``-P`` does, as ``docs/cli.md`` says."""
    fake = workspace / "skilldeck"
    fake.mkdir()
    (fake / "__init__.py").write_text(HOSTILE, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-P", "-m", "skilldeck", "--version"],
        cwd=workspace,
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, _imported(workspace)) == (0, [])
    assert (fake / "__init__.imported").exists() is False
    assert result.stdout.startswith("skilldeck ")
