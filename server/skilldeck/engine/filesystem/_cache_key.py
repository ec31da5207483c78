"""Every cache and memo key, derived by one function, :func:`cache_key`, from what can
change an answer, so nothing is bumped by hand:

- skilldeck's own code: :func:`code_digest`, a digest of the Python files whose code
  makes a cached answer (the engine: the rules table, each check, the deck's passes; the
  CLI: check's memos hold its rendering; the package's top-level modules), and its
  version. The language server, the MCP server and the remote clients keep nothing on
  disk but through the engine's caches, so their files are left out (an edit of them
  leaves every cache warm);
- the settings that reach the analysis: the :class:`RuleSettings` fields the settings
  table declares with ``reach`` ``file`` (each file's analysis) or, for a key of deck-wide
  answers, ``deck`` too (``engine/config/_settings_schema.py``);
- the inputs' identity, as the caller gives it (a root's path, a deck's roots, the
  arguments a printed output depends on).

The code digest costs a warm run one ``stat`` per file (about 125, about a millisecond):
the digest of the files' contents is stored beside the cache (``code-<package>.json``)
under the digest of their identities (device, inode, size, mtime, ctime), and recomputed
(a few milliseconds) only when a file changed, as in a source checkout being edited. A
file modified within the racy window is digested but not stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import skilldeck
from skilldeck.engine.disk import load_bytes, read_cache_bytes

if TYPE_CHECKING:
    from skilldeck.engine.config import RuleSettings

#: The folder whose Python files are skilldeck's code.
PACKAGE = Path(skilldeck.__file__).resolve().parent
#: The package's folders whose code makes a cached answer (and the top-level modules).
CODE_FOLDERS = ("engine", "cli")
#: A file modified this recently is digested but its stamp not stored (its identity
#: cannot prove a later same-size edit).
_RACY_NS = 2_000_000_000

_digests: dict[Path, str] = {}


def code_digest(cache_dir: Path | None, package: Path = PACKAGE) -> str:
    """The digest of skilldeck's code: every ``*.py`` file of ``package`` (path and
    bytes) and the version; made once per process, and stored in ``cache_dir`` (when
    given) under the files' identities so that a later run only ``stat``s them."""
    known = _digests.get(package)
    if known is not None:
        return known
    try:
        files = _code_files(package)
    except OSError:  # not a folder of files (a zip import): the version alone
        return f"version:{skilldeck.__version__}"
    # One line per file, in path order: what a later run compares (a tenth of a
    # millisecond of work beside the stats).
    lines = sorted(
        f"{relative}\0{st.st_dev},{st.st_ino},{st.st_size},{st.st_mtime_ns},{st.st_ctime_ns}"
        for relative, st in files.items()
    )
    seen = hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()
    newest = max((st.st_mtime_ns for st in files.values()), default=0)
    stamp = None if cache_dir is None else cache_dir / f"code-{_short(str(package))}.json"
    digest = _stored(stamp, seen) if stamp is not None else None
    if digest is None:
        digest = _contents_digest(package, sorted(files))
        if stamp is not None and newest < time.time_ns() - _RACY_NS:
            _store(stamp, seen, digest)
    _digests[package] = digest
    return digest


def _code_files(package: Path) -> dict[str, os.stat_result]:
    """Each Python file of ``package``'s top level and below its :data:`CODE_FOLDERS`
    (relative path -> ``stat``), no symlink followed."""
    found: dict[str, os.stat_result] = {}
    stack = [(str(package), "", False)]
    while stack:
        folder, prefix, below = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if name.endswith(".py"):
                    found[prefix + name] = entry.stat(follow_symlinks=False)
                elif (
                    name != "__pycache__"
                    and (below or name in CODE_FOLDERS)
                    and entry.is_dir(follow_symlinks=False)
                ):
                    stack.append((entry.path, f"{prefix}{name}/", True))
    return found


def _contents_digest(package: Path, files: list[str]) -> str:
    """BLAKE2b of every file's path and bytes (about 1.3 MB: ~2 ms; SHA-256 took ~10 ms
    on these machines, which have no SHA instructions)."""
    digest = hashlib.blake2b(f"skilldeck {skilldeck.__version__}\0".encode(), digest_size=32)
    for relative in files:
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
        with contextlib.suppress(OSError):
            data = (package / relative).read_bytes()
            digest.update(hashlib.blake2b(data, digest_size=32).digest())
    return digest.hexdigest()


def _stored(stamp: Path, identities: str) -> str | None:
    try:
        payload = load_bytes(read_cache_bytes(stamp))
    except (OSError, ValueError):
        return None
    if not isinstance(payload, dict) or payload.get("identities") != identities:
        return None
    code = payload.get("code")
    return code if isinstance(code, str) else None


def _store(stamp: Path, identities: str, digest: str) -> None:
    from skilldeck.engine.filesystem._index_cache import write_atomically  # noqa: PLC0415

    with contextlib.suppress(OSError, ValueError, TypeError):
        write_atomically(stamp, {"identities": identities, "code": digest})


def _short(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def analysis_settings(settings: RuleSettings | None, reach: Literal["file", "deck"]) -> object:
    """The settings of ``settings`` that reach an answer of ``reach`` (``file``: each
    file's analysis; ``deck``: those and the deck-wide ones), as canonical JSON."""
    if settings is None:
        return None
    from skilldeck.engine.config import SETTINGS  # noqa: PLC0415

    values: dict[str, object] = {}
    for setting in SETTINGS:
        name = setting.analysis_name
        if name is None or name in values or (reach == "file" and setting.reach != "file"):
            continue
        values[name] = setting.kind.to_json(getattr(settings, name))
    return values


def cache_key(
    purpose: str,
    settings: RuleSettings | None,
    *,
    reach: Literal["file", "deck"],
    inputs: object = None,
    cache_dir: Path | None,
) -> str:
    """The key of one cached or memoised answer (see the module doc): ``purpose`` names
    the cache (``index``, ``deck``, ``check-output``, ...), ``settings`` and ``reach`` the
    settings it depends on, ``inputs`` (JSON) the identity of what it was made from.
    ``cache_dir`` is where the code digest's stamp is kept (``None``: not kept)."""
    material = json.dumps(
        [
            purpose,
            skilldeck.__version__,
            code_digest(cache_dir),
            analysis_settings(settings, reach),
            inputs,
        ],
        ensure_ascii=False,
        sort_keys=True,
    )
    return hashlib.sha256(material.encode("utf-8", "surrogateescape")).hexdigest()
