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
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._setting_kinds import Reading, SettingProblem
from skilldeck.engine.config._settings_fields import ConfigFields, LayerFields
from skilldeck.engine.config._settings_schema import (
    BY_FILE_KEY,
    FIELD_SETTINGS,
    FILE_KEYS,
    FILE_TABLES,
    SERVER_EDITOR_SETTINGS,
    Setting,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]


#: File names searched at the project root, in order; the first one that configures
#: skilldeck wins.
CONFIG_FILE_NAMES = ("skilldeck.toml", "pyproject.toml")

#: The origin recorded in :attr:`SkilldeckConfig.sources` for a layer without one
#: (the CLI's flags).
FLAGS_ORIGIN = "command-line flags"

#: The ``origin`` of an editor's settings layer (see :attr:`SkilldeckConfig.sources`).
EDITOR_SETTINGS = "editor settings"


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
class ConfigLayer(LayerFields):
    """A partial configuration: ``None`` (or an empty mapping) means "not set here"; its
    fields are the settings table's (``_settings_fields.py``, generated).

    The CLI builds one from its flags; :func:`load_config_file` returns one for a file,
    :func:`read_editor_settings` for an editor's settings. ``origin`` names where it came
    from, for messages.
    """

    origin: str | None = None


@dataclass(frozen=True)
class SkilldeckConfig(ConfigFields):
    """Everything that decides which roots are scanned and how files are judged; its
    fields are the settings table's (``_settings_fields.py``, generated).

    ``dsh_home`` / ``agents_home`` default to ``~/.dsh`` / ``~/.agents`` when ``None``
    (see :mod:`skilldeck.engine.filesystem`). ``rule_overrides`` maps a rule code (``SD101``)
    to a severity, or ``None`` to turn the rule off. ``config_file`` records the file
    that was merged in, if any.
    """

    config_file: str | None = None
    #: Field name -> ``origin`` of the layer that set it; a field not listed is the
    #: built-in default. Environment values have origin ``$NAME``.
    sources: Mapping[str, str] = field(default_factory=dict)

    def source_of(self, name: str) -> str | None:
        """The origin of field ``name``'s value, or ``None`` for the built-in default."""
        return self.sources.get(name)

    def rule_settings(self) -> RuleSettings:
        """What reaches the analysis: every setting whose ``reach`` is ``file`` or ``deck``
        (the settings table), as :class:`RuleSettings`.

        Made once per configuration (the language server asks on every keystroke); the
        result is shared, so treat it as read-only like the configuration itself.
        """
        made: RuleSettings | None = self.__dict__.get("_rule_settings")
        if made is not None:
            return made
        made = RuleSettings(
            **{
                name: getattr(self, field_name)
                for field_name, setting in FIELD_SETTINGS.items()
                if (name := setting.analysis_name) is not None
            }
        )
        object.__setattr__(self, "_rule_settings", made)  # a cache on a frozen value
        return made

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SkilldeckConfig:
        """Defaults plus the settings read from the environment (``$DSH_HOME``,
        ``$DSH_AGENTS_HOME`` and ``$DSH_BUNDLED_SKILL_DIR``: folder paths, made absolute).

        Empty variables count as unset. ``environ`` defaults to ``os.environ``.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        for name, setting in FIELD_SETTINGS.items():
            raw = env.get(setting.env) if setting.env is not None else None
            if raw:
                values[name] = os.path.abspath(os.path.expanduser(raw))
                sources[name] = f"${setting.env}"
        return cls(**values, sources=sources)

    def merged(self, layer: ConfigLayer | None) -> SkilldeckConfig:
        """This config with every value ``layer`` sets replacing ours (see module doc);
        each setting's kind says how a value is merged and checked."""
        if layer is None:
            return self
        changes: dict[str, Any] = {}
        for name, setting in FIELD_SETTINGS.items():
            value = getattr(layer, name)
            if not setting.kind.is_set(value):
                continue
            problem = setting.kind.check(value)
            if problem is not None:
                raise ConfigError(
                    f"{_where(layer.origin)}'{setting.shown}' {problem}",
                    path=layer.origin,
                    key=setting.shown,
                )
            changes[name] = setting.kind.merge(getattr(self, name), value)
        origin = layer.origin if layer.origin is not None else FLAGS_ORIGIN
        changes["sources"] = {**self.sources, **dict.fromkeys(changes, origin)}
        return replace(self, **changes)


def anchored(layer: ConfigLayer, folder: str) -> ConfigLayer:
    """An editor's ``layer`` with ``~`` expanded and relative paths made relative to
    ``folder`` (a git source's local path too)."""
    changes: dict[str, Any] = {}
    for name, setting in FIELD_SETTINGS.items():
        value = getattr(layer, name)
        if setting.kind.is_set(value):
            changes[name] = setting.kind.anchored(value, folder)
    return replace(layer, **changes)


def read_editor_settings(raw: Mapping[str, object]) -> tuple[ConfigLayer, tuple[str, ...]]:
    """An editor's ``skilldeck`` settings object as a :class:`ConfigLayer` (relative
    paths kept: :func:`anchored` resolves them per workspace folder), and one warning per
    value left out: a bad value costs only itself (a bad rule of ``rules`` only that rule),
    the file's value or the default applies. Unknown keys are ignored (the editor's own
    settings share the section)."""
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for setting in SERVER_EDITOR_SETTINGS:
        value = raw.get(setting.editor_key or "")
        if value is None or value == "" or setting.field is None:
            continue
        at = Reading(f"skilldeck.{setting.editor_key}", lenient=True)
        try:
            typed = setting.kind.read(value, at)
        except SettingProblem as problem:
            warnings.append(f"{problem}; {setting.kind.editor_fallback}.")
            continue
        warnings.extend(f"{problem}; ignored." for problem in at.dropped)
        values[setting.field] = typed
    return ConfigLayer(**values, origin=EDITOR_SETTINGS), tuple(warnings)


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
    layer, _ = load_config_data(_read_toml(file), file)
    return layer


def load_config_file_keeping_valid(
    path: str | os.PathLike[str],
) -> tuple[ConfigLayer, tuple[ConfigError, ...]]:
    """Like :func:`load_config_file`, but a bad key costs only that key: it is left out
    (``rules.SD999`` leaves the other rules) and its error returned beside what is valid,
    so an editor can show each error at its key and keep the rest. A file that is not
    TOML (or not readable) still raises: there is no valid part to keep.
    """
    file = Path(path).absolute()
    return load_config_data(_read_toml(file), file, keep_valid=True)


def load_config_data(
    data: Mapping[str, Any], file: Path, *, keep_valid: bool = False
) -> tuple[ConfigLayer, tuple[ConfigError, ...]]:
    """The :class:`ConfigLayer` of an already parsed config file ``file`` and, with
    ``keep_valid``, the errors of the values left out (else the first one raises)."""
    prefix = "tool.skilldeck." if file.name == "pyproject.toml" else ""
    if prefix:
        tool = data.get("tool", {})
        table = tool.get("skilldeck", {}) if isinstance(tool, dict) else {}
    else:
        table = data
    if not isinstance(table, dict):
        raise ConfigError(f"{file}: [{prefix.rstrip('.')}] must be a table", path=str(file))
    return _FileReader(file, prefix, keep_valid).read(table)


class _FileReader:
    """Reads a config file's skilldeck table with the settings table's kinds."""

    def __init__(self, file: Path, prefix: str, keep_valid: bool) -> None:
        self.origin = str(file)
        self.file = file
        #: How the table's keys are named in messages: ``tool.skilldeck.`` in a
        #: ``pyproject.toml``, nothing in a ``skilldeck.toml``.
        self.prefix = prefix
        self.keep_valid = keep_valid
        self.values: dict[str, Any] = {}
        self.errors: list[ConfigError] = []

    def read(self, table: Mapping[str, object]) -> tuple[ConfigLayer, tuple[ConfigError, ...]]:
        for key, value in table.items():
            shown = f"{self.prefix}{key}"
            inner = FILE_TABLES.get(key)
            if inner is not None:
                self._table(key, value, shown, inner)
            elif key in BY_FILE_KEY:
                self._value(BY_FILE_KEY[key], value, shown)
            else:
                self._problem(SettingProblem(_unknown(shown, FILE_KEYS), shown))
        layer = ConfigLayer(**self.values, origin=self.origin)
        return layer, tuple(self.errors)

    def _table(self, name: str, value: object, shown: str, keys: tuple[str, ...]) -> None:
        if not isinstance(value, Mapping):
            self._problem(SettingProblem(f"'{shown}' must be a table", shown))
            return
        for key, item in value.items():
            where = f"{shown}.{key}"
            setting = BY_FILE_KEY.get(f"{name}.{key}")
            if setting is None:
                self._problem(SettingProblem(_unknown(where, keys), where))
            else:
                self._value(setting, item, where)

    def _value(self, setting: Setting, value: object, shown: str) -> None:
        at = Reading(
            shown, base=str(self.file.parent), lenient=self.keep_valid, file_name=self.file.name
        )
        try:
            typed = setting.kind.read(value, at)
        except SettingProblem as refused:
            self._problem(refused)
            return
        for problem in at.dropped:
            self._problem(problem)
        name = setting.field
        if name is not None:
            known = self.values.get(name)
            self.values[name] = typed if known is None else setting.kind.merge(known, typed)

    def _problem(self, problem: SettingProblem) -> None:
        error = ConfigError(f"{self.origin}: {problem}", path=self.origin, key=problem.key)
        if not self.keep_valid:
            raise error
        self.errors.append(error)


def _unknown(shown: str, known: tuple[str, ...]) -> str:
    return f"unknown key '{shown}' (known keys: {', '.join(known)})"


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


def _where(origin: str | None) -> str:
    return f"{origin}: " if origin else ""
