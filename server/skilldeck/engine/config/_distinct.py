"""Skills their author has declared distinct: the ``distinct`` groups of ``[overlap]``.

Routing overlap is a judgement from names and descriptions, and some pairs it reports are
skills the author has already checked and knows the model tells apart: the levels of one
family (``c4-code`` / ``c4-component``), the stages of one pipeline. The author lists them
once in ``skilldeck.toml``::

    [overlap]
    distinct = [["c4-*"], ["opensource-forker", "opensource-sanitizer"]]

Each group is a list of skill-name patterns (``fnmatch``: ``*``, ``?``, ``[...]``,
matched case-sensitively against the skill's name). Two skills are declared distinct when
both names match patterns of one group; a group of one pattern declares every skill it
matches distinct from every other. SD801 is then not reported between them. SD802 still
is: near-identical descriptions give the model nothing to tell the skills apart by, so
the declaration cannot be true of them.

:func:`declare_distinct` adds a group to a config file's text (the editor's quick fix),
keeping its comments and layout (tomlkit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from skilldeck.engine.config._toml_values import toml_text

DistinctGroups = tuple[tuple[str, ...], ...]


def validate_distinct(value: object, what: str) -> DistinctGroups:
    """``value`` as distinct groups: a list of lists of non-empty name patterns, each group
    non-empty; ``ValueError`` naming ``what`` otherwise."""
    example = 'e.g. [["c4-*"], ["skill-a", "skill-b"]]'
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of groups of skill names, {example}")
    groups: list[tuple[str, ...]] = []
    for group in value:
        if isinstance(group, (str, bytes)) or not isinstance(group, (list, tuple)):
            raise ValueError(
                f"{what} must be a list of groups (lists) of skill names, found "
                f"{toml_text(group)}; {example}"
            )
        if not group or not all(isinstance(p, str) and p.strip() for p in group):
            raise ValueError(
                f"{what}: each group must list one or more non-empty skill names or "
                f"patterns, found {toml_text(list(group))}"
            )
        groups.append(tuple(group))
    return tuple(groups)


@dataclass
class DistinctMatcher:
    """Answers "has the author declared these two skills distinct?" for one set of
    groups, remembering which groups each name matches (a deck has few names, many
    pairs)."""

    groups: DistinctGroups
    _memberships: dict[str, frozenset[int]] = field(default_factory=dict, repr=False)

    def __bool__(self) -> bool:
        return bool(self.groups)

    def declared(self, name: str, other: str) -> bool:
        """Whether skills named ``name`` and ``other`` are declared distinct (never for
        two skills of one name: they are copies, not siblings)."""
        if not self.groups or name == other:
            return False
        return not self._groups_of(name).isdisjoint(self._groups_of(other))

    def _groups_of(self, name: str) -> frozenset[int]:
        found = self._memberships.get(name)
        if found is None:
            found = frozenset(
                number
                for number, patterns in enumerate(self.groups)
                if any(fnmatchcase(name, pattern) for pattern in patterns)
            )
            self._memberships[name] = found
        return found


def declare_distinct(config_text: str, names: tuple[str, str], *, pyproject: bool) -> str:
    """``config_text`` (a ``skilldeck.toml``, or with ``pyproject`` a ``pyproject.toml``
    whose ``[tool.skilldeck]`` table is meant) with the group ``names`` added to the
    ``distinct`` of its ``[overlap]`` table, which is made when missing; everything else
    is kept as written. ``ValueError`` when the text is no TOML or the keys on the way
    hold something other than tables and an array."""
    import tomlkit  # noqa: PLC0415 - only the editor's quick fix writes config files
    from tomlkit.exceptions import TOMLKitError  # noqa: PLC0415

    try:
        document = tomlkit.parse(config_text)
    except TOMLKitError as error:
        raise ValueError(f"the config file is not valid TOML: {error}") from None
    table: Any = document
    path = ("tool", "skilldeck", "overlap") if pyproject else ("overlap",)
    for key in path:
        if key not in table:
            table[key] = tomlkit.table(is_super_table=key != "overlap")
        table = table[key]
        if not isinstance(table, dict):
            raise ValueError(f"'{key}' in the config file is not a table")
    groups = table.get("distinct")
    if groups is None:
        groups = tomlkit.array()
        table["distinct"] = groups
    if not isinstance(groups, list):
        raise ValueError("'overlap.distinct' in the config file is not an array")
    groups.append(list(names))
    return tomlkit.dumps(document)
