"""Helpers for the remote-source tests: a team repository and a CLI run's result."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_IDENTITY = ("-c", "user.name=Team", "-c", "user.email=team@example.invalid")


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str


Run = Callable[..., Result]


def skill(name: str, description: str = "Review a change the way the team does.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\nBody of {name}.\n"


def deep_chain(top: Path, levels: int) -> Path:
    """``top/d/d/.../d/leaf.txt``, ``levels`` folders deep (made without recursion); the
    deepest folder. Tests that make one use the ``removes_deep_trees`` fixture."""
    path = top
    for _ in range(levels):
        path = path / "d"
        path.mkdir(parents=True)
    (path / "leaf.txt").write_text("leaf", encoding="utf-8")
    return path


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", *_IDENTITY, *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"},
    ).stdout


@dataclass(frozen=True)
class TeamRepo:
    """A work tree (``work``) whose commits are pushed to a bare repository (``bare``)."""

    work: Path
    bare: Path

    @classmethod
    def create(cls, folder: Path) -> TeamRepo:
        work = folder / "work"
        bare = folder / "repo.git"
        work.mkdir(parents=True)
        git("init", "-q", "-b", "main", str(work))
        git("init", "-q", "--bare", "-b", "main", str(bare))
        repo = cls(work, bare)
        repo.write("skills/team-review/SKILL.md", skill("team-review"))
        repo.write("README.md", "The team's skills.\n")
        repo.commit("first skills")
        return repo

    @property
    def file_url(self) -> str:
        return self.bare.as_uri()

    def write(self, relative: str, text: str) -> None:
        path = self.work / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def commit(self, message: str) -> str:
        git("add", "-A", cwd=self.work)
        git("commit", "-q", "-m", message, cwd=self.work)
        git("push", "-q", str(self.bare), "HEAD:main", "--tags", cwd=self.work)
        return git("rev-parse", "HEAD", cwd=self.work).strip()

    def tag(self, name: str) -> None:
        git("tag", name, cwd=self.work)
        git("push", "-q", str(self.bare), f"refs/tags/{name}", cwd=self.work)


def source_config(project: Path, url: str, **keys: object) -> None:
    """Write ``skilldeck.toml`` with one git source named ``team``."""
    lines = ["[[sources]]", 'name = "team"', 'type = "git"', f'url = "{url}"']
    for key, value in keys.items():
        shown = key.replace("_", "-")
        lines.append(f'{shown} = "{value}"' if isinstance(value, str) else f"{shown} = {value}")
    (project / "skilldeck.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


class Daemon:
    """``git daemon`` serving a folder on a loopback address (127.0.0.1, or ``::1``);
    ``stop()`` takes its repositories offline."""

    def __init__(self, base: Path, host: str = "127.0.0.1") -> None:
        self.base = base
        self.host = host
        self.port = _free_port(host)
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, name: str) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"git://{host}:{self.port}/{name}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "git", "daemon", "--reuseaddr", "--export-all", f"--listen={self.host}",
                f"--port={self.port}", f"--base-path={self.base}", str(self.base),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60  # a hang bound: it returns once the port answers
        while time.monotonic() < deadline:
            with socket.socket(_family(self.host)) as probe:
                if probe.connect_ex((self.host, self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("git daemon did not start")

    def stop(self) -> None:
        """Take the repositories off the network: every fetch from now on fails.

        The daemon keeps running and keeps its port. Killing it freed the port, and under
        ``pytest -n`` another worker's daemon could start on that very port and serve the
        same team repository, so a fetch that had to fail succeeded (a flaky CI run).
        Moving the served folder away fails every fetch the same way, deterministically."""
        if self.base.exists():
            self.base.rename(self.base.with_name(self.base.name + ".offline"))

    def close(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _free_port(host: str) -> int:
    with socket.socket(_family(host)) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def ipv6_loopback() -> bool:
    """Whether this machine can listen on ``::1`` (some CI containers have no IPv6)."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True
