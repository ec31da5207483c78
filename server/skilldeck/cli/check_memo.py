"""The memos of ``skilldeck check``: what a deck's check reported, and what a whole
invocation printed, stored beside the engine's per-file cache and reused while nothing
they depend on changed. CLI-only: the engine's :class:`~skilldeck.engine.filesystem.
IndexCache` caches analyses; these memos cache *reports*.

A deck memo is keyed by :func:`deck_key` (every root's listing and every skill file's
identity, and what each bundle's SD10xx scan depends on: its folders' identities and
entries and its other files' identities, from a pass that lists and stats but reads
nothing); an output memo by the decks it checked plus the format, colour, cwd and fail
level. A bundle folder's listing is kept beside the memos (``bundles-<locator>.json``)
and reused while the folder keeps its identity, so a warm key stats each folder
instead of listing it.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import os
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TextIO, cast

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.disk import dump_bytes, load_bytes, read_cache_bytes
from skilldeck.engine.files import finding_from_json, finding_to_json, json_bool, json_int, json_str
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    RACY_WINDOW_NS,
    IndexCache,
    SkillRoot,
    cache_key,
    identity_of_file,
    listed_child_layout,
    stray_files,
    write_atomically,
    write_chunks_atomically,
)
from skilldeck.engine.rules import Finding
from skilldeck.engine.safety import FolderListings, bundle_state, open_folder

# No format number: every locator comes from ``cache_key``, which digests skilldeck's
# code (this module's shapes included), so a memo another version wrote is never found.


@dataclass(frozen=True, slots=True)
class DeckKey:
    """Names a deck memo: ``locator`` picks the file (version, settings, roots) and
    ``digest`` must match its stored key (``locator`` plus every listing and file
    identity of the deck)."""

    locator: str
    digest: str


@dataclass(frozen=True, slots=True)
class MemoFile:
    """One skill file of a deck memo: its findings (deck-level included) and verdict; or
    a file of a bundle with safety findings, ``owner`` naming its skill file."""

    path: str
    accepted: bool
    findings: tuple[Finding, ...]
    wide_lines: tuple[tuple[int, str], ...] = ()
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class DeckMemo:
    """What ``check`` reports for one deck: its files in scan order, the roots' scan
    problems, and whether every root scanned completely."""

    files: tuple[MemoFile, ...]
    problems: tuple[str, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class OutputMemo:
    """What one ``check`` invocation printed: its stderr warnings, its stdout (in pieces
    that concatenate to it: a large output is never held twice) and its exit status (keyed
    by every deck it checked plus the format, colour, cwd and fail level)."""

    warnings: tuple[str, ...]
    pieces: tuple[str, ...]
    status: int
    #: The stdout as a memo file holds it (UTF-8, lone surrogates kept), for a memo read
    #: back: its ``pieces`` are then empty, and the text is decoded only when a stream
    #: needs text (:meth:`write`).
    encoded: bytes | None = None

    @property
    def stdout(self) -> str:
        """The printed text in one string."""
        if self.encoded is not None:
            return self.encoded.decode("utf-8", "surrogatepass")
        return "".join(self.pieces)

    def write(self, stream: TextIO) -> None:
        """Print the stdout on ``stream`` and flush it.

        A memo read back goes to the stream's byte layer unchanged when that writes the
        same bytes the text layer would: UTF-8 without newline translation, and no lone
        surrogate in the text (which the stream's error handler would escape; UTF-8 spells
        one with the byte 0xED). A warm ``check`` at 10,000 skills then neither decodes
        nor re-encodes its 11 MB."""
        encoded = self.encoded
        if encoded is not None:
            buffer = _byte_layer(stream)
            if buffer is not None and b"\xed" not in encoded:
                stream.flush()
                buffer.write(encoded)
                buffer.flush()
                return
        for text in self.pieces if encoded is None else (self.stdout,):
            write_text(stream, text)
        stream.flush()


def write_text(stream: TextIO, text: str) -> None:
    """Write ``text`` on ``stream`` in slices: the text layer encodes what it is given in
    one piece, and a copy of a whole output (11 MB at 10,000 skills) would be the run's
    peak memory."""
    for start in range(0, len(text), _WRITE_SLICE):
        stream.write(text[start : start + _WRITE_SLICE])


#: Characters of output encoded and written at a time (:func:`write_text`).
_WRITE_SLICE = 1 << 20


def _byte_layer(stream: TextIO) -> BinaryIO | None:
    """The byte stream under ``stream`` when it writes text as plain UTF-8 with ``\\n``
    line ends (``None`` otherwise: another encoding, or Windows, where the standard
    streams write ``\\r\\n``)."""
    buffer = getattr(stream, "buffer", None)
    encoding = getattr(stream, "encoding", None)
    if buffer is None or not isinstance(encoding, str) or os.linesep != "\n":
        return None
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return None
    return cast("BinaryIO", buffer) if utf8 else None


class CheckMemos:
    """The deck and output memos of ``check``, in the directory of ``cache``."""

    def __init__(self, cache: IndexCache) -> None:
        self.cache = cache

    def deck_file_for(self, key: DeckKey) -> Path:
        """Where the memo of the deck ``key`` names is stored."""
        return self.deck_file_for_locator(key.locator)

    def deck_file_for_locator(self, locator: str) -> Path:
        """Where the memo of a deck with this locator is stored (see ``deck_locator``)."""
        return self.cache.directory / f"deck-{locator[:40]}.json"

    def output_file_for(self, key: DeckKey) -> Path:
        """Where the output memo ``key`` names is stored."""
        return self.cache.directory / f"output-{key.locator[:40]}.json"

    def listings_file_for(self, locator: str) -> Path:
        """Where the bundle folders' listings of a deck with this locator are kept."""
        return self.cache.directory / f"bundles-{locator[:40]}.json"

    def load_listings(self, locator: str) -> FolderListings:
        """The bundle folders' listings the last key of this deck used (empty when missing
        or corrupt: every folder is listed then), for a key taken now."""
        known: dict[str, Any] = {}
        with contextlib.suppress(OSError, ValueError):
            payload = load_bytes(read_cache_bytes(self.listings_file_for(locator)))
            if (
                isinstance(payload, dict)
                and payload.get("locator") == locator
                and isinstance(payload.get("folders"), dict)
            ):
                known = payload["folders"]
        return FolderListings(known, racy_window_ns=RACY_WINDOW_NS)

    def store_listings(self, locator: str, listings: FolderListings) -> None:
        """Keep the listings a key used, when they differ from the ones it started from."""
        if listings.changed():
            payload = {"locator": locator, "folders": listings.seen}
            with contextlib.suppress(OSError, ValueError, TypeError):
                write_atomically(self.listings_file_for(locator), payload)

    def load_deck_memo(self, key: DeckKey) -> DeckMemo | None:
        """The memo stored under ``key``; ``None`` when missing, stale, corrupt or foreign."""

        payload = _load_memo(self.cache, self.deck_file_for(key), key)
        if payload is None:
            return None
        try:
            files = tuple(
                MemoFile(
                    json_str(path),
                    json_bool(accepted),
                    tuple(finding_from_json(item) for item in findings),
                    tuple((json_int(number), json_str(text)) for number, text in wide),
                    None if owner is None else json_str(owner),
                )
                for path, accepted, findings, wide, owner in payload["files"]
            )
            problems = tuple(json_str(problem) for problem in payload["problems"])
            complete = json_bool(payload["complete"])
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        return DeckMemo(files, problems, complete)

    def store_deck_memo(self, key: DeckKey, memo: DeckMemo, *, companions: Sequence[Path]) -> None:
        """Write ``memo`` under ``key`` atomically; errors are ignored (a later miss).

        ``companions`` are the per-root cache files the memo was built beside; it stands
        only while they keep the identity they have now.
        """

        files = (
            [
                item.path,
                item.accepted,
                [finding_to_json(f) for f in item.findings],
                [[number, text] for number, text in item.wide_lines],
                item.owner,
            ]
            for item in memo.files
        )
        body = {"problems": list(memo.problems), "complete": memo.complete}
        _store_memo(self.cache, self.deck_file_for(key), key, body, companions, files=files)

    def load_output_memo(self, key: DeckKey) -> OutputMemo | None:
        """The output memo stored under ``key``; ``None`` when missing, stale or corrupt.

        The file is the output itself, as it was printed (a warm run writes it out without
        parsing it out of a JSON string), a line break, and one line of JSON: the key,
        companions, warnings, status and the output's length in bytes. The JSON comes
        last because the output is stored while it is printed (:class:`OutputDraft`)."""
        try:
            data = read_cache_bytes(self.output_file_for(key))
            # JSON on one line holds no line break: the last one before the end opens it.
            end = data.rindex(b"\n", 0, len(data) - 1)
            payload = load_bytes(data[end + 1 :])
        except (OSError, ValueError):
            return None
        if not isinstance(payload, dict) or not _header_holds(self.cache, payload, key):
            return None
        try:
            warnings = tuple(json_str(line) for line in payload["warnings"])
            status = payload["status"]
            size = payload["stdout_bytes"]
            if (
                not isinstance(status, int)
                or isinstance(status, bool)
                or not isinstance(size, int)
                or end != size
            ):
                return None
            stdout = data[:end]
        except (KeyError, TypeError, ValueError):
            return None
        return OutputMemo(warnings, (), status, encoded=stdout)

    def draft_output(self) -> OutputDraft:
        """A draft of an output memo, to write the output into as it is printed. Drafts
        and temporary files a killed run left behind (untouched for an hour) go first."""
        _sweep_leftovers(self.cache.directory, time.time() - _LEFTOVER_AGE_S)
        return OutputDraft(self.cache.directory)

    def keep_output(
        self,
        draft: OutputDraft,
        key: DeckKey,
        *,
        warnings: Sequence[str],
        status: int,
        companions: Sequence[Path],
    ) -> None:
        """Keep ``draft`` as the output memo of ``key`` (atomically; see
        :meth:`store_deck_memo`); a draft that could not be written is dropped."""
        body = {"warnings": list(warnings), "status": status, "stdout_bytes": draft.size}
        header = _memo_header(self.cache, key, body, companions)
        if header is None:
            draft.discard()
            return
        with contextlib.suppress(OSError, ValueError, TypeError):
            draft.keep(self.output_file_for(key), dump_bytes(header))
        draft.discard()

    def store_output_memo(
        self, key: DeckKey, memo: OutputMemo, *, companions: Sequence[Path]
    ) -> None:
        """Write ``memo`` under ``key``: :meth:`keep_output` of a draft holding its text."""
        draft = self.draft_output()
        for text in memo.pieces:
            draft.add(text)
        self.keep_output(
            draft, key, warnings=memo.warnings, status=memo.status, companions=companions
        )


#: A temporary file of the cache directory untouched for this long was left by a run
#: that was killed (a live run writes its draft as it prints).
_LEFTOVER_AGE_S = 3600


def _sweep_leftovers(directory: Path, before: float) -> None:
    """Remove the temporary files (``.tmp-*``: drafts, atomic writes) in ``directory``
    last modified before ``before``. One listing of the cache directory; errors ignored.
    (A run still writing one only loses its memo: the file it would rename is gone.)"""
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.startswith(".tmp-"):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_mtime < before:
                        os.unlink(entry.path)


class OutputDraft:
    """The text of a ``check`` run written to a temporary file beside the memos as it is
    printed, so the output memo never needs the whole text in memory (11 MB at 10,000
    skills, which was the peak of a large run). :meth:`CheckMemos.keep_output` adds the
    header once the run's key is known and moves it in place; :meth:`discard` drops it
    (a run that cannot be memoised, or an error). Writing errors only drop the draft."""

    def __init__(self, directory: Path) -> None:
        #: Bytes written so far.
        self.size = 0
        self._file: BinaryIO | None = None
        self._tmp: str | None = None
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, self._tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".json")
            self._file = os.fdopen(fd, "wb")
        except OSError:
            self.discard()

    def add(self, text: str) -> None:
        """Append ``text`` (UTF-8, lone surrogates kept, as the memo is read back)."""
        if self._file is None:
            return
        try:
            for part in _encoded(text):
                self._file.write(part)
                self.size += len(part)
        except (OSError, UnicodeError):
            self.discard()

    def keep(self, file: Path, header: bytes) -> None:
        """End the text with a line break and the one-line ``header``; move it to
        ``file``. ``OSError`` leaves ``file`` as it was."""
        if self._file is None or self._tmp is None:
            raise OSError("the draft was dropped")
        self._file.write(b"\n" + header + b"\n")
        self._file.close()
        self._file = None
        os.replace(self._tmp, file)
        self._tmp = None

    def discard(self) -> None:
        """Drop the draft (nothing once it was kept)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._tmp)
            self._tmp = None


#: Characters of a memo's text encoded at a time.
_ENCODE_SLICE = 1 << 20


def _encoded(text: str) -> Iterator[bytes]:
    """``text`` as UTF-8 (lone surrogates kept, as the memo is read back), in slices."""
    for start in range(0, len(text), _ENCODE_SLICE):
        yield text[start : start + _ENCODE_SLICE].encode("utf-8", "surrogatepass")


def _load_memo(cache: IndexCache, file: Path, key: DeckKey) -> dict[str, Any] | None:
    try:
        payload = load_bytes(read_cache_bytes(file))
    except (OSError, ValueError):
        return None
    return payload if isinstance(payload, dict) and _header_holds(cache, payload, key) else None


def _header_holds(cache: IndexCache, payload: dict[str, Any], key: DeckKey) -> bool:
    """Whether a memo's stored key and companions say it stands for ``key`` now."""
    try:
        if payload["key"] != key.digest or payload["locator"] != key.locator:
            return False
        for name, identity in payload["companions"]:
            if identity_of_file(cache.directory / json_str(name)) != identity:
                return False
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    return True


def _store_memo(
    cache: IndexCache,
    file: Path,
    key: DeckKey,
    body: dict[str, Any],
    companions: Sequence[Path],
    *,
    files: Iterable[object] | None = None,
) -> None:
    """Write a memo; ``files`` (a deck memo's ``"files"`` list) are encoded and written
    one at a time: a 10,000-skill deck's memo is ~40 MB of JSON, and as one tree of dicts
    it was the peak memory of a cold ``check``."""
    payload = _memo_header(cache, key, body, companions)
    if payload is None:
        return
    with contextlib.suppress(OSError, ValueError, TypeError):
        if files is None:
            write_atomically(file, payload)
        else:
            write_chunks_atomically(file, _with_list(dump_bytes(payload), "files", files))


def _memo_header(
    cache: IndexCache, key: DeckKey, body: dict[str, Any], companions: Sequence[Path]
) -> dict[str, Any] | None:
    """A memo's JSON header: ``key``, each companion file's identity (``None`` when one is
    gone or lies elsewhere: no memo then) and ``body``."""
    listed = []
    for companion in companions:
        identity = identity_of_file(companion)
        if identity is None or companion.parent != cache.directory:
            return None
        listed.append([companion.name, identity])
    return {
        "locator": key.locator,
        "key": key.digest,
        "companions": listed,
        **body,
    }


def _with_list(head: bytes, name: str, items: Iterable[object]) -> Iterator[bytes]:
    """The JSON object ``head`` with the list ``name`` of ``items`` added last, in pieces."""
    yield head[:-1] + b',"' + name.encode() + b'":['
    for index, item in enumerate(items):
        yield (b"," if index else b"") + dump_bytes(item)
    yield b"]}"


def deck_locator(
    roots: Sequence[SkillRoot], settings: RuleSettings, *, cache_dir: Path | None
) -> str:
    """The part of :func:`deck_key` that needs no listing: which memo file a deck uses
    (:func:`~skilldeck.engine.filesystem.cache_key` of the roots under the settings that
    reach the deck's answers)."""
    roots_json = [[r.rank, r.source, r.path, sorted(r.skip_names)] for r in roots]
    return cache_key("deck", settings, reach="deck", inputs=roots_json, cache_dir=cache_dir)


def deck_key(
    roots: Sequence[SkillRoot],
    settings: RuleSettings,
    *,
    cache_dir: Path | None,
    since_ns: int | None = None,
    listings: FolderListings | None = None,
) -> DeckKey | None:
    """The key of a deck memo for ``roots`` under ``settings``, from a fast pass that lists
    every root and ``stat``s every skill file discovery would open (never reading one),
    and each bundle's other files (what its SD10xx scan reads).

    The digest covers the locator (:func:`deck_locator`: skilldeck's code, the settings
    that reach the deck and the roots), the roots in order (rank, source, path, skipped
    names), each root's child names, and per skill file its layout and identity
    (device, inode, size, mtime, ctime), per bundle the
    :func:`~skilldeck.engine.safety.bundle_state` of its folder (``listings`` lets it
    reuse the listing of a folder whose identity is unchanged). ``None`` means the
    deck cannot be memoised now: a file was modified within :data:`RACY_WINDOW_NS`
    (a later same-size edit could keep its identity), or something could not be listed
    or inspected (the scan would report it; it is never cached).

    ``since_ns`` (a ``time.time_ns()`` taken before a scan) widens the racy window back
    to that moment: a key taken after the scan is then ``None`` if any file was modified
    while the scan ran, so it vouches for what the scan read without a pass before it.
    """
    now = time.time_ns()
    threshold = (now if since_ns is None else min(now, since_ns)) - RACY_WINDOW_NS
    if listings is None:
        listings = FolderListings(racy_window_ns=RACY_WINDOW_NS)
    locator = deck_locator(roots, settings, cache_dir=cache_dir)
    # Digested a few thousand parts at a time: the material of 10,000 skills is ~3 MB.
    digest = hashlib.sha256()
    parts: list[str] = [locator]
    for root in roots:
        parts.append(f"\x00R{root.path}")
        try:
            with os.scandir(root.path) as listing:
                children = sorted((entry.name, entry) for entry in listing)
        except (FileNotFoundError, NotADirectoryError):
            state = "file" if os.path.lexists(root.path) else "missing"
            parts.append(f"\x00{state}")
            continue
        except OSError:
            return None
        # Files are looked up from the root's descriptor, not along the whole path.
        fd = open_folder(root.path)
        try:
            listed = _root_key(root, children, fd, listings, threshold, parts, digest)
        finally:
            if fd is not None:
                os.close(fd)
        if listed is None:
            return None
        parts = listed
    digest.update("".join(parts).encode("utf-8", "surrogateescape"))
    return DeckKey(locator, digest.hexdigest())


def _root_key(  # noqa: PLR0917 - deck_key's state for one root
    root: SkillRoot,
    children: list[tuple[str, os.DirEntry[str]]],
    fd: int | None,
    listings: FolderListings,
    threshold: int,
    parts: list[str],
    digest: hashlib._Hash,
) -> list[str] | None:
    """:func:`deck_key`'s material for the listed ``children`` of ``root`` added to
    ``parts`` (digested into ``digest`` a few thousand at a time); the parts not yet
    digested, or ``None`` when the deck cannot be memoised now."""
    prefix = os.path.join(root.path, "")  # a child's path is prefix + name
    for name, dirent in children:
        if len(parts) > _DIGEST_PARTS:
            digest.update("".join(parts).encode("utf-8", "surrogateescape"))
            parts = []
        parts.append(f"\x00c{name}")
        if name in root.skip_names:
            continue
        try:
            found = listed_child_layout(dirent)
        except OSError:
            return None
        if found is None:
            continue
        is_dir = found[0] == "bundle"
        relative = name + _IN_BUNDLE if is_dir else name
        try:
            st = os.stat(prefix + relative) if fd is None else os.stat(relative, dir_fd=fd)
        except (FileNotFoundError, NotADirectoryError):
            parts.append("\x00-")
            if is_dir:  # what SD007 reports depends on the folder's Markdown files
                parts.extend(f"\x00s{stray}" for stray, _ in stray_files(root, name))
            continue
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_mtime_ns >= threshold:
            return None
        parts.append(
            f"\x00{'b' if is_dir else 'f'}{st.st_dev},{st.st_ino},{st.st_size},"
            f"{st.st_mtime_ns},{st.st_ctime_ns}"
        )
        if is_dir:
            walked = bundle_state(
                prefix + name,
                listings,
                racy_from_ns=threshold,
                at=None if fd is None else (fd, name),
            )
            if walked is None:
                return None
            parts.append(walked)
    return parts


#: A bundle's skill file below its folder (``os.path.join(folder, BUNDLE_FILE)``).
_IN_BUNDLE = os.sep + BUNDLE_FILE

#: Parts of a deck key's material joined and digested at a time.
_DIGEST_PARTS = 4096


def view_key(
    roots: Sequence[SkillRoot],
    settings: RuleSettings,
    *,
    extra: object,
    cache_dir: Path | None,
    since_ns: int | None = None,
) -> DeckKey | None:
    """The memo key of a hosts view over ``roots``: :func:`deck_key` (every listing and
    file identity) plus which children of each root are symlinks (a verdict some hosts
    depend on) and ``extra`` (what the caller prints: hosts, format, context...).
    ``None`` when the deck cannot be memoised now (see :func:`deck_key`)."""
    base = deck_key(roots, settings, cache_dir=cache_dir, since_ns=since_ns)
    if base is None:
        return None
    links: list[str] = []
    for root in roots:
        try:
            with os.scandir(root.path) as listing:
                links.extend(f"{root.path}\0{e.name}" for e in listing if e.is_symlink())
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:
            return None
    locator = view_locator(roots, settings, extra=extra, cache_dir=cache_dir)
    material = "\0".join([locator, base.digest, *sorted(links)])
    digest = hashlib.sha256(material.encode("utf-8", "surrogateescape")).hexdigest()
    return DeckKey(locator, digest)


def view_locator(
    roots: Sequence[SkillRoot], settings: RuleSettings, *, extra: object, cache_dir: Path | None
) -> str:
    """The part of :func:`view_key` that needs no listing (which memo file is used):
    :func:`~skilldeck.engine.filesystem.cache_key` of the roots and ``extra`` (JSON: what
    the caller prints) under the settings that reach the deck's answers."""
    roots_json = [[r.rank, r.source, r.path, sorted(r.skip_names)] for r in roots]
    return cache_key(
        "hosts-view", settings, reach="deck", inputs=[roots_json, extra], cache_dir=cache_dir
    )
