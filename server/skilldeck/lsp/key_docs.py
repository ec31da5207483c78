"""A profile key's documentation as Markdown, shared by completion and hover.

Everything shown comes from :class:`~skilldeck.engine.rules.KeyInfo`; nothing about
a key is written here.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from skilldeck.engine.rules import KeyInfo, Profile


def key_detail(info: KeyInfo) -> str:
    """One line: type, default and whether it is required (completion ``detail``)."""
    parts = [info.value_type]
    if info.required:
        parts.append("required")
    if info.default is not None:
        parts.append(f"default {info.default}")
    if not info.enforced:
        parts.append("not enforced")
    return " · ".join(parts)


def key_markdown(info: KeyInfo, profile: Profile, profile_source: str | None = None) -> str:
    """The full documentation of ``info`` under ``profile``.

    ``profile_source`` says where the profile setting came from (hover: ``default``,
    ``from `skilldeck.toml```...); completion leaves it out.
    """
    facts = [f"Type: {info.value_type}"]
    if info.values:
        facts.append("Values: " + ", ".join(f"`{value}`" for value in info.values))
    if info.default is not None:
        facts.append(f"Default: `{info.default}`")
    facts.append(f"Controls: {info.surface}")
    facts.append(
        "Enforced by skilldeck: " + ("yes" if info.enforced else "no (accepted, not acted on)")
    )
    if info.required:
        facts.append("Required")
    source = f" ({profile_source})" if profile_source is not None else ""
    facts.append(f"Profile: `{profile.name}`{source}")
    return f"**`{info.key}`**\n\n{info.documentation}\n\n" + "  \n".join(facts)


def unknown_key_markdown(key: str, profile: Profile) -> str:
    """What hover says about a key the profile does not document."""
    if profile.closed:
        return (
            f"**`{key}`** is not a key of the `{profile.name}` profile; "
            "vendor keys belong under `metadata`."
        )
    return (
        f"**`{key}`** is not documented by the `{profile.name}` profile; "
        "skilldeck keeps it as written and does not act on it."
    )


def markup(value: str, formats: Sequence[types.MarkupKind | str] | None) -> types.MarkupContent:
    """``value`` as Markdown when the client lists it in ``formats``, else as plain text."""
    kinds = {f.value if isinstance(f, types.MarkupKind) else f for f in formats or ()}
    kind = types.MarkupKind.Markdown if "markdown" in kinds else types.MarkupKind.PlainText
    return types.MarkupContent(kind=kind, value=value)
