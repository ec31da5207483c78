"""Comparing two listings of one case (a record and skilldeck's prediction, or two
records), and the known differences (``tests/hosts/known_differences.toml``).

A difference has a *kind*:

- ``listed``: the names listed differ (a skill listed or not, a name shown otherwise);
- ``text``: a description as sent differs (the loading fallbacks, the cut, the ellipsis,
  which copy of a name won);
- ``path``: the location an entry shows differs;
- ``order``: the same entries in another order;
- ``line``: the same name, text and path written otherwise (the entry's format).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

from host_lab.matrix import Case
from host_lab.observation import Entry

KNOWN = Path(__file__).resolve().parents[2] / "tests" / "hosts" / "known_differences.toml"
KINDS = ("listed", "text", "path", "order", "line")
NOT_MODELLED = "not yet modelled"


@dataclass(frozen=True)
class Difference:
    kind: str
    observed: str
    skilldeck: str

    def one_line(self) -> str:
        return f"{self.kind}: observed {self.observed} / skilldeck {self.skilldeck}"


def short(text: str | None, most: int = 100) -> str:
    """``text`` on one line, cut at ``most`` characters (``(none)`` for ``None``)."""
    if text is None:
        return "(none)"
    flat = text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    return repr(flat if len(flat) <= most else flat[: most - 1] + "\u2026")


def _apart(left: str | None, right: str | None, before: int = 30) -> tuple[str, str]:
    """Two texts shown from a little before where they first differ (long texts that
    differ near their end, such as a cut, show the end), with their lengths."""
    if left is None or right is None or max(len(left), len(right)) <= 100:
        return short(left), short(right)
    at = next(
        (i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b),
        min(len(left), len(right)),
    )
    start = max(0, at - before)
    return (
        f"({len(left)} chars) " + short(("\u2026" if start else "") + left[start:]),
        f"({len(right)} chars) " + short(("\u2026" if start else "") + right[start:]),
    )


def _names(entries: Sequence[Entry], most: int = 6) -> str:
    if not entries:
        return "(nothing)"
    if len(entries) <= most:
        return "[" + ", ".join(short(e.name, 60) for e in entries) + "]"
    first, last = short(entries[0].name, 60), short(entries[-1].name, 60)
    return f"{len(entries)} entries [{first}, ..., {last}]"


def _pairs(observed: Sequence[Entry], predicted: Sequence[Entry]) -> list[tuple[Entry, Entry]]:
    """Entries of the two sides with the same name, in order (the n-th ``x`` with the
    n-th ``x``; where both show the file, same-named entries pair by file)."""
    pairs: list[tuple[Entry, Entry]] = []
    left = list(predicted)
    for item in observed:
        match = next(
            (p for p in left if p.name == item.name and item.file and p.file == item.file), None
        ) or next((p for p in left if p.name == item.name), None)
        if match is not None:
            left.remove(match)
            pairs.append((item, match))
    return pairs


def compare(
    observed: Sequence[Entry],
    predicted: Sequence[Entry],
    *,
    ordered: bool = True,
    which: bool = True,
) -> list[Difference]:
    """The differences between two listings of one case, at most one per kind.
    ``ordered=False``: the host's order is not stable (both sides are compared sorted);
    ``which=False``: which of same-named copies the host keeps is not stable (only the
    names listed are compared)."""
    found: list[Difference] = []
    if sorted(e.name for e in observed) != sorted(e.name for e in predicted):
        found.append(Difference("listed", _names(observed), _names(predicted)))
    if not which:
        return found
    if not ordered:
        key = lambda e: (e.name, e.file or "", e.description or "")  # noqa: E731
        observed, predicted = sorted(observed, key=key), sorted(predicted, key=key)
    pairs = _pairs(observed, predicted)
    text = [(o, p) for o, p in pairs if o.description != p.description]
    if text:
        o, p = text[0]
        found.append(Difference("text", *_apart(o.description, p.description)))
    path = [(o, p) for o, p in pairs if o.path != p.path]
    if path:
        o, p = path[0]
        found.append(Difference("path", short(o.path), short(p.path)))
    if not found and [e.name for e in observed] != [e.name for e in predicted]:
        found.append(Difference("order", _names(observed), _names(predicted)))
    line = [
        (o, p)
        for o, p in pairs
        if o.description == p.description and o.path == p.path and o.line != p.line
    ]
    if line:
        o, p = line[0]
        found.append(Difference("line", short(o.line, 160), short(p.line, 160)))
    return found


def compare_case(
    record: Mapping[str, object],
    case: Case,
    observed: Sequence[Entry],
    predicted: Sequence[Entry],
) -> list[Difference]:
    """:func:`compare` as ``record``'s host allows: its order (``stable_order``) and the
    case's copies (``unstable``) compared only where they are stable."""
    return compare(
        observed,
        predicted,
        ordered=bool(record.get("stable_order", True)),
        which=str(record["host"]) not in case.unstable,
    )


@dataclass(frozen=True)
class Known:
    """One declared difference: ``case`` ``*`` stands for every case of the host (a
    difference of format that every entry shows); such an entry is not strict."""

    host: str
    case: str
    kind: str
    observed: str
    skilldeck: str
    reason: str


def read_known(path: Path = KNOWN) -> list[Known]:
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text("utf-8"))
    known = []
    for item in data.get("difference", []):
        if item["kind"] not in KINDS:
            raise ValueError(f"{path}: unknown kind {item['kind']!r} ({', '.join(KINDS)})")
        known.append(
            Known(
                item["host"],
                item["case"],
                item["kind"],
                item.get("observed", ""),
                item.get("skilldeck", ""),
                item["reason"],
            )
        )
    return known


def declared(known: Sequence[Known], host: str, case: str) -> tuple[set[str], set[str]]:
    """(the kinds declared for this case, the kinds declared for every case of host)."""
    exact = {k.kind for k in known if k.host == host and k.case == case}
    every = {k.kind for k in known if k.host == host and k.case == "*"}
    return exact, every


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped)
    return f'"{escaped}"'


HEADER = """\
# What skilldeck's per-host view says differently from the hosts' released binaries, as
# recorded by the host lab (tests/hosts/observed/<host>-<version>.json). Each entry: host,
# case (the id in tests/hosts/cases.toml; "*" = every case of that host: a format every
# entry shows), kind (listed | text | path | order | line: see tools/host_lab/compare.py),
# what the host sent and what skilldeck says (the first differing entry, one line each),
# and why skilldeck differs.
#
# tests/hosts/test_hosts_observed.py holds this list exact: a difference not listed here
# fails; a listed one that is gone fails as an unexpected pass (strict xfail). After
# modelling a difference, delete its entry (or run `scripts/host-lab known`, which rewrites
# the per-case entries from the records and keeps every reason already written).
"""


def write_known(path: Path, entries: Sequence[Known]) -> None:
    lines = [HEADER]
    order = {kind: index for index, kind in enumerate(KINDS)}
    for item in sorted(
        entries, key=lambda k: (k.host, k.case != "*", k.case, order.get(k.kind, 9))
    ):
        lines.append("[[difference]]")
        lines.append(f"host = {_toml_string(item.host)}")
        lines.append(f"case = {_toml_string(item.case)}")
        lines.append(f"kind = {_toml_string(item.kind)}")
        lines.append(f"observed = {_toml_string(item.observed)}")
        lines.append(f"skilldeck = {_toml_string(item.skilldeck)}")
        lines.append(f"reason = {_toml_string(item.reason)}")
        lines.append("")
    path.write_text("\n".join(lines), "utf-8")
