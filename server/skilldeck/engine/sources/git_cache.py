"""A git source's copy in the user cache dir: fetched with the ``git`` executable.

Layout, one folder per source and ref (``<cache>/sources/<name>-<digest of url and ref>``):

- ``rev-<commit>/``: the files of that commit (a shallow fetch, checked out, ``.git``
  removed, symlinks checked out as plain files), complete once it holds ``.skilldeck-rev``;
- ``state.json``: the commit served, when it was fetched, the last attempt and its error.

Every write is a new folder or file renamed into place, so concurrent runs (two CLI
checks, the editor and CI) share the cache without locks: a reader sees the old commit
or the new one, never half of one. A copy whose state or folder is damaged counts as
never fetched and is fetched again.

Credentials: a URL with a password is refused by the config; a token (``token-env``)
reaches git only through its environment (``GIT_CONFIG_*`` ``http.extraHeader``), never
its command line, and is never written here or into a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import secrets
import shutil
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from skilldeck.engine.safety_gate import folder_refusal
from skilldeck.engine.sources.spec import GitSourceSpec, redacted

_REV_MARK = ".skilldeck-rev"
_STATE = "state.json"
#: Transports git may use, for the URL and anything it leads to (submodules, redirects).
_ALLOWED_PROTOCOLS = "file:git:http:https:ssh"
#: The most text of git's error output a message keeps.
_ERROR_CHARS = 400
#: Old commits' folders are removed once they are this old (seconds), so a concurrent
#: reader of the previous commit is never pulled from under it.
_KEEP_OLD_REVS = 600.0


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
        data = json.loads((folder / _STATE).read_text(encoding="utf-8"))
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
    """The folder of the last good commit, when it is whole."""
    if state is None or state.commit is None:
        return None
    rev = folder / f"rev-{state.commit}"
    mark = rev / _REV_MARK
    try:
        if mark.read_text(encoding="utf-8").split("\n", 1)[0] != state.commit:
            return None
    except OSError:
        return None
    return rev


def tree_digest(folder: Path) -> str:
    """A digest of every file's relative path and size below ``folder`` (the mark left
    out): what a copy is checked against before it is trusted again."""
    digest = hashlib.sha256()
    lines = []
    for parent, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(parent) / name
            relative = path.relative_to(folder).as_posix()
            if relative != _REV_MARK:
                lines.append(f"{relative}\0{path.lstat().st_size}")
    for line in sorted(lines):
        digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def is_whole(rev: Path, commit: str) -> bool:
    """Whether ``rev`` holds exactly the files its mark recorded for ``commit``."""
    try:
        recorded = (rev / _REV_MARK).read_text(encoding="utf-8").split("\n")
    except OSError:
        return False
    return recorded[:2] == [commit, tree_digest(rev)]


def skills_folder(spec: GitSourceSpec, rev: Path) -> Path:
    """The folder of ``rev`` holding the skills (``spec.path``)."""
    return rev / spec.path if spec.path else rev


def write_state(folder: Path, state: CopyState) -> None:
    """Replace ``state.json`` atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{_STATE}.{os.getpid()}.{secrets.token_hex(4)}"
    temporary.write_text(json.dumps(state.to_json()), encoding="utf-8")
    os.replace(temporary, folder / _STATE)


def record_failure(spec: GitSourceSpec, folder: Path, error: str) -> None:
    """Keep the last good commit; note the failed attempt and why."""
    old = read_state(folder)
    commit = good_commit(folder, old)
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


async def fetch(spec: GitSourceSpec, cache_dir: Path) -> str:
    """Fetch ``spec``'s ref (shallow) into a new ``rev-<commit>`` folder and make it the
    copy served; return the commit. Raises :class:`FetchError` (the failure is also
    recorded in the state). Cancelling the awaiting task kills git at once."""
    folder = source_dir(spec, cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    work = folder / f"tmp-{os.getpid()}-{secrets.token_hex(4)}"
    env = git_environment(spec)
    try:
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
            await _gate(spec, folder / f"rev-{commit}", commit)
    except FetchError as error:
        message = str(error)
        if spec.token_env and not os.environ.get(spec.token_env):
            message += f" ({spec.token_env}, named by token-env, is unset or empty)"
        record_failure(spec, folder, message)
        raise FetchError(message) from error
    except OSError as error:
        message = f"cannot write the cache copy: {error.strerror or error}"
        record_failure(spec, folder, message)
        raise FetchError(message) from error
    finally:
        await asyncio.to_thread(shutil.rmtree, work, ignore_errors=True)
    now = time.time()
    state = CopyState(commit, now, now, None, redacted(spec.url), spec.ref)
    await asyncio.to_thread(_serve, folder, state, f"rev-{commit}")
    return commit


async def _gate(spec: GitSourceSpec, rev: Path, commit: str) -> None:
    """``require = "no-errors"``: refuse ``commit`` (a :class:`FetchError`, so the last
    good commit stays served) when its skills have error-level safety findings."""
    refusal = await asyncio.to_thread(folder_refusal, str(skills_folder(spec, rev)))
    if refusal is not None:
        raise FetchError(f"refused commit {commit[:12]} (require = {spec.require!r}): {refusal}")


def _seal(work: Path, rev: Path, commit: str) -> None:
    """Drop the checkout's ``.git``, mark it as ``commit`` and publish it as ``rev``."""
    shutil.rmtree(work / ".git")
    (work / _REV_MARK).write_text(f"{commit}\n{tree_digest(work)}\n", encoding="utf-8")
    _publish(work, rev, commit)


def _serve(folder: Path, state: CopyState, rev: str) -> None:
    """Make ``state`` the copy served and prune older commits."""
    write_state(folder, state)
    _prune(folder, keep=rev)


def _publish(work: Path, rev: Path, commit: str) -> None:
    """Rename ``work`` to ``rev``; another run that got there first wins (same commit).
    A damaged copy of the commit (files missing or changed in size) is replaced."""
    if is_whole(rev, commit):
        return
    if rev.exists():
        damaged = rev.with_name(f"tmp-damaged-{os.getpid()}-{secrets.token_hex(4)}")
        with contextlib.suppress(OSError):
            os.rename(rev, damaged)
        shutil.rmtree(damaged, ignore_errors=True)
    with contextlib.suppress(OSError):
        os.rename(work, rev)
    if not is_whole(rev, commit):
        raise FetchError(f"cannot publish the checkout to {rev}")


def _prune(folder: Path, keep: str) -> None:
    now = time.time()
    for child in folder.iterdir():
        if child.name == keep or not child.name.startswith(("rev-", "tmp-")):
            continue
        with contextlib.suppress(OSError):
            if now - child.stat().st_mtime > _KEEP_OLD_REVS:
                shutil.rmtree(child, ignore_errors=True)


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
        text = err.decode("utf-8", "replace").strip().splitlines()
        detail = " ".join(line.strip() for line in text[-3:])[:_ERROR_CHARS]
        raise FetchError(f"git {args[0] if args[0] != '-C' else args[2]} failed: {detail}")
    return out.decode("utf-8", "replace")
