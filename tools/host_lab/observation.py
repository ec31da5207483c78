"""An entry of a listing as the lab keeps it (observed or predicted), and reading one
host's observed listing of a batch into entries per case."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from host_lab.matrix import Batch, Case, case_of
from skilldeck.observe.listing import Listing

TREE = "{tree}"


@dataclass(frozen=True)
class Entry:
    """One listed skill: ``name`` as shown, ``description`` as sent (``None``: name only),
    ``path`` as shown (``None``: the entry shows none), ``file`` the skill file it stands
    for relative to the tree (where the entry says), ``scope`` its section (Kimi Code),
    ``line`` the whole entry as sent. The tree's root is written ``{tree}``."""

    name: str
    description: str | None
    path: str | None
    file: str | None
    scope: str | None
    line: str

    def to_json(self) -> dict[str, str | None]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, str | None]) -> Entry:
        line = data["line"]
        name = data["name"]
        assert line is not None and name is not None
        return Entry(name, data["description"], data["path"], data["file"], data["scope"], line)


def case_digest(case: Case) -> str:
    """A digest of a case's definition: a record of it is stale once this changes."""
    text = repr(case) + (f"env={case.env!r}" if case.env else "")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _untree(text: str | None, root: str) -> str | None:
    return text.replace(root, TREE) if text is not None else None


def _file_of(path: str | None, roots: dict[str, str]) -> str | None:
    """The tree-relative skill file a shown path stands for (Codex: a short path into
    the skill roots table), if it is inside the tree."""
    if path is None:
        return None
    alias, _, rest = path.partition("/")
    if alias in roots and rest:
        path = f"{roots[alias]}/{rest}"
    if path.startswith(TREE + "/"):
        return path[len(TREE) + 1 :]
    return None


@dataclass(frozen=True)
class BatchListing:
    """A batch's listing split by case: each case's entries in order, the built-ins'
    names, and the whole order (``case:name`` or ``builtin:name``)."""

    cases: dict[str, list[Entry]]
    builtins: list[str]
    order: list[str]
    roots: list[tuple[str, str]]


def split_listing(listing: Listing, batch: Batch, root: Path) -> BatchListing:
    """Attribute each entry of ``listing`` (observed on ``batch``'s tree at ``root``) to its
    case; entries of no case are the host's built-ins (names only are kept)."""
    prefix = str(root)
    roots = [(alias, _untree(path, prefix) or "") for alias, path in listing.roots]
    table = dict(roots)
    ids = [case.id for case in batch.cases]
    cases: dict[str, list[Entry]] = {case_id: [] for case_id in ids}
    builtins: list[str] = []
    order: list[str] = []
    for item in listing.entries:
        path = _untree(item.path, prefix)
        file = _file_of(path, table)
        owner = case_of((item.name, file, item.description, item.raw), ids)
        if owner is None:
            builtins.append(item.name)
            order.append(f"builtin:{item.name}")
            continue
        entry = Entry(
            item.name,
            _untree(item.description, prefix),
            path,
            file,
            item.scope,
            _untree(item.raw, prefix) or "",
        )
        cases[owner].append(entry)
        order.append(f"{owner}:{item.name}")
    return BatchListing(cases, builtins, order, roots)


def read_record(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text("utf-8"))
    return data
