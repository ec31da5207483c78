"""Scopes: the keys of the registry's per-scope layers (SPEC section 3).

A scope names a layer that sits over the global layer, e.g. an agent preset. Scopes
form a parent chain; a read through a scope sees the global layer plus every layer on
the chain, and the nearest layer wins a duplicate skill name outright.
"""

from __future__ import annotations


class Scope:
    """A named, identity-compared layer key with an optional parent.

    Two ``Scope`` objects are the same layer only when they are the same object: the
    ``name`` is a label for logs and messages, not an identity. The parent is fixed at
    construction, so a scope's chain never changes.
    """

    __slots__ = ("__weakref__", "_name", "_parent")

    def __init__(self, name: str, parent: Scope | None = None) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a scope needs a non-empty string name, got {name!r}")
        if parent is not None and not isinstance(parent, Scope):
            raise TypeError(
                f"a scope's parent must be a Scope or None, got {type(parent).__name__}"
            )
        self._name = name
        self._parent = parent

    @property
    def name(self) -> str:
        """The label given at construction."""
        return self._name

    @property
    def parent(self) -> Scope | None:
        """The next layer out, or ``None`` when only the global layer lies beyond."""
        return self._parent

    def chain(self) -> tuple[Scope, ...]:
        """This scope and its ancestors, nearest first."""
        scopes: list[Scope] = []
        current: Scope | None = self
        while current is not None:
            scopes.append(current)
            current = current.parent
        return tuple(scopes)

    def __repr__(self) -> str:
        path = " < ".join(scope.name for scope in self.chain())
        return f"Scope({path})"
