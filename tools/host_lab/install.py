"""The lock file of pinned host releases, and installing them from npm into a cache
outside the repository (``~/.cache/skilldeck/host-lab/<host>-<version>``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]


LOCK = Path(__file__).with_name("lock.toml")


@dataclass(frozen=True)
class Pinned:
    """One host release the lab observes."""

    host: str
    package: str
    version: str
    command: tuple[str, ...]

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"


@dataclass(frozen=True)
class Lock:
    node_package: str
    node_version: str
    node_binary: str
    hosts: dict[str, Pinned]


def read_lock(path: Path = LOCK) -> Lock:
    data = tomllib.loads(path.read_text("utf-8"))
    runtime = data["runtime"]
    hosts = {
        name: Pinned(name, entry["package"], entry["version"], tuple(entry["command"]))
        for name, entry in data["hosts"].items()
    }
    return Lock(runtime["node-package"], runtime["node-version"], runtime["node-binary"], hosts)


def cache_dir() -> Path:
    """Where installs go: ``$SKILLDECK_HOST_LAB_CACHE`` or ``~/.cache/skilldeck/host-lab``."""
    configured = os.environ.get("SKILLDECK_HOST_LAB_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skilldeck" / "host-lab"


def _install(folder: Path, spec: str) -> float:
    """``npm install spec`` into ``folder`` (once: a stamp file names what is there);
    returns the seconds it took (0 when it was there)."""
    stamp = folder / ".host-lab-installed"
    if stamp.is_file() and stamp.read_text("utf-8") == spec:
        return 0.0
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("host-lab: npm is not on PATH (the hosts install from the npm registry)")
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    # A named private package: npm installs into it (a bare folder whose name looks like a
    # package spec confuses npm).
    (folder / "package.json").write_text(
        json.dumps({"name": "skilldeck-host-lab-install", "private": True}), "utf-8"
    )
    started = time.monotonic()
    completed = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--no-save", "--ignore-scripts", spec],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        sys.stderr.write(completed.stdout + completed.stderr)
        raise SystemExit(f"host-lab: npm install {spec} failed (exit {completed.returncode})")
    stamp.write_text(spec, "utf-8")
    return time.monotonic() - started


def node_path(lock: Lock) -> Path:
    return cache_dir() / f"node-{lock.node_version}" / lock.node_binary


def install_node(lock: Lock) -> float:
    return _install(
        cache_dir() / f"node-{lock.node_version}", f"{lock.node_package}@{lock.node_version}"
    )


def install_folder(pinned: Pinned) -> Path:
    return cache_dir() / f"{pinned.host}-{pinned.version}"


def install_host(pinned: Pinned) -> float:
    return _install(install_folder(pinned), pinned.spec)


def host_argv(pinned: Pinned) -> list[str]:
    folder = install_folder(pinned)
    return [str(folder / part) for part in pinned.command]
