"""A git source's copy in the user cache dir: fetched with the ``git`` executable.

Layout, one folder per source and ref (``<cache>/sources/<name>-<digest of url and ref>``):

- ``rev-<commit>/``: the files of that commit (a shallow fetch, checked out, ``.git``
  removed, symlinks checked out as plain files), complete once it holds ``.skilldeck-rev``
  (the commit, a digest of every file's path and size, and one of their bytes);
- ``state.json``: the commit served, when it was fetched, the last attempt and its error;
- ``retired-<commit>``: when ``rev-<commit>`` stopped being the commit served.

Every write is a new folder or file renamed into place, so concurrent runs (two CLI
checks, the editor and CI) share the cache without locks: a reader sees the old commit
or the new one, never half of one. A copy is checked against its mark each time it is
used: one whose state or folder is damaged (a file missing, added or of another size)
is not served and is fetched again. A fetch of the commit already cached compares the
bytes too: a copy edited in place (same sizes) is replaced by the fresh checkout.

A revision that stops being served is kept :data:`KEEP_OLD_REVS` seconds more, counted
from that moment (recorded in ``retired-<commit>``), so a running reader of the previous
commit (``skilldeck mcp``, the editor) is never pulled from under it.

Trees are walked and removed without recursion (:mod:`.cache_tree`); a commit whose
folders nest deeper than :data:`MAX_TREE_DEPTH` is refused. A fetch that fails for any
reason (git, the disk, an unexpected error) is a :class:`FetchError` of that source,
recorded in its state, and leaves no temporary folder behind.

Credentials: a URL with a password is refused by the config; a token (``token-env``)
reaches git only through its environment (``GIT_CONFIG_*`` ``http.extraHeader``), never
its command line, and is never written here or into a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import signal
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from skilldeck.engine.config import GitSourceSpec, RuleSettings, redacted
from skilldeck.engine.disk import file_sha256, load_text, read_cache_text
from skilldeck.engine.filesystem import folder_refusal, write_atomically
from skilldeck.engine.sources._cache_tree import TreeTooDeep, remove_tree, walk_tree

_REV_MARK = ".skilldeck-rev"
_STATE = "state.json"
#: Transports git may use, for the URL and anything it leads to (submodules, redirects).
_ALLOWED_PROTOCOLS = "file:git:http:https:ssh"
#: The most text of git's error output a message keeps.
_ERROR_CHARS = 400
_RETIRED = "retired-"
#: A commit's folder is removed this long (seconds) after it stopped being served, so a
#: running reader of the previous commit is never pulled from under it. A temporary
#: folder left by a run that died is removed once it is this old.
KEEP_OLD_REVS = 600.0
#: A commit whose folders nest deeper than this is refused (no skill needs it).
MAX_TREE_DEPTH = 256
#: The most bytes a state file or a mark may hold (a larger one is damaged).
_SMALL_FILE = 64 * 1024


class FetchError(Exception):
    """A fetch that failed; the message is safe to show (no credentials)."""


@dataclass(frozen=True)
class CopyState:
    """What ``state.json`` holds about a source's copy."""

    commit: str | None
    fetched_at: float | None
    attempted_at: float | None
    error: str | None
    url: str
    ref: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "commit": self.commit,
            "fetched_at": self.fetched_at,
            "attempted_at": self.attempted_at,
            "error": self.error,
            "url": self.url,
            "ref": self.ref,
        }


def source_dir(spec: GitSourceSpec, cache_dir: Path) -> Path:
    """The cache folder of ``spec`` (one per source name, URL and ref)."""
    digest = hashlib.sha256(f"{spec.url}\0{spec.ref or ''}".encode()).hexdigest()[:16]
    return cache_dir / "sources" / f"{spec.name}-{digest}"


def read_state(folder: Path) -> CopyState | None:
    """The state of the copy in ``folder``; ``None`` when missing or damaged."""
    try:
        data = load_text(read_cache_text(folder / _STATE, max_bytes=_SMALL_FILE))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    commit = data.get("commit")
    fetched = data.get("fetched_at")
    attempted = data.get("attempted_at")
    error = data.get("error")
    url = data.get("url")
    ref = data.get("ref")
    if (
        not (commit is None or (isinstance(commit, str) and commit.isalnum()))
        or not (fetched is None or isinstance(fetched, int | float))
        or not (attempted is None or isinstance(attempted, int | float))
        or not (error is None or isinstance(error, str))
        or not isinstance(url, str)
        or not (ref is None or isinstance(ref, str))
    ):
        return None
    return CopyState(commit, fetched, attempted, error, url, ref)


def good_commit(folder: Path, state: CopyState | None) -> str | None:
    """The commit of the last good copy, when it is whole."""
    return state.commit if state is not None and good_copy(folder, state) is not None else None


def good_copy(folder: Path, state: CopyState | None) -> Path | None:
    """The folder of the last good commit, when it is whole (checked against its mark:
    every file's path and size as fetched)."""
    if state is None or state.commit is None:
        return None
    rev = folder / f"rev-{state.commit}"
    return rev if is_whole(rev, state.commit) else None


def tree_digest(folder: Path, *, max_depth: int | None = None) -> str:
    """A digest of every file's relative path and size below ``folder`` (the mark left
    out): what a copy is checked against before it is trusted again. Walked without
    recursion; ``OSError`` when a folder cannot be read, :class:`TreeTooDeep` past
    ``max_depth``."""
    return _digest(
        f"{entry.relative}\0{entry.size}"
        for entry in walk_tree(folder, max_depth=max_depth)
        if not entry.is_dir and entry.relative != _REV_MARK
    )


def contents_digest(folder: Path) -> str:
    """A digest of every file's relative path and bytes below ``folder`` (the mark left
    out): what a fetch compares a copy of the same commit with. ``OSError`` when an
    entry that is not a folder is not a regular file (a FIFO is never read) or cannot
    be read."""
    return _digest(
        f"{entry.relative}\0{file_sha256(folder / entry.relative)}"
        for entry in walk_tree(folder)
        if not entry.is_dir and entry.relative != _REV_MARK
    )


def _digest(lines: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for line in sorted(lines):
        digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def is_whole(rev: Path, commit: str) -> bool:
    """Whether ``rev`` holds exactly the files its mark recorded for ``commit``."""
    try:
        recorded = read_cache_text(rev / _REV_MARK, max_bytes=_SMALL_FILE).split("\n")
        if recorded[:1] != [commit]:
            return False
        return recorded[1:2] == [tree_digest(rev)]
    except (OSError, ValueError):
        return False


def skills_folder(spec: GitSourceSpec, rev: Path) -> Path:
    """The folder of ``rev`` holding the skills (``spec.path``)."""
    return rev / spec.path if spec.path else rev


def write_state(folder: Path, state: CopyState) -> None:
    """Replace ``state.json`` atomically."""
    write_atomically(folder / _STATE, state.to_json())


def record_failure(spec: GitSourceSpec, folder: Path, error: str) -> None:
    """Keep the last good commit; note the failed attempt and why (best effort: a cache
    that cannot be written keeps its old state)."""
    old = read_state(folder)
    commit = good_commit(folder, old)
    with contextlib.suppress(OSError, ValueError):
        write_state(
            folder,
            CopyState(
                commit=commit,
                fetched_at=old.fetched_at if commit is not None and old is not None else None,
                attempted_at=time.time(),
                error=error,
                url=redacted(spec.url),
                ref=spec.ref,
            ),
        )


def git_environment(
    spec: GitSourceSpec, environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a git child: no prompts, only allowed transports, no user or
    system config that could run a helper, and the token (if any) as an HTTP header."""
    env = dict(os.environ if environ is None else environ)
    for key in list(env):
        if key.startswith("GIT_"):
            del env[key]
    env.update(
        {
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_ALLOW_PROTOCOL": _ALLOWED_PROTOCOLS,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_ASKPASS": "",
            "SSH_ASKPASS": "",
            "GIT_SSH_COMMAND": "ssh -o BatchMode=yes",
            "LC_ALL": "C",
        }
    )
    token = env.get(spec.token_env) if spec.token_env else None
    if token:
        env.update(
            {
                "GIT_CONFIG_COUNT": "1",
                "GIT_CONFIG_KEY_0": "http.extraHeader",
                "GIT_CONFIG_VALUE_0": f"Authorization: Bearer {token}",
            }
        )
    return env


async def fetch(spec: GitSourceSpec, cache_dir: Path, settings: RuleSettings | None = None) -> str:
    """Fetch ``spec``'s ref (shallow) into a new ``rev-<commit>`` folder and make it the
    copy served; return the commit. ``settings`` are the project's rule settings, which
    the ``require`` gate judges with (``None``: the defaults). Raises
    :class:`FetchError` for every failure (also recorded in the state; the last good copy
    stays). Cancelling the awaiting task kills git at once. The temporary checkout is
    removed whatever happens."""
    folder = source_dir(spec, cache_dir)
    work = folder / f"tmp-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        return await _fetch_into(spec, folder, work, settings)
    except FetchError as error:
        message = str(error)
        if spec.token_env and not os.environ.get(spec.token_env):
            message += f" ({spec.token_env}, named by token-env, is unset or empty)"
        await asyncio.to_thread(record_failure, spec, folder, message)
        raise FetchError(message) from error
    except OSError as error:
        message = f"cannot write the cache copy: {error.strerror or error}"
        await asyncio.to_thread(record_failure, spec, folder, message)
        raise FetchError(message) from error
    except Exception as error:  # any other failure is this source's, never the command's
        message = f"fetch failed: {type(error).__name__}: {error}"[:_ERROR_CHARS]
        await asyncio.to_thread(record_failure, spec, folder, message)
        raise FetchError(message) from error
    finally:
        # Shielded: a cancelled fetch still leaves no checkout behind.
        await asyncio.shield(asyncio.to_thread(remove_tree, work))


async def _fetch_into(
    spec: GitSourceSpec, folder: Path, work: Path, settings: RuleSettings | None
) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    env = git_environment(spec)
    await _git(env, "init", "--quiet", str(work))
    await _git(env, "-C", str(work), "config", "core.symlinks", "false")
    target = spec.ref or "HEAD"
    await _git(
        env, "-C", str(work), "fetch", "--quiet", "--depth", "1", "--no-tags",
        "--", spec.url, target,
    )  # fmt: skip
    commit = (
        await _git(env, "-C", str(work), "rev-parse", "--verify", "FETCH_HEAD^{commit}")
    ).strip()
    await _git(env, "-C", str(work), "checkout", "--quiet", "--detach", commit)
    # The file work runs in a worker thread: an editor's event loop keeps serving.
    await asyncio.to_thread(_seal, work, folder / f"rev-{commit}", commit)
    if spec.require is not None:
        await _gate(spec, folder / f"rev-{commit}", commit, settings)
    now = time.time()
    state = CopyState(commit, now, now, None, redacted(spec.url), spec.ref)
    await asyncio.to_thread(_serve, folder, state)
    return commit


async def _gate(spec: GitSourceSpec, rev: Path, commit: str, settings: RuleSettings | None) -> None:
    """``require = "no-errors"``: refuse ``commit`` (a :class:`FetchError`, so the last
    good commit stays served) when its skills have error-level safety findings under the
    project's ``settings`` (a rule turned off or down to a warning refuses nothing)."""
    refusal = await asyncio.to_thread(folder_refusal, str(skills_folder(spec, rev)), settings)
    if refusal is not None:
        raise FetchError(f"refused commit {commit[:12]} (require = {spec.require!r}): {refusal}")


def _seal(work: Path, rev: Path, commit: str) -> None:
    """Drop the checkout's ``.git``, mark it as ``commit`` and publish it as ``rev``."""
    if not remove_tree(work / ".git"):
        raise FetchError("cannot remove the checkout's .git folder")
    try:
        digest = tree_digest(work, max_depth=MAX_TREE_DEPTH)
    except TreeTooDeep as error:
        raise FetchError(
            f"commit {commit[:12]} refused: its folders nest more than {error.depth} deep"
        ) from None
    contents = contents_digest(work)
    (work / _REV_MARK).write_text(f"{commit}\n{digest}\n{contents}\n", encoding="utf-8")
    _publish(work, rev, commit, contents)


def _serve(folder: Path, state: CopyState) -> None:
    """Make ``state`` the copy served, note when the previous commit stopped being
    served, and prune what is past its time."""
    previous = read_state(folder)
    before = previous.commit if previous is not None else None
    if state.commit is not None:
        _unretire(folder, state.commit)
    write_state(folder, state)
    if before is not None and before != state.commit:
        _retire(folder, before, time.time())
    prune_revisions(folder)


def _publish(work: Path, rev: Path, commit: str, contents: str) -> None:
    """Rename ``work`` to ``rev``; another run that got there first wins (same commit,
    same bytes: ``contents``). A damaged copy of the commit (files missing, changed in
    size, or changed in their bytes since it was fetched) is replaced."""
    if is_whole(rev, commit) and _contents_of(rev) == contents:
        return
    if os.path.lexists(rev):
        damaged = rev.with_name(f"tmp-damaged-{os.getpid()}-{secrets.token_hex(4)}")
        with contextlib.suppress(OSError):
            os.rename(rev, damaged)
        remove_tree(damaged)
    with contextlib.suppress(OSError):
        os.rename(work, rev)
    if not is_whole(rev, commit):
        raise FetchError(f"cannot publish the checkout to {rev}")


def _contents_of(rev: Path) -> str | None:
    try:
        return contents_digest(rev)
    except OSError:
        return None


def retired_at(folder: Path, commit: str) -> float | None:
    """When ``rev-<commit>`` stopped being served (``None``: no record)."""
    try:
        data = load_text(read_cache_text(folder / f"{_RETIRED}{commit}", max_bytes=_SMALL_FILE))
    except (OSError, ValueError):
        return None
    when = data.get("retired_at") if isinstance(data, dict) else None
    return float(when) if isinstance(when, int | float) and not isinstance(when, bool) else None


def _retire(folder: Path, commit: str, when: float) -> None:
    """Record that ``rev-<commit>`` stopped being served at ``when`` (the first record
    stands)."""
    if retired_at(folder, commit) is None:
        with contextlib.suppress(OSError, ValueError):
            write_atomically(folder / f"{_RETIRED}{commit}", {"retired_at": when})


def _unretire(folder: Path, commit: str) -> None:
    """``rev-<commit>`` is served again: its retirement no longer counts."""
    with contextlib.suppress(OSError):
        os.unlink(folder / f"{_RETIRED}{commit}")


def prune_revisions(folder: Path, *, now: float | None = None) -> None:
    """Remove the commits' folders that stopped being served more than
    :data:`KEEP_OLD_REVS` seconds before ``now``, and temporary folders of runs that died
    (older than that). A commit's folder without a retirement record (a run that died
    between the two writes) is recorded as retired now. Best effort: never raises for
    a folder it cannot remove."""
    now = time.time() if now is None else now
    state = read_state(folder)
    current = state.commit if state is not None else None
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return
    for child in children:
        name = child.name
        if name.startswith("rev-"):
            commit = name.removeprefix("rev-")
            if commit == current:
                continue
            when = retired_at(folder, commit)
            if when is None:
                _retire(folder, commit, now)
            elif now - when > KEEP_OLD_REVS:
                _remove_revision(folder, child, commit)
        elif name.startswith(_RETIRED):
            if not os.path.lexists(folder / f"rev-{name.removeprefix(_RETIRED)}"):
                with contextlib.suppress(OSError):
                    os.unlink(child)
        elif name.startswith("tmp-"):
            with contextlib.suppress(OSError):
                if now - child.lstat().st_mtime > KEEP_OLD_REVS:
                    remove_tree(child)


def _remove_revision(folder: Path, rev: Path, commit: str) -> None:
    """Take ``rev`` out of view at once (renamed), then remove it and its record."""
    doomed = folder / f"tmp-pruned-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        os.rename(rev, doomed)
    except OSError:
        return
    remove_tree(doomed)
    with contextlib.suppress(OSError):
        os.unlink(folder / f"{_RETIRED}{commit}")


async def _git(env: Mapping[str, str], *args: str) -> str:
    """Run ``git ARGS``; its stdout, or :class:`FetchError` with the end of its stderr."""
    try:
        process = await asyncio.create_subprocess_exec(
            "git",
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=dict(env),
            start_new_session=True,
        )
    except OSError as error:
        raise FetchError(f"cannot run git: {error.strerror or error}") from error
    try:
        out, err = await process.communicate()
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(BaseException):
            await asyncio.shield(process.wait())
        raise
    if process.returncode != 0:
        raise FetchError(
            f"git {args[0] if args[0] != '-C' else args[2]} failed: {_git_reason(err)}"
        )
    return out.decode("utf-8", "replace")


def _git_reason(stderr: bytes) -> str:
    """What a failed git command said, for one line of an error: its ``fatal:`` /
    ``error:`` lines (git's reason; the advice after it only if nothing else), else its
    last lines; blank lines dropped, cut at :data:`_ERROR_CHARS`."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    reasons = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return ("; ".join(reasons) if reasons else " ".join(lines[-3:]))[:_ERROR_CHARS]
