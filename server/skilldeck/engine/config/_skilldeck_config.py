"""Settings for one skilldeck run: built-in defaults, environment, config file, flags.

Precedence, lowest to highest (a later layer overrides an earlier one, key by key):

1. built-in defaults (the fields of :class:`SkilldeckConfig`);
2. the environment: ``$DSH_HOME``, ``$DSH_AGENTS_HOME``, ``$DSH_BUNDLED_SKILL_DIR``
   (:meth:`SkilldeckConfig.from_environment`);
3. the project's config file: ``skilldeck.toml`` at the project root, else the
   ``[tool.skilldeck]`` table of the project's ``pyproject.toml`` (:func:`load_config_file`);
4. command-line flags or editor settings (a :class:`ConfigLayer` given to
   :meth:`SkilldeckConfig.merged`).

A set value replaces the value below it; ``rule_overrides`` merge per rule (a higher
layer's entry for a rule replaces the lower layer's entry for that rule only).
:attr:`SkilldeckConfig.sources` records, per value, the ``origin`` of the layer that set
it (absent: the built-in default), so front ends can say where an effective value
came from.
``custom_skill_dirs`` is replaced as a whole. ``remote_sources`` merge per source name,
like ``rule_overrides`` per rule: a higher layer's source replaces the lower layer's
source of the same name (in its place) and its other sources are added after them, so
editor settings add a developer's own sources to the team's ``[[sources]]`` and can
repoint one of them (docs/sources.md). Relative ``custom-skill-dirs`` and
``bundled-skill-dir`` in a file are relative to that file's folder.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from skilldeck.engine.config._distinct import validate_distinct
from skilldeck.engine.config._rule_settings import RuleSettings, validate_threshold
from skilldeck.engine.config._settings_schema import FILE_KEYS
from skilldeck.engine.config._source_spec import SourceSpec, SourceSpecError, parse_sources
from skilldeck.engine.config._toml_values import toml_text
from skilldeck.engine.hosts import HOSTS
from skilldeck.engine.rules import PROFILES, Severity, rule
from skilldeck.engine.text import MIN_CATALOG_DESCRIPTION_MAX_LENGTH

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

#: File names searched at the project root, in order; the first one that configures
#: skilldeck wins.
CONFIG_FILE_NAMES = ("skilldeck.toml", "pyproject.toml")

#: The words a rule override may use; ``off`` disables the rule.
SEVERITY_WORDS: Mapping[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "information": Severity.INFORMATION,
    "hint": Severity.HINT,
    "off": None,
}

MIN_CATALOG_DESCRIPTION_LENGTH = MIN_CATALOG_DESCRIPTION_MAX_LENGTH

#: The path-valued fields of a :class:`ConfigLayer`, with the name a message shows.
PATH_FIELDS: Mapping[str, str] = {
    "custom_skill_dirs": "custom-skill-dirs",
    "dsh_home": "dsh-home",
    "agents_home": "agents-home",
    "bundled_skill_dir": "bundled-skill-dir",
}

#: The origin recorded in :attr:`SkilldeckConfig.sources` for a layer without one
#: (the CLI's flags).
FLAGS_ORIGIN = "command-line flags"

_FILE_KEYS = FILE_KEYS
#: Keys of the ``[overlap]`` table and the settings they set.
_OVERLAP_KEYS = {
    "threshold": "overlap_threshold",
    "near-duplicate-threshold": "near_duplicate_threshold",
    "distinct": "overlap_distinct",
}


class ConfigError(Exception):
    """A configuration file or value skilldeck cannot use.

    ``path`` is the file (or ``None`` for values that came from flags), ``key`` the
    offending key as written by the user.
    """

    def __init__(self, message: str, *, path: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.key = key


@dataclass(frozen=True)
class ConfigLayer:
    """A partial configuration: ``None`` (or an empty mapping) means "not set here".

    The CLI builds one from its flags; :func:`load_config_file` returns one for a file.
    ``origin`` names where it came from, for messages.
    """

    profile: str | None = None
    custom_skill_dirs: tuple[str, ...] | None = None
    dsh_home: str | None = None
    agents_home: str | None = None
    bundled_skill_dir: str | None = None
    bundled_skills: bool | None = None
    mcp_require_safe: bool | None = None
    include_default_roots: bool | None = None
    include_user_roots: bool | None = None
    catalog_max_description_length: int | None = None
    overlap_threshold: float | None = None
    near_duplicate_threshold: float | None = None
    #: ``[overlap] distinct``: groups of skill-name patterns declared distinct.
    overlap_distinct: tuple[tuple[str, ...], ...] | None = None
    rule_overrides: Mapping[str, Severity | None] = field(default_factory=dict)
    remote_sources: tuple[SourceSpec, ...] | None = None
    hosts: tuple[str, ...] | None = None
    origin: str | None = None


@dataclass(frozen=True)
class SkilldeckConfig:
    """Everything that decides which roots are scanned and how files are judged.

    ``dsh_home`` / ``agents_home`` default to ``~/.dsh`` / ``~/.agents`` when ``None``
    (see :mod:`skilldeck.engine.filesystem`). ``rule_overrides`` maps a rule code (``SD101``)
    to a severity, or ``None`` to turn the rule off. ``config_file`` records the file
    that was merged in, if any.
    """

    profile: str = "dsh"
    custom_skill_dirs: tuple[str, ...] = ()
    dsh_home: str | None = None
    agents_home: str | None = None
    bundled_skill_dir: str | None = None
    bundled_skills: bool = False
    #: ``skilldeck mcp`` leaves out skills with error-level SD10xx findings.
    mcp_require_safe: bool = False
    include_default_roots: bool = True
    include_user_roots: bool = True
    catalog_max_description_length: int = 500
    overlap_threshold: float | None = None
    near_duplicate_threshold: float | None = None
    #: ``[overlap] distinct`` (:mod:`skilldeck.engine.config._distinct`).
    overlap_distinct: tuple[tuple[str, ...], ...] = ()
    rule_overrides: Mapping[str, Severity | None] = field(default_factory=dict)
    #: The ``[[sources]]`` of the config file: remote skill sources (git, mcp).
    remote_sources: tuple[SourceSpec, ...] = ()
    #: The agents whose view is reported (``engine/hosts/_table.py``); ``dsh`` alone by default.
    hosts: tuple[str, ...] = ("dsh",)
    config_file: str | None = None
    #: Field name -> ``origin`` of the layer that set it; a field not listed is the
    #: built-in default. Environment values have origin ``$NAME``.
    sources: Mapping[str, str] = field(default_factory=dict)

    def source_of(self, name: str) -> str | None:
        """The origin of field ``name``'s value, or ``None`` for the built-in default."""
        return self.sources.get(name)

    def rule_settings(self) -> RuleSettings:
        """The settings the per-file analysis needs (profile, catalog cap, overrides).

        Made once per configuration (the language server asks on every keystroke); the
        result is shared, so treat it as read-only like the configuration itself.
        """
        made: RuleSettings | None = self.__dict__.get("_rule_settings")
        if made is not None:
            return made

        thresholds = {
            name: value
            for name in ("overlap_threshold", "near_duplicate_threshold")
            if (value := getattr(self, name)) is not None
        }
        made = RuleSettings(
            profile=self.profile,
            catalog_max_description_length=self.catalog_max_description_length,
            overrides=dict(self.rule_overrides),
            overlap_distinct=self.overlap_distinct,
            **thresholds,
        )
        object.__setattr__(self, "_rule_settings", made)  # a cache on a frozen value
        return made

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SkilldeckConfig:
        """Defaults plus ``$DSH_HOME``, ``$DSH_AGENTS_HOME`` and ``$DSH_BUNDLED_SKILL_DIR``.

        Empty variables count as unset. ``environ`` defaults to ``os.environ``.
        """
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(name)
            return os.path.abspath(os.path.expanduser(value)) if value else None

        dsh_home = get("DSH_HOME")
        agents_home = get("DSH_AGENTS_HOME")
        bundled = get("DSH_BUNDLED_SKILL_DIR")
        variables = {
            "dsh_home": (dsh_home, "$DSH_HOME"),
            "agents_home": (agents_home, "$DSH_AGENTS_HOME"),
            "bundled_skill_dir": (bundled, "$DSH_BUNDLED_SKILL_DIR"),
        }
        return cls(
            dsh_home=dsh_home,
            agents_home=agents_home,
            bundled_skill_dir=bundled,
            sources={name: var for name, (value, var) in variables.items() if value is not None},
        )

    def merged(self, layer: ConfigLayer | None) -> SkilldeckConfig:
        """This config with every value ``layer`` sets replacing ours (see module doc)."""
        if layer is None:
            return self
        changes: dict[str, Any] = {}
        for f in fields(ConfigLayer):
            if f.name in ("origin", "rule_overrides", "remote_sources"):
                continue
            value = getattr(layer, f.name)
            if value is not None:
                changes[f.name] = value
        if layer.rule_overrides:
            changes["rule_overrides"] = {**self.rule_overrides, **layer.rule_overrides}
        if layer.remote_sources is not None:
            changes["remote_sources"] = merged_sources(self.remote_sources, layer.remote_sources)
        for name, shown in PATH_FIELDS.items():
            value = getattr(layer, name)
            for item in (value,) if isinstance(value, str) else value or ():
                problem = path_problem(item)
                if problem is not None:
                    raise ConfigError(
                        f"{_where(layer.origin)}'{shown}' {problem}", path=layer.origin, key=shown
                    )

        origin = layer.origin if layer.origin is not None else FLAGS_ORIGIN
        changes["sources"] = {**self.sources, **dict.fromkeys(changes, origin)}
        if layer.catalog_max_description_length is not None:
            _check_cap(
                layer.catalog_max_description_length, "catalog-description-max-length", layer.origin
            )
        return replace(self, **changes)


def merged_sources(
    lower: tuple[SourceSpec, ...], higher: tuple[SourceSpec, ...]
) -> tuple[SourceSpec, ...]:
    """``lower``'s sources with each one ``higher`` names again replaced in place, then
    ``higher``'s other sources (see the module doc)."""
    by_name = {spec.name: spec for spec in higher}
    kept = tuple(by_name.pop(spec.name, spec) for spec in lower)
    return kept + tuple(spec for spec in higher if spec.name in by_name)


def path_problem(value: str) -> str | None:
    """Why ``value`` can never name a file (``None`` when it can).

    The operating system refuses a path with a NUL character; Python raises
    ``ValueError`` for it deep inside a scan, so a setting is checked where it is read.
    """
    if "\0" in value:
        return "must not contain a NUL character"
    return None


def find_config_file(project_root: str | os.PathLike[str]) -> Path | None:
    """The config file that applies to ``project_root``, or ``None``.

    ``skilldeck.toml`` wins when present; ``pyproject.toml`` counts only when it has a
    ``[tool.skilldeck]`` table.
    """
    root = Path(project_root)
    own = root / "skilldeck.toml"
    if own.is_file():
        return own
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = _read_toml(pyproject)
        except ConfigError:
            raise
        tool = data.get("tool")
        if isinstance(tool, dict) and "skilldeck" in tool:
            return pyproject
    return None


def declares_project_root(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a ``skilldeck.toml`` whose top level says ``project-root = true``.

    Unreadable or invalid files say nothing here (loading them reports the error).
    """
    file = Path(path)
    if not file.is_file():
        return False
    try:
        data = _read_toml(file)
    except ConfigError:
        return False
    return data.get("project-root") is True


def load_config_file(path: str | os.PathLike[str]) -> ConfigLayer:
    """Read one config file into a :class:`ConfigLayer`.

    Raises :class:`ConfigError` naming the file and key for syntax errors, unknown
    keys, wrong types, unknown rules and bad severities.
    """
    file = Path(path).absolute()
    return load_config_data(_read_toml(file), file)


def load_config_file_keeping_valid(
    path: str | os.PathLike[str],
) -> tuple[ConfigLayer, tuple[ConfigError, ...]]:
    """Like :func:`load_config_file`, but a bad key costs only that key: it is left out
    (``rules.SD999`` leaves the other rules) and its error returned beside what is valid,
    so an editor can show each error at its key and keep the rest. A file that is not
    TOML (or not readable) still raises: there is no valid part to keep.
    """
    file = Path(path).absolute()
    data = _read_toml(file)
    prefix = _table_prefix(file)
    errors: list[ConfigError] = []
    for _ in range(1000):  # each round drops one key; a file has fewer
        try:
            return load_config_data(data, file), tuple(errors)
        except ConfigError as error:
            if not _drop_key(data, error.key, prefix):
                raise
            errors.append(error)
    raise ConfigError(f"{file}: too many errors", path=str(file))


def load_config_data(data: Mapping[str, Any], file: Path) -> ConfigLayer:
    """The :class:`ConfigLayer` of an already parsed config file ``file``."""
    prefix = _table_prefix(file)
    if prefix:
        tool = data.get("tool", {})
        table = tool.get("skilldeck", {}) if isinstance(tool, dict) else {}
    else:
        table = data
    if not isinstance(table, dict):
        raise ConfigError(f"{file}: [{prefix.rstrip('.')}] must be a table", path=str(file))
    return _parse_table(table, file, prefix)


def _table_prefix(file: Path) -> str:
    """How the keys of ``file``'s skilldeck table are named in messages: ``tool.skilldeck.``
    in a ``pyproject.toml``, nothing in a ``skilldeck.toml``."""
    return "tool.skilldeck." if file.name == "pyproject.toml" else ""


def _drop_key(data: dict[str, Any], key: str | None, prefix: str) -> bool:
    """Remove the value ``key`` (as an error names it: ``rules.SD999``,
    ``ignore: SD999``, ``sources[1].url``) from ``data``; whether it was there."""
    if key is None or not key.startswith(prefix):
        return False
    parts = [part for part in re.split(r"[.\[\]:]\s*", key[len(prefix) :]) if part]
    table: Any = data
    for part in prefix.rstrip(".").split(".") if prefix else []:
        table = table.get(part) if isinstance(table, dict) else None
    if not parts or not isinstance(table, dict) or parts[0] not in table:
        return False
    head = parts[0]
    inner = table[head]
    if len(parts) > 1 and isinstance(inner, dict) and parts[1] in inner:
        del inner[parts[1]]  # one rule of [rules], one key of [overlap]
    elif len(parts) > 1 and isinstance(inner, list) and parts[1] in inner:
        inner.remove(parts[1])  # one code of `ignore`
    else:
        del table[head]
    return True


def parse_rule_overrides(
    table: Mapping[str, object], *, origin: str | None, prefix: str = "rules."
) -> dict[str, Severity | None]:
    """Turn ``{code-or-name: "error" | ... | "off"}`` into ``{code: Severity | None}``."""
    result: dict[str, Severity | None] = {}
    for key, value in table.items():
        code = _rule_code(key, origin=origin, shown=f"{prefix}{key}")
        if not isinstance(value, str) or value.lower() not in SEVERITY_WORDS:
            raise ConfigError(
                f"{_where(origin)}'{prefix}{key}' must be one of "
                f"{', '.join(toml_text(w) for w in SEVERITY_WORDS)}, not {toml_text(value)}",
                path=origin,
                key=f"{prefix}{key}",
            )
        result[code] = SEVERITY_WORDS[value.lower()]
    return result


def _parse_table(table: Mapping[str, object], file: Path, prefix: str) -> ConfigLayer:
    origin = str(file)
    base = file.parent
    values: dict[str, Any] = {}
    overrides: dict[str, Severity | None] = {}
    for key, value in table.items():
        shown = f"{prefix}{key}"
        if key not in _FILE_KEYS:
            raise ConfigError(
                f"{origin}: unknown key '{shown}' (known keys: {', '.join(_FILE_KEYS)})",
                path=origin,
                key=shown,
            )
        if key == "profile":
            values["profile"] = _profile(value, origin, shown)
        elif key == "custom-skill-dirs":
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise ConfigError(
                    f"{origin}: '{shown}' must be a list of folder paths", path=origin, key=shown
                )
            for item in value:
                _check_path(item, origin, shown)
            values["custom_skill_dirs"] = tuple(_resolve(base, v) for v in value)
        elif key == "bundled-skill-dir":
            if not isinstance(value, str) or not value:
                raise ConfigError(
                    f"{origin}: '{shown}' must be a folder path", path=origin, key=shown
                )
            _check_path(value, origin, shown)
            values["bundled_skill_dir"] = _resolve(base, value)
        elif key in ("bundled-skills", "mcp-require-safe"):
            if not isinstance(value, bool):
                raise ConfigError(
                    f"{origin}: '{shown}' must be true or false", path=origin, key=shown
                )
            values[key.replace("-", "_")] = value
        elif key == "catalog-description-max-length":
            values["catalog_max_description_length"] = _check_cap(value, shown, origin)
        elif key == "rules":
            if not isinstance(value, dict):
                raise ConfigError(f"{origin}: '{shown}' must be a table", path=origin, key=shown)
            overrides.update(parse_rule_overrides(value, origin=origin, prefix=f"{shown}."))
        elif key == "hosts":
            values["hosts"] = parse_host_names(value, origin=origin, shown=shown)
        elif key == "project-root":
            if file.name != "skilldeck.toml" or not isinstance(value, bool):
                raise ConfigError(
                    f"{origin}: '{shown}' must be true or false, and only in skilldeck.toml",
                    path=origin,
                    key=shown,
                )
        elif key == "sources":
            try:
                values["remote_sources"] = parse_sources(value, shown, str(base))
            except SourceSpecError as error:
                raise ConfigError(f"{origin}: {error}", path=origin, key=error.key) from None
        elif key == "overlap":
            values.update(_overlap_table(value, origin, shown))
        elif key == "ignore":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(
                    f"{origin}: '{shown}' must be a list of rule codes or names",
                    path=origin,
                    key=shown,
                )
            for item in value:
                overrides[_rule_code(item, origin=origin, shown=f"{shown}: {item}")] = None
    return ConfigLayer(**values, rule_overrides=overrides, origin=origin)


def _overlap_table(table: object, origin: str, shown: str) -> dict[str, object]:
    """The ``[overlap]`` table: ``threshold`` (SD801), ``near-duplicate-threshold`` (SD802),
    ``distinct`` (groups of skill names declared distinct)."""

    if not isinstance(table, dict):
        raise ConfigError(f"{origin}: '{shown}' must be a table", path=origin, key=shown)
    values: dict[str, object] = {}
    for key, value in table.items():
        where = f"{shown}.{key}"
        if key not in _OVERLAP_KEYS:
            raise ConfigError(
                f"{origin}: unknown key '{where}' (known keys: {', '.join(_OVERLAP_KEYS)})",
                path=origin,
                key=where,
            )
        try:
            if key == "distinct":
                values[_OVERLAP_KEYS[key]] = validate_distinct(value, f"'{where}'")
            else:
                values[_OVERLAP_KEYS[key]] = validate_threshold(value, f"'{where}'")
        except ValueError as error:
            raise ConfigError(f"{origin}: {error}", path=origin, key=where) from None
    return values


#: A UTF-8 byte order mark, as "UTF-8 with BOM" editors write it; accepted and skipped.
_BOM = b"\xef\xbb\xbf"


def _read_toml(file: Path) -> dict[str, Any]:
    """The TOML document in ``file`` (a leading UTF-8 byte order mark is skipped)."""
    try:
        with file.open("rb") as handle:
            raw = handle.read()
        text = raw.removeprefix(_BOM).decode("utf-8")
        data: dict[str, Any] = tomllib.loads(text)
        return data
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{file}: invalid TOML: not UTF-8 text (byte {error.start + 1})", path=str(file)
        ) from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{file}: invalid TOML: {error}", path=str(file)) from error
    except OSError as error:
        raise ConfigError(f"{file}: cannot read: {error.strerror}", path=str(file)) from error


def _resolve(base: Path, value: str) -> str:
    return os.path.normpath(os.path.join(base, os.path.expanduser(value)))


def parse_host_names(value: object, *, origin: str | None, shown: str) -> tuple[str, ...]:
    """A list of host names (:data:`skilldeck.engine.hosts.HOSTS`), each known;
    ``ConfigError`` otherwise."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(
            f"{_where(origin)}'{shown}' must be a list of host names", path=origin, key=shown
        )
    for item in value:
        if item not in HOSTS:
            raise ConfigError(
                f"{_where(origin)}unknown host {toml_text(item)} in '{shown}' "
                f"(known: {', '.join(HOSTS)})",
                path=origin,
                key=shown,
            )
    return tuple(dict.fromkeys(value))


def _profile(value: object, origin: str | None, shown: str) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(
            f"{_where(origin)}'{shown}' must be a profile name", path=origin, key=shown
        )
    known = PROFILES
    if value not in known:
        raise ConfigError(
            f"{_where(origin)}unknown profile {toml_text(value)} in '{shown}' "
            f"(known: {', '.join(sorted(known))})",
            path=origin,
            key=shown,
        )
    return value


def _check_path(value: str, origin: str, shown: str) -> None:
    problem = path_problem(value)
    if problem is not None:
        raise ConfigError(f"{origin}: '{shown}' {problem}", path=origin, key=shown)


def _check_cap(value: object, shown: str, origin: str | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{_where(origin)}'{shown}' must be an integer", path=origin, key=shown)
    if value < MIN_CATALOG_DESCRIPTION_LENGTH:
        raise ConfigError(
            f"{_where(origin)}'{shown}' must be at least {MIN_CATALOG_DESCRIPTION_LENGTH}, "
            f"not {value}",
            path=origin,
            key=shown,
        )
    return value


def _rule_code(key: str, *, origin: str | None, shown: str) -> str:
    """Map a rule code or kebab name to its code, or raise naming the key."""

    try:
        return rule(key).code
    except KeyError:
        raise ConfigError(
            f"{_where(origin)}unknown rule '{shown}' (`skilldeck rules` lists them)",
            path=origin,
            key=shown,
        ) from None


def _where(origin: str | None) -> str:
    return f"{origin}: " if origin else ""
