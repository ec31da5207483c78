"""The user's rule settings: which profile runs, the catalog cap, each rule's severity
(or ``off``), the overlap thresholds and the skills declared distinct; validated once,
at construction, so every front end reads the same settings."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, fields, replace
from types import MappingProxyType

from skilldeck.engine.config._distinct import validate_distinct
from skilldeck.engine.config._numbers import validate_threshold
from skilldeck.engine.config._toml_values import toml_text
from skilldeck.engine.config._settings_fields import AnalysisFields
from skilldeck.engine.config._settings_schema import (
    DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    DEFAULT_OVERLAP_THRESHOLD,
)
from skilldeck.engine.rules import RULES, Severity, get_profile, rule
from skilldeck.engine.text import validate_max_description_length

__all__ = ["DEFAULT_NEAR_DUPLICATE_THRESHOLD", "DEFAULT_OVERLAP_THRESHOLD", "validate_threshold"]


def _normalize_overrides(
    overrides: Mapping[str, Severity | str | None],
) -> Mapping[str, Severity | None]:
    table: dict[str, Severity | None] = {}
    for key, value in overrides.items():
        code = rule(key).code
        if value is None or isinstance(value, Severity):
            table[code] = value
        elif isinstance(value, str) and value.lower() in ("off", "none"):
            table[code] = None
        else:
            try:
                table[code] = Severity(str(value).lower())
            except ValueError:
                raise ValueError(
                    f"invalid severity {toml_text(value)} for rule {toml_text(key)}: use "
                    "error, warning, information, hint or off"
                ) from None
    return MappingProxyType(table)


@dataclass(frozen=True)
class RuleSettings(AnalysisFields):
    """What reaches the analysis: every setting whose ``reach`` is ``file`` or ``deck``
    (the settings table; the fields are generated in ``_settings_fields.py``): which
    profile runs, the catalog cap, per-rule severity overrides, the agents reported on,
    the overlap thresholds (SD801 / SD802) and the skills declared distinct
    (:mod:`skilldeck.engine.config._distinct`). Every cache and memo key digests it
    (:func:`skilldeck.engine.filesystem.cache_key`).

    ``overrides`` is keyed by rule code or name; a value of ``None`` (or ``"off"``)
    switches the rule off. Invalid settings raise ``ValueError`` at construction.
    """

    def __post_init__(self) -> None:
        get_profile(self.profile)
        validate_max_description_length(self.catalog_max_description_length)
        validate_threshold(self.overlap_threshold, "overlap threshold")
        validate_threshold(self.near_duplicate_threshold, "near-duplicate threshold")
        object.__setattr__(
            self, "overlap_distinct", validate_distinct(self.overlap_distinct, "distinct")
        )
        object.__setattr__(self, "hosts", tuple(self.hosts))
        try:
            normalized = _normalize_overrides(self.overrides)
        except KeyError as error:
            raise ValueError(error.args[0]) from None
        object.__setattr__(self, "overrides", normalized)

    def __hash__(self) -> int:
        return hash(
            tuple(
                tuple(sorted((k, v.value if v else None) for k, v in value.items()))
                if isinstance(value, Mapping)
                else value
                for value in (getattr(self, f.name) for f in fields(AnalysisFields))
            )
        )

    def severity_for(self, code: str, default: Severity) -> Severity | None:
        """The effective severity of rule ``code`` (``None`` when it is off)."""
        return self.overrides.get(code, default)

    def in_force(self, code: str) -> bool:
        """Whether rule ``code`` is reported (not switched ``off``)."""
        return self.overrides.get(code, True) is not None

    def narrowed(self, select: AbstractSet[str] | None) -> RuleSettings:
        """These settings with every rule outside ``select`` switched off (``None``: all
        selected, ``self`` returned): what a run that reports only ``select`` (``check
        --select / --ignore``) needs the deck-wide passes to compute."""
        if select is None:
            return self
        dropped = {r.code: None for r in RULES if r.code not in select and self.in_force(r.code)}
        if not dropped:
            return self
        return replace(self, overrides={**self.overrides, **dropped})
