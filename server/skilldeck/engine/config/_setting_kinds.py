"""What a kind of setting is: how its value is read (from ``skilldeck.toml``, an editor's
JSON or a flag layer), checked, typed, merged over a lower layer, spelt in JSON (for keys
and documents) and described as JSON Schema.

Each :class:`~skilldeck.engine.config._settings_schema.Setting` names its kind; the
config file's parser, the language server's settings, the typed config objects (the
generated fields of ``SkilldeckConfig``, ``ConfigLayer`` and ``RuleSettings``), the JSON
Schemas and the settings reference are all made from the kinds and the table, so a
setting of an existing kind is one row.

Kinds and readings are plain classes, not dataclasses: every run imports this module,
and a dataclass costs a millisecond to make.

A value is read at a :class:`Reading`: where it came from (a file, or ``None``), how its
key is shown (``rules``, ``tool.skilldeck.rules``, ``skilldeck.rules``), the folder its
relative paths are resolved against (``None``: kept relative, as the editor's are until
they are anchored to a workspace folder) and whether a bad entry of a table or list is
dropped (``lenient``: the editor, and a config file read keeping what is valid) or
refuses the whole file. A problem is a :class:`SettingProblem`: its message names the key
as shown and says what is wrong; the caller adds the file or the editor's fallback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skilldeck.engine.config._distinct import validate_distinct
from skilldeck.engine.config._numbers import validate_threshold
from skilldeck.engine.config._source_spec import (
    GitSourceSpec,
    SourceSpec,
    SourceSpecError,
    git_url,
    parse_sources,
    source_json_schema,
    source_to_json,
)
from skilldeck.engine.config._toml_values import toml_text
from skilldeck.engine.hosts import HOSTS
from skilldeck.engine.rules import PROFILES, Severity, rule

if TYPE_CHECKING:
    from skilldeck.engine.config._settings_schema import Setting

#: The words a rule override may use; ``off`` disables the rule.
SEVERITY_WORDS: Mapping[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "information": Severity.INFORMATION,
    "hint": Severity.HINT,
    "off": None,
}


class SettingProblem(ValueError):
    """A value skilldeck cannot use. ``str()`` is the message (naming the key as shown,
    without the file); ``key`` is the offending key as shown (``rules.SD999``,
    ``ignore: SD999``, ``sources[1].url``)."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


class Reading:
    """Where a value is read (see the module doc). ``dropped`` collects the problems of
    the entries a lenient reading left out."""

    __slots__ = ("base", "dropped", "file_name", "key", "lenient")

    def __init__(
        self,
        key: str,
        base: str | None = None,
        lenient: bool = False,
        file_name: str | None = None,
        dropped: list[SettingProblem] | None = None,
    ) -> None:
        self.key = key
        self.base = base
        self.lenient = lenient
        #: The config file's name (``skilldeck.toml``, ``pyproject.toml``); ``None``: an
        #: editor's settings.
        self.file_name = file_name
        self.dropped: list[SettingProblem] = [] if dropped is None else dropped

    @property
    def editor(self) -> bool:
        """Whether the value comes from an editor's settings (not from a file)."""
        return self.file_name is None

    def at(self, key: str) -> Reading:
        """The same reading for another key (a key of a table such as ``[overlap]``)."""
        return Reading(key, self.base, self.lenient, self.file_name, self.dropped)

    def entry_problem(self, problem: SettingProblem) -> None:
        """A bad entry: dropped when lenient, else the whole value is refused."""
        if not self.lenient:
            raise problem
        self.dropped.append(problem)


class Kind:
    """A kind of setting (see the module doc). Subclasses set the class attributes and
    override what differs."""

    #: The annotation of a config field of this kind (in the generated fields).
    python_type: str = "object"
    #: A layer's "not set": ``None``, or an empty mapping for kinds merged key by key.
    layer_unset: str = "None"
    #: What the editor says when it drops the whole value.
    editor_fallback: str = "using the default"

    def read(self, value: object, at: Reading) -> object:
        """``value`` as this kind's typed value; :class:`SettingProblem` otherwise."""
        raise NotImplementedError

    def check(self, value: object) -> str | None:
        """What is wrong with an already typed value (a flag's, a library caller's), as the
        end of a sentence that starts with the key; ``None`` when it is fine."""
        return None

    def merge(self, lower: object, higher: object) -> object:
        """A higher layer's value over a lower one's (replaced, by default)."""
        return higher

    def is_set(self, value: object) -> bool:
        """Whether a layer's value is set."""
        return value is not None

    def anchored(self, value: object, folder: str) -> object:
        """An editor's value with its relative paths resolved against ``folder``."""
        return value

    def to_json(self, value: object) -> object:
        """``value`` as canonical JSON (keys of caches; the documents' defaults)."""
        return value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        """The JSON Schema of a value (``editor``: as VS Code's settings declare it)."""
        raise NotImplementedError

    def default_expr(self, default: object) -> str:
        """The Python expression of ``default`` in a generated field declaration."""
        return python_literal(default)

    def layer_unset_expr(self) -> str:
        """The Python expression of a layer's "not set" in a generated declaration."""
        return "None" if self.layer_unset == "None" else "field(default_factory=dict)"


def document_json(value: object) -> object:
    """A setting's default as the documents show it (JSON: tuples as lists)."""
    if isinstance(value, tuple | list):
        return [document_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): document_json(item) for key, item in value.items()}
    return value


def python_literal(value: object) -> str:
    """``value`` (``None``, a bool, number, string or tuple of them) as Python source, as
    ``ruff format`` writes it (double quotes)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        items = [python_literal(item) for item in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return repr(value)


def _where(at: Reading) -> str:
    return f"'{at.key}'"


class ProfileKind(Kind):
    """A rule profile's name (:data:`skilldeck.engine.rules.PROFILES`)."""

    python_type = "str"

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, str) or not value:
            raise SettingProblem(f"{_where(at)} must be a profile name", at.key)
        if value not in PROFILES:
            raise SettingProblem(
                f"unknown profile {toml_text(value)} in {_where(at)} "
                f"(known: {', '.join(sorted(PROFILES))})",
                at.key,
            )
        return value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string", "enum": list(PROFILES)}
        descriptions = [profile.description for profile in PROFILES.values()]
        schema["enumDescriptions" if editor else "x-enumDescriptions"] = descriptions
        return schema


def path_problem(value: str) -> str | None:
    """Why ``value`` can never name a file (``None`` when it can).

    The operating system refuses a path with a NUL character; Python raises
    ``ValueError`` for it deep inside a scan, so a setting is checked where it is read.
    """
    if "\0" in value:
        return "must not contain a NUL character"
    return None


def _resolve(base: str | None, value: str) -> str:
    if base is None:
        return value
    return os.path.normpath(os.path.join(base, os.path.expanduser(value)))


def _absolute(folder: str, value: str) -> str:
    return os.path.normpath(os.path.join(folder, os.path.expanduser(value)))


class PathKind(Kind):
    """A folder path (``~`` expanded; relative to the config file's folder, or to the
    workspace folder in an editor). An editor's empty string is "not set"."""

    python_type = "str | None"

    def read(self, value: object, at: Reading) -> object:
        if at.editor and value == "":
            return None  # the editor's "not set"
        if not isinstance(value, str) or not value:
            raise SettingProblem(f"{_where(at)} must be a folder path", at.key)
        problem = path_problem(value)
        if problem is not None:
            raise SettingProblem(f"{_where(at)} {problem}", at.key)
        return _resolve(at.base, value)

    def check(self, value: object) -> str | None:
        return path_problem(value) if isinstance(value, str) else None

    def anchored(self, value: object, folder: str) -> object:
        return _absolute(folder, value) if isinstance(value, str) else value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": ["string", "null"]} if editor else {"type": "string", "minLength": 1}


class PathsKind(Kind):
    """A list of folder paths (each as :class:`PathKind`; the editor drops empty ones)."""

    python_type = "tuple[str, ...]"

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, list) or not all(
            isinstance(item, str) and (item or at.editor) for item in value
        ):
            raise SettingProblem(f"{_where(at)} must be a list of folder paths", at.key)
        for item in value:
            problem = path_problem(item)
            if problem is not None:
                raise SettingProblem(f"{_where(at)} {problem}", at.key)
        return tuple(_resolve(at.base, item) for item in value if item)

    def check(self, value: object) -> str | None:
        items = value if isinstance(value, tuple | list) else ()
        problems = [p for p in (path_problem(v) for v in items if isinstance(v, str)) if p]
        return problems[0] if problems else None

    def anchored(self, value: object, folder: str) -> object:
        if not isinstance(value, tuple):
            return value
        return tuple(_absolute(folder, item) for item in value)

    def to_json(self, value: object) -> object:
        return list(value) if isinstance(value, tuple) else value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "string"}}


class BooleanKind(Kind):
    """``true`` or ``false``."""

    python_type = "bool"

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, bool):
            raise SettingProblem(f"{_where(at)} must be true or false", at.key)
        return value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": "boolean"}


class ProjectRootKind(BooleanKind):
    """``project-root = true``: only in ``skilldeck.toml`` (it decides where the project's
    root is, so it cannot live in a file found from that root)."""

    def read(self, value: object, at: Reading) -> object:
        if at.file_name != "skilldeck.toml" or not isinstance(value, bool):
            raise SettingProblem(
                f"{_where(at)} must be true or false, and only in skilldeck.toml", at.key
            )
        return value


class IntegerKind(Kind):
    """A whole number, at least ``minimum``."""

    python_type = "int"

    def __init__(self, minimum: int | None = None) -> None:
        self.minimum = minimum

    def read(self, value: object, at: Reading) -> object:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingProblem(f"{_where(at)} must be an integer{self._least}", at.key)
        problem = self.check(value)
        if problem is not None:
            raise SettingProblem(f"{_where(at)} {problem}", at.key)
        return value

    @property
    def _least(self) -> str:
        return "" if self.minimum is None else f" of at least {self.minimum}"

    def check(self, value: object) -> str | None:
        if self.minimum is not None and isinstance(value, int) and value < self.minimum:
            return f"must be at least {self.minimum}, not {value}"
        return None

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        return schema


class ThresholdKind(Kind):
    """A score threshold: a number greater than 0 and at most 1."""

    python_type = "float"

    def read(self, value: object, at: Reading) -> object:
        try:
            return validate_threshold(value, _where(at))
        except ValueError as error:
            raise SettingProblem(str(error), at.key) from None

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": "number", "exclusiveMinimum": 0, "maximum": 1}


class DistinctKind(Kind):
    """``[overlap] distinct``: groups of skill-name patterns declared distinct."""

    python_type = "DistinctGroups"

    def read(self, value: object, at: Reading) -> object:
        try:
            return validate_distinct(value, _where(at))
        except ValueError as error:
            raise SettingProblem(str(error), at.key) from None

    def to_json(self, value: object) -> object:
        return [list(group) for group in value] if isinstance(value, tuple) else value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        group = {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1}
        return {"type": "array", "items": group}


def rule_code(key: str, *, shown: str) -> str:
    """The code of the rule ``key`` names (a code or a kebab name); :class:`SettingProblem`
    naming ``shown`` otherwise."""
    try:
        return rule(key).code
    except KeyError:
        raise SettingProblem(
            f"unknown rule '{shown}' (`skilldeck rules` lists them)", shown
        ) from None


class _OverridesKind(Kind):
    """Per-rule severities (``None``: off), merged rule by rule over a lower layer."""

    python_type = "Mapping[str, Severity | None]"
    layer_unset = "{}"

    def merge(self, lower: object, higher: object) -> object:
        assert isinstance(lower, Mapping) and isinstance(higher, Mapping)
        return {**lower, **higher}

    def is_set(self, value: object) -> bool:
        return bool(value)

    def to_json(self, value: object) -> object:
        assert isinstance(value, Mapping)
        return sorted(
            [str(code), None if level is None else str(getattr(level, "value", level))]
            for code, level in value.items()
        )

    def default_expr(self, default: object) -> str:
        return "field(default_factory=dict)"


class RulesKind(_OverridesKind):
    """``[rules]``: a table of rule code or name -> ``error`` | ``warning`` |
    ``information`` | ``hint`` | ``off``; a bad entry is that entry's problem."""

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, Mapping):
            shape = "an object" if at.editor else "a table"
            raise SettingProblem(f"{_where(at)} must be {shape}", at.key)
        result: dict[str, Severity | None] = {}
        for key, level in value.items():
            shown = f"{at.key}.{key}"
            try:
                code = rule_code(str(key), shown=shown)
                if not isinstance(level, str) or level.lower() not in SEVERITY_WORDS:
                    raise SettingProblem(
                        f"'{shown}' must be one of "
                        f"{', '.join(toml_text(w) for w in SEVERITY_WORDS)}, "
                        f"not {toml_text(level)}",
                        shown,
                    )
            except SettingProblem as problem:
                at.entry_problem(problem)
                continue
            result[code] = SEVERITY_WORDS[level.lower()]
        return result

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": {"type": "string", "enum": list(SEVERITY_WORDS)},
        }


class IgnoredRulesKind(_OverridesKind):
    """``ignore``: a list of rule codes or names turned off (``[rules] X = "off"``)."""

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingProblem(f"{_where(at)} must be a list of rule codes or names", at.key)
        result: dict[str, Severity | None] = {}
        for item in value:
            try:
                result[rule_code(item, shown=f"{at.key}: {item}")] = None
            except SettingProblem as problem:
                at.entry_problem(problem)
        return result

    def to_json(self, value: object) -> object:
        if isinstance(value, tuple | list):
            return list(value)  # the setting's default: no rule ignored
        return super().to_json(value)

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "string"}}


class HostsKind(Kind):
    """A list of agents (:data:`skilldeck.engine.hosts.HOSTS`), duplicates dropped."""

    python_type = "tuple[str, ...]"

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingProblem(f"{_where(at)} must be a list of host names", at.key)
        for item in value:
            if item not in HOSTS:
                raise SettingProblem(
                    f"unknown host {toml_text(item)} in {_where(at)} (known: {', '.join(HOSTS)})",
                    at.key,
                )
        return tuple(dict.fromkeys(value))

    def to_json(self, value: object) -> object:
        return list(value) if isinstance(value, tuple) else value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        items: dict[str, Any] = {"type": "string", "enum": list(HOSTS)}
        labels = [host.label for host in HOSTS.values()]
        items["enumItemLabels" if editor else "x-enumItemLabels"] = labels
        return {"type": "array", "items": items, "uniqueItems": True}


class HostTokensKind(Kind):
    """A table of agent (:data:`skilldeck.engine.hosts.HOSTS`) -> a whole number of
    tokens, at least ``minimum``; merged agent by agent over a lower layer (as ``[rules]``
    is rule by rule); a bad entry is that entry's problem."""

    python_type = "Mapping[str, int]"
    layer_unset = "{}"

    def __init__(self, minimum: int = 1) -> None:
        self.minimum = minimum

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, Mapping):
            shape = "an object" if at.editor else "a table"
            raise SettingProblem(f"{_where(at)} must be {shape} of host names", at.key)
        result: dict[str, int] = {}
        for key, tokens in value.items():
            shown = f"{at.key}.{key}"
            try:
                if key not in HOSTS:
                    raise SettingProblem(
                        f"unknown host {toml_text(key)} in {_where(at)} (known: "
                        f"{', '.join(HOSTS)})",
                        shown,
                    )
                if isinstance(tokens, bool) or not isinstance(tokens, int):
                    raise SettingProblem(
                        f"'{shown}' must be a whole number of tokens, not {toml_text(tokens)}",
                        shown,
                    )
                problem = self.check({key: tokens})
                if problem is not None:
                    raise SettingProblem(f"'{shown}' {problem}", shown)
            except SettingProblem as problem:
                at.entry_problem(problem)
                continue
            result[str(key)] = tokens
        return result

    def check(self, value: object) -> str | None:
        for tokens in value.values() if isinstance(value, Mapping) else ():
            if isinstance(tokens, int) and tokens < self.minimum:
                return f"must be at least {self.minimum}, not {tokens}"
        return None

    def merge(self, lower: object, higher: object) -> object:
        assert isinstance(lower, Mapping) and isinstance(higher, Mapping)
        return {**lower, **higher}

    def is_set(self, value: object) -> bool:
        return bool(value)

    def to_json(self, value: object) -> object:
        assert isinstance(value, Mapping)
        return dict(sorted(value.items()))

    def default_expr(self, default: object) -> str:
        return "field(default_factory=dict)"

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        tokens = {"type": "integer", "minimum": self.minimum}
        return {
            "type": "object",
            "properties": {name: tokens for name in HOSTS},
            "additionalProperties": False,
        }


class SourcesKind(Kind):
    """``[[sources]]``: remote skill sources (``docs/sources.md``), merged by name over a
    lower layer's (a source named again replaces it in its place; the others are added)."""

    python_type = "tuple[SourceSpec, ...]"
    editor_fallback = "only the config file's sources are used"

    def read(self, value: object, at: Reading) -> object:
        if isinstance(value, list):
            value = [dict(item) if isinstance(item, Mapping) else item for item in value]
        elif at.editor:
            raise SettingProblem(
                f"{at.key} must be a list of objects (one per source), got {toml_text(value)}",
                at.key,
            )
        try:
            # An editor's local paths stay relative here (``anchored`` resolves them).
            return parse_sources(value, at.key, at.base or "")
        except SourceSpecError as error:
            raise SettingProblem(str(error), error.key) from None

    def merge(self, lower: object, higher: object) -> object:
        assert isinstance(lower, tuple) and isinstance(higher, tuple)
        by_name = {spec.name: spec for spec in higher}
        kept = tuple(by_name.pop(spec.name, spec) for spec in lower)
        return kept + tuple(spec for spec in higher if spec.name in by_name)

    def anchored(self, value: object, folder: str) -> object:
        if not isinstance(value, tuple):
            return value
        return tuple(_anchored_source(folder, spec) for spec in value)

    def to_json(self, value: object) -> object:
        assert isinstance(value, Sequence)
        return [source_to_json(spec) for spec in value]

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": "array", "items": source_json_schema()}


def _anchored_source(folder: str, spec: SourceSpec) -> SourceSpec:
    from dataclasses import replace  # noqa: PLC0415

    if not isinstance(spec, GitSourceSpec):
        return spec
    return replace(spec, url=git_url(spec.url, "skilldeck.sources", folder))


class ChoiceKind(Kind):
    """One of a few words (the editor's own settings), each with its description."""

    python_type = "str"

    def __init__(self, choices: tuple[tuple[str, str], ...]) -> None:
        self.choices = choices

    def read(self, value: object, at: Reading) -> object:
        words = [word for word, _ in self.choices]
        if value not in words:
            raise SettingProblem(
                f"{_where(at)} must be one of {', '.join(map(toml_text, words))}, "
                f"not {toml_text(value)}",
                at.key,
            )
        return value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string", "enum": [word for word, _ in self.choices]}
        if any(doc for _, doc in self.choices):
            schema["enumDescriptions"] = [doc for _, doc in self.choices]
        return schema


class StringKind(Kind):
    """Any text."""

    python_type = "str"

    def read(self, value: object, at: Reading) -> object:
        if not isinstance(value, str):
            raise SettingProblem(f"{_where(at)} must be a string", at.key)
        return value

    def json_schema(self, setting: Setting, *, editor: bool) -> dict[str, Any]:
        return {"type": "string"}
