"""A persistent cache of per-file analyses, so a warm scan does not re-parse YAML.

One JSON file per (skill root, version key) under the cache directory
(``$SKILLDECK_CACHE_DIR``, else ``platformdirs.user_cache_dir("skilldeck")``). Each
entry maps a child path relative to the root to the file's identity (device, inode,
size, mtime and ctime in ns) and its :meth:`SkillFileAnalysis.to_json`. The key
(:func:`~skilldeck.engine.filesystem.cache_key`, the one function every cache's key comes
from) digests skilldeck's code, the settings that reach a file's analysis and the root, so
a changed rule, check, profile or override never reads another one's verdicts; no format
number is bumped by hand.

Guarantees: JSON only (never pickle); a cache file is replaced atomically (temporary
file plus ``os.replace``), so concurrent processes see either the old or the new file;
an unreadable, corrupt or foreign cache file is a miss and is rewritten (one that is not
a regular file, a FIFO say, is never opened for a blocking read); an entry is
used only when the file's identity is unchanged, and a file modified within
:data:`RACY_WINDOW_NS` of the scan is never stored (its times cannot prove a later
same-size edit). The ctime is part of the identity because the mtime can be set back
(``cp -p``, ``rsync -t``, ``touch -r``) and the ctime cannot: a same-size rewrite with
its mtime restored is a miss. (The racy window is judged by the mtime: a file whose
mtime was set back is stored at once, and a second same-size rewrite would have to land
within the filesystem's ctime resolution to go unseen.) Skill bodies are never cached.
``cache=None`` everywhere means no cache.

Beside the per-root files, a *deck memo* (``deck-<locator>.json``) remembers what
``skilldeck check`` reported for one deck (its roots under one setting): per skill file
its findings (deck-level ones included) and whether it was accepted, plus the roots'
scan problems and completeness. It is used only when the deck's :class:`DeckKey`
digest (computed by ``fs_provider.deck_key`` from a listing and ``stat`` of every root
and skill file) is the stored one and the per-root cache files it was built beside are
unchanged (deleting or corrupting those invalidates it too); the same atomicity and
corruption rules apply. An *output memo* (``output-<locator>.json``) goes one step
further for a whole ``check`` invocation made only of decks: the text it printed, keyed
by those decks' keys and everything else the output depends on.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skilldeck.engine.disk import dump_bytes, has_non_finite, load_bytes, read_cache_bytes
from skilldeck.engine.filesystem._cache_key import cache_key
from skilldeck.engine.text import Position, Span

if TYPE_CHECKING:
    from skilldeck.engine.config import RuleSettings
    from skilldeck.engine.files import SkillFileAnalysis

#: Files modified this recently (relative to the scan start) are not stored.
RACY_WINDOW_NS = 2_000_000_000

CACHE_DIR_ENV = "SKILLDECK_CACHE_DIR"


@dataclass(frozen=True, slots=True)
class FileIdentity:
    """What must be unchanged for a cached analysis to stand."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    #: The inode change time: a restored mtime (``touch -r``) cannot set it back.
    ctime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileIdentity:
        """The identity of a ``stat`` result."""
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def as_list(self) -> list[int]:
        """JSON form."""
        return [self.device, self.inode, self.size, self.mtime_ns, self.ctime_ns]


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$SKILLDECK_CACHE_DIR`` when set and non-empty, else the platform's user cache dir."""
    env = os.environ if environ is None else environ
    override = env.get(CACHE_DIR_ENV)
    if override:
        return Path(os.path.expanduser(override))
    import platformdirs  # noqa: PLC0415

    return Path(platformdirs.user_cache_dir("skilldeck", appauthor=False))


class IndexCache:
    """The cache directory; hands out one :class:`RootCache` per root and settings."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    @classmethod
    def default(cls, environ: Mapping[str, str] | None = None) -> IndexCache:
        """A cache in :func:`default_cache_dir`."""
        return cls(default_cache_dir(environ))

    def key_for(self, root_path: str, settings: RuleSettings) -> str:
        """The key of ``root_path``'s entries under ``settings`` (:func:`cache_key`)."""
        return cache_key(
            "index", settings, reach="file", inputs=root_path, cache_dir=self.directory
        )

    def file_for(self, root_path: str, settings: RuleSettings) -> Path:
        """Where the entries of ``root_path`` under ``settings`` are stored."""
        return self.directory / f"root-{self.key_for(root_path, settings)[:40]}.json"

    def open_root(self, root_path: str, settings: RuleSettings) -> RootCache:
        """Load (or start empty) the cache of one root; a bad file is an empty cache."""
        file = self.file_for(root_path, settings)
        key = self.key_for(root_path, settings)
        entries = _load(file, key, root_path)
        return RootCache(
            file=file,
            key=key,
            root_path=root_path,
            _stored=entries if entries is not None else {},
            _dirty=entries is None,
        )


@dataclass
class RootCache:
    """The cached entries of one root during one scan. Not thread-safe: one scan owns it.

    ``lookup`` marks an entry as still present; ``flush`` writes what was looked up or
    stored during this scan (entries of vanished files are dropped).
    """

    file: Path
    key: str
    root_path: str
    _stored: dict[str, Any]
    _dirty: bool
    _kept: dict[str, Any] = field(default_factory=dict)
    _scan_started_ns: int = field(default_factory=time.time_ns)

    def holds(self, child: str) -> bool:
        """Whether an entry for ``child`` is stored (its identity is not checked)."""
        return child in self._stored

    def lookup(self, child: str, identity: FileIdentity) -> tuple[SkillFileAnalysis, Span] | None:
        """The cached analysis (and ``name`` value span) of ``child`` if its identity is
        unchanged, else ``None``."""
        raw = self._stored.get(child)
        found = read_record(raw, identity)
        if found is None:
            if raw is not None:
                self._dirty = True
            return None
        self._kept[child] = raw
        return found

    def store(
        self, child: str, identity: FileIdentity, analysis: SkillFileAnalysis, name_span: Span
    ) -> None:
        """Remember ``analysis`` for ``child`` (skipped for racily fresh files)."""
        record = make_record(identity, analysis, name_span)
        if record is not None:
            self.store_record(child, identity, record)

    def store_record(self, child: str, identity: FileIdentity, record: dict[str, Any]) -> None:
        """Remember a record made by :func:`make_record` (skipped for racily fresh files).

        It is kept encoded: as a tree of objects a record weighs ~3 times its JSON, and a
        cold scan of 10,000 skills held ~23 MB of them until the flush."""
        if identity.mtime_ns >= self._scan_started_ns - RACY_WINDOW_NS:
            return
        try:
            # A copy: orjson's bytes keep the capacity they were written into (~8 KB
            # for a record of ~700 bytes).
            self._kept[child] = bytes(memoryview(dump_bytes(record)))
        except (ValueError, TypeError):
            return  # analysed again next time
        self._dirty = True

    def flush(self) -> None:
        """Write the entries seen in this scan if anything changed; errors are ignored."""
        if not self._dirty and self._kept.keys() == self._stored.keys():
            return
        head = dump_bytes({"key": self.key, "root": self.root_path})
        kept = self._kept

        def chunks() -> Iterable[bytes]:
            yield head[:-1] + b',"entries":{'
            for index, (child, record) in enumerate(kept.items()):
                encoded = record if isinstance(record, bytes) else dump_bytes(record)
                yield (b"," if index else b"") + dump_bytes(child) + b":" + encoded
            yield b"}}"

        try:
            write_chunks_atomically(self.file, chunks())
        except (OSError, ValueError, TypeError):
            return
        self._stored = dict(kept)
        self._dirty = False


def make_record(
    identity: FileIdentity, analysis: SkillFileAnalysis, name_span: Span
) -> dict[str, Any] | None:
    """The JSON form of one file's analysis, as the cache stores it; ``None`` for the rare
    analysis JSON cannot keep exactly (a NaN or infinity in its metadata): such a file
    is analysed again each time."""
    if analysis.metadata is not None and has_non_finite(dict(analysis.metadata)):
        return None
    span = [name_span.start.line, name_span.start.character]
    span += [name_span.end.line, name_span.end.character]
    return {"id": identity.as_list(), "name_span": span, "analysis": analysis.to_json()}


def read_record(raw: object, identity: FileIdentity) -> tuple[SkillFileAnalysis, Span] | None:
    """The analysis and ``name`` span of a record made for ``identity``; ``None`` when the
    record is for another identity or malformed."""
    # Imported here: a run that only takes keys (a warm `check` answered by its memo)
    # imports none of the analysis code (the YAML parser, the rules).
    from skilldeck.engine.files import SkillFileAnalysis  # noqa: PLC0415

    if isinstance(raw, bytes):  # a record this process stored (kept encoded)
        try:
            raw = load_bytes(raw)
        except ValueError:
            return None
    if not isinstance(raw, dict) or raw.get("id") != identity.as_list():
        return None
    try:
        analysis = SkillFileAnalysis.from_json(raw["analysis"])
        line0, char0, line1, char1 = (int(n) for n in raw["name_span"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return analysis, Span(Position(line0, char0), Position(line1, char1))


def write_atomically(file: Path, payload: object) -> None:
    """Write ``payload`` as JSON to a temporary file beside ``file``, then ``os.replace``."""
    write_chunks_atomically(file, (dump_bytes(payload),))


def write_chunks_atomically(file: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` one after another to a temporary file beside ``file``, then
    ``os.replace``; an error while they are made leaves ``file`` as it was."""
    chunks = iter(chunks)
    first = next(chunks, b"")  # made before any file is: an encoding error leaves none
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(first)
            for chunk in chunks:
                handle.write(chunk)
        os.replace(tmp, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def identity_of_file(file: Path) -> list[int] | None:
    try:
        return FileIdentity.of(file.stat()).as_list()
    except OSError:
        return None


def _load(file: Path, key: str, root_path: str) -> dict[str, Any] | None:
    """Entries of a cache file, or ``None`` when it is missing, corrupt or foreign."""
    try:
        payload = load_bytes(read_cache_bytes(file))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(payload, dict)
        or payload.get("key") != key
        or payload.get("root") != root_path
        or not isinstance(payload.get("entries"), dict)
    ):
        return None
    entries: dict[str, Any] = payload["entries"]
    return entries
