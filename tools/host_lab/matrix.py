"""The case matrix (``tests/hosts/cases.toml``) and the trees generated from it.

A *case* is a few files (skill files, symlinks, ``agents/openai.yaml``...) placed in a
tree, and optionally a start folder. Cases that cannot interfere (distinct names, the
default start folder) share one tree per host, a *batch*: one host run observes them all.
A batch stays small (at most :data:`BATCH_FILES` skill files and :data:`BATCH_CHARS`
characters of files; the smallest budget observed, GitHub Copilot CLI's, keeps about
12,000 characters of entries), so no host's listing budget cuts it; a case marked
``alone`` (a budget case) or with its own ``cwd`` gets a tree of its own (shared with the
``alone`` cases of its ``group``).

A tree, at a root of exactly :data:`ROOT_CHARS` characters (so paths, which some hosts
count against their budget, are as long in the lab as in the tests)::

    <root>/repo      the project: a git repository (a minimal ``.git``), the default cwd
    <root>/home      HOME
    <root>/outside   targets of symlinks, outside every skill folder

Paths in a case: ``{P}`` is the host's own project skills folder (``repo/.claude/skills``
for Claude Code, ``repo/.agents/skills`` for the others), ``{U}`` the user one
(``home/...``); other paths are relative to the root. Text placeholders: ``{id}`` (the
case id), ``{i}`` / ``{i:03}`` (the index of a repeated file), ``{lorem:N}`` (exactly N
characters of words), ``{tree}`` (the tree's root, an absolute path). An entry of a
listing belongs to the case whose id appears in it (the longest one: its name, else its
path, else its text); the others are the host's built-in skills.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

from skilldeck.observe.wiring import get_wiring

CASES = Path(__file__).resolve().parents[2] / "tests" / "hosts" / "cases.toml"
#: The length of every tree's root path, in characters.
ROOT_CHARS = 100
BATCH_FILES = 30
BATCH_CHARS = 5000
HOSTS = ("codex", "claude-code", "gemini-cli", "opencode", "copilot", "kimi-code")
_WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "yankee",
    "zulu",
]
_PLACEHOLDER = re.compile(r"\{(id|i|i:03|P|U|tree|lorem:\d+)\}")


@dataclass(frozen=True)
class CaseFile:
    """One file of a case: ``text`` (written as UTF-8, exactly) or a symlink to ``link``
    (a path relative to the tree root), ``repeat`` times with ``{i}`` = 0, 1, ..."""

    at: str
    text: str | None = None
    link: str | None = None
    repeat: int = 1


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    files: tuple[CaseFile, ...]
    cwd: str = "repo"
    alone: bool = False
    hosts: tuple[str, ...] = HOSTS
    #: Folders to create (empty ones matter: a start folder, a skills folder).
    dirs: tuple[str, ...] = ()
    #: ``alone`` cases with the same group share a tree (of their own).
    group: str | None = None
    #: Hosts whose choice between this case's same-named skills changes from run to run
    #: (observed): only what is listed is compared, not which copy.
    unstable: tuple[str, ...] = ()
    #: Variables set in the host's environment for this case's tree (as a user's shell
    #: would: ``OPENCODE_DISABLE_CLAUDE_CODE_SKILLS``); skilldeck's model reads them too.
    #: Left out of ``repr`` when empty, so the digests of the cases without any stay.
    env: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def size(self) -> tuple[int, int]:
        """(skill files, characters) of the case, to fill batches."""
        count = sum(f.repeat for f in self.files if f.at.endswith(".md"))
        chars = sum(len(f.text or "") * f.repeat for f in self.files)
        return count, chars


@dataclass(frozen=True)
class Batch:
    """Cases observed in one host run, on one tree."""

    id: str
    host: str
    cases: tuple[Case, ...]
    cwd: str = "repo"

    @property
    def env(self) -> dict[str, str]:
        """The variables the batch's cases set in the host's environment."""
        return {key: value for case in self.cases for key, value in case.env}


@dataclass(frozen=True)
class Matrix:
    cases: tuple[Case, ...]
    digest: str
    by_id: dict[str, Case] = field(default_factory=dict)

    def batches(self, host: str, only: Sequence[str] = ()) -> list[Batch]:
        """The batches of ``host`` (only the cases ``only`` names, when given), in order."""
        chosen = [c for c in self.cases if host in c.hosts and (not only or c.id in only)]
        batches: list[Batch] = []
        current: list[Case] = []
        files = chars = 0

        def name(members: Sequence[Case]) -> str:
            if not only:
                return f"b{len(batches) + 1:02d}"
            # A partial run's batches are named by their cases: merged into a record,
            # they never take the name of one of its full run's batches.
            ids = ",".join(case.id for case in members)
            return "r" + hashlib.sha256(ids.encode("utf-8")).hexdigest()[:8]

        def close() -> None:
            nonlocal current, files, chars
            if current:
                batches.append(Batch(name(current), host, tuple(current)))
            current, files, chars = [], 0, 0

        for case in chosen:
            if case.alone or case.cwd != "repo" or case.env:
                continue
            count, size = case.size()
            if current and (files + count > BATCH_FILES or chars + size > BATCH_CHARS):
                close()
            current.append(case)
            files += count
            chars += size
        close()
        groups: dict[tuple[str, str], list[Case]] = {}
        for case in chosen:
            if case.alone or case.cwd != "repo" or case.env:
                groups.setdefault((case.group or case.id, case.cwd), []).append(case)
        for (_group, cwd), members in groups.items():
            batches.append(Batch(name(members), host, tuple(members), cwd))
        return batches


def load_matrix(path: Path = CASES) -> Matrix:
    raw = path.read_bytes()
    data = tomllib.loads(raw.decode("utf-8"))
    cases: list[Case] = []
    for entry in data["case"]:
        files = [
            CaseFile(f["at"], f.get("text"), f.get("link"), int(f.get("repeat", 1)))
            for f in entry.get("file", [])
        ]
        if "frontmatter" in entry:
            body = entry.get("body", "Body of {id}.\n")
            text = "---\n" + entry["frontmatter"] + "\n---\n\n" + body
            files.insert(0, CaseFile(entry.get("at", "{P}/{id}/SKILL.md"), text))
        hosts = tuple(entry.get("hosts", HOSTS))
        unknown = set(hosts) - set(HOSTS)
        if unknown:
            raise ValueError(f"case {entry['id']}: unknown hosts {sorted(unknown)}")
        cases.append(
            Case(
                entry["id"],
                entry["about"],
                tuple(files),
                cwd=entry.get("cwd", "repo"),
                alone=bool(entry.get("alone", False)),
                hosts=hosts,
                dirs=tuple(entry.get("dirs", ())),
                group=entry.get("group"),
                unstable=tuple(entry.get("unstable", ())),
                env=tuple(sorted((str(k), str(v)) for k, v in entry.get("env", {}).items())),
            )
        )
    ids = [case.id for case in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("case ids must be unique")
    return Matrix(tuple(cases), hashlib.sha256(raw).hexdigest()[:16], {c.id: c for c in cases})


def lorem(chars: int) -> str:
    """Exactly ``chars`` characters of words (no trailing space)."""
    words: list[str] = []
    length = -1
    index = 0
    while length < chars:
        word = _WORDS[index % len(_WORDS)]
        words.append(word)
        length += len(word) + 1
        index += 1
    text = " ".join(words)[:chars]
    return text[:-1] + "x" if text.endswith(" ") else text


def _fill(text: str, case: Case, host: str, index: int, tree: Path | None = None) -> str:
    wiring = get_wiring(host)

    def value(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "id":
            return case.id
        if key == "tree":
            return str(tree) if tree is not None else "{tree}"
        if key == "i":
            return str(index)
        if key == "i:03":
            return f"{index:03d}"
        if key == "P":
            return f"repo/{wiring.project_skills}"
        if key == "U":
            return f"home/{wiring.user_skills}"
        return lorem(int(key.split(":")[1]))

    return _PLACEHOLDER.sub(value, text)


def tree_root(base: Path, name: str) -> Path:
    """``base/name-xxx...``: a path of exactly :data:`ROOT_CHARS` characters."""
    stem = str(base.resolve() / name) + "-"
    if len(stem) >= ROOT_CHARS:
        raise ValueError(f"{base} is too long for a tree root of {ROOT_CHARS} characters")
    return Path(stem + "x" * (ROOT_CHARS - len(stem)))


def _git(repo: Path) -> None:
    """A minimal git repository (what ``git rev-parse`` recognises), written by hand."""
    git = repo / ".git"
    for folder in ("objects", "refs/heads", "refs/tags"):
        (git / folder).mkdir(parents=True, exist_ok=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n", "utf-8")
    (git / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n", "utf-8"
    )


def build_tree(root: Path, batch: Batch) -> Path:
    """Write ``batch``'s tree at ``root`` (which must not exist); returns the start folder."""
    root.mkdir(parents=True)
    _git(root / "repo")
    (root / "home").mkdir()
    (root / "outside").mkdir()
    for case in batch.cases:
        for folder in case.dirs:
            (root / _fill(folder, case, batch.host, 0)).mkdir(parents=True, exist_ok=True)
        for item in case.files:
            for index in range(item.repeat):
                at = root / _fill(item.at, case, batch.host, index)
                at.parent.mkdir(parents=True, exist_ok=True)
                if item.link is not None:
                    target = root / _fill(item.link, case, batch.host, index)
                    os.symlink(target, at)
                else:
                    with open(at, "w", encoding="utf-8", newline="") as handle:
                        handle.write(_fill(item.text or "", case, batch.host, index, root))
    cwd = root / batch.cwd
    cwd.mkdir(parents=True, exist_ok=True)
    return cwd


def case_of(texts: Iterable[str | None], ids: Iterable[str]) -> str | None:
    """The case an entry belongs to: the longest case id found as a word in the first
    text that holds one (``None``: a built-in skill)."""
    ordered = sorted(ids, key=len, reverse=True)
    for text in texts:
        if not text:
            continue
        for case_id in ordered:
            if re.search(rf"(?<![A-Za-z0-9]){re.escape(case_id)}(?![A-Za-z0-9])", text):
                return case_id
    return None


def recorded_batches(record: dict[str, object], matrix: Matrix) -> list[Batch]:
    """The batches a record was made of, each case as the matrix defines it now (so a
    case added to the matrix does not move the recorded ones to other trees)."""
    batches = record["batches"]
    assert isinstance(batches, dict)
    out = []
    for batch_id, batch in batches.items():
        cases = tuple(matrix.by_id[c] for c in batch["cases"] if c in matrix.by_id)
        if cases:
            out.append(Batch(batch_id, str(record["host"]), cases, batch["cwd"]))
    return out
