"""Every skilldeck setting, declared once: its kind, default, where it can be set (config
file key, editor key, flag, environment variable), what it reaches, and its documentation.

Everything else is made from this table (``scripts/generate`` writes the generated files;
``tests/test_generated_files.py`` fails when one is stale):

- the config file's parser and the language server's settings read each key with its
  kind (:mod:`skilldeck.engine.config._setting_kinds`);
- the typed config objects: the fields of ``ConfigLayer``, ``SkilldeckConfig`` and
  ``RuleSettings`` (generated between markers in their classes);
- ``RuleSettings`` is what reaches the analysis (:meth:`SkilldeckConfig.rule_settings`
  copies every setting whose ``reach`` is ``file`` or ``deck``), and the cache keys digest
  it (:mod:`skilldeck.engine.filesystem`), so a new setting that changes a verdict changes
  every key with no key written by hand;
- the JSON Schema of ``skilldeck.toml`` (``skilldeck schema --config``), the VS Code
  extension's ``contributes.configuration`` and server setting keys, and the settings
  reference (``docs/settings.md``).

A setting that needs no new logic is one row here plus ``scripts/generate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, NamedTuple

from skilldeck.engine.config._numbers import finite_number
from skilldeck.engine.config._setting_kinds import (
    BooleanKind,
    ChoiceKind,
    DistinctKind,
    HostsKind,
    HostTokensKind,
    IgnoredRulesKind,
    IntegerKind,
    Kind,
    PathKind,
    PathsKind,
    ProfileKind,
    ProjectRootKind,
    RulesKind,
    SourcesKind,
    StringKind,
    ThresholdKind,
    document_json,
)
from skilldeck.engine.text import (
    DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
    MIN_CATALOG_DESCRIPTION_MAX_LENGTH,
)

__all__ = ["EDITOR_KEYS", "FILE_KEYS", "SETTINGS", "Reach", "Setting", "finite_number"]

#: Default score from which two skills are reported as overlapping (SD801).
DEFAULT_OVERLAP_THRESHOLD = 0.23
#: Default similarity of the description words from which a pair is near-identical (SD802).
DEFAULT_NEAR_DUPLICATE_THRESHOLD = 0.8

#: What a setting's value reaches, which decides which keys hold it:
#: ``file``: each skill file's analysis (the index cache's key and every memo's);
#: ``deck``: the deck's verdicts across files (the deck, output and hosts-view memos);
#: ``inputs``: which files and skills are read (a key holds them through the inputs'
#: identity: the roots, their listings and files); ``front-end``: what one front end does
#: with the verdicts (never a verdict).
Reach = Literal["file", "deck", "inputs", "front-end"]


class Setting(NamedTuple):
    """One setting (see the module doc). ``field`` is the config field it fills (``None``:
    a file-only switch); ``file_key`` its key in ``skilldeck.toml`` (dotted: a key of a
    table, ``overlap.threshold``); ``editor_key`` its key below ``skilldeck.`` in an
    editor; ``client_only`` settings are the editor's own and never reach the server.
    ``analysis_field`` names its :class:`RuleSettings` field where that differs from
    ``field``. ``flag`` and ``env`` are documented (the CLI and the environment read them
    in their own modules). A typed named tuple, immutable: every run defines this class,
    and a frozen dataclass of these fields costs ten times as much to define."""

    kind: Kind
    default: object
    reach: Reach
    doc: str
    field: str | None = None
    file_key: str | None = None
    editor_key: str | None = None
    flag: str | None = None
    env: str | None = None
    analysis_field: str | None = None
    client_only: bool = False
    #: VS Code's ``scope`` of an editor setting (``machine-overridable``), if not the default.
    editor_scope: str | None = None

    @property
    def analysis_name(self) -> str | None:
        """The :class:`RuleSettings` field (``None`` unless it reaches the analysis)."""
        if self.reach not in ("file", "deck") or self.field is None:
            return None
        return self.analysis_field or self.field

    @property
    def shown(self) -> str:
        """How a message names it: its file key, else its field in kebab case."""
        if self.file_key is not None:
            return self.file_key
        return (self.field or self.editor_key or "").replace("_", "-")


SETTINGS: tuple[Setting, ...] = (
    Setting(
        ProfileKind(),
        "dsh",
        "file",
        "Rule profile: which frontmatter keys are known and which extra checks apply.",
        field="profile",
        file_key="profile",
        editor_key="profile",
        flag="--profile",
    ),
    Setting(
        PathsKind(),
        (),
        "inputs",
        "Extra skill roots (rank 300): absolute, `~/`, or relative to the config file (to "
        "the workspace folder in an editor). Markdown files under them are treated as skill "
        "files. Replaced as a whole by a higher layer.",
        field="custom_skill_dirs",
        file_key="custom-skill-dirs",
        editor_key="customSkillDirs",
        flag="--custom-skill-dir",
    ),
    Setting(
        PathKind(),
        None,
        "inputs",
        "The dsh home folder (default: `~/.dsh`). Its `skills` folder is a user root.",
        field="dsh_home",
        editor_key="dshHome",
        env="DSH_HOME",
    ),
    Setting(
        PathKind(),
        None,
        "inputs",
        "The agents home folder (default: `~/.agents`). Its `skills` folder is a user root.",
        field="agents_home",
        editor_key="agentsHome",
        env="DSH_AGENTS_HOME",
    ),
    Setting(
        PathKind(),
        None,
        "inputs",
        "The bundled skill root (rank 600, the lowest). `null` uses the server's default.",
        field="bundled_skill_dir",
        file_key="bundled-skill-dir",
        editor_key="bundledSkillDir",
        flag="--bundled-skill-dir",
        env="DSH_BUNDLED_SKILL_DIR",
    ),
    Setting(
        BooleanKind(),
        False,
        "inputs",
        "List skilldeck's own `skill-authoring` skill (the bundled provider).",
        field="bundled_skills",
        file_key="bundled-skills",
    ),
    Setting(
        IntegerKind(minimum=MIN_CATALOG_DESCRIPTION_MAX_LENGTH),
        DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
        "file",
        "Maximum characters of a skill description in the catalog the model sees; longer "
        "ones are cut and end with `...` (SD501).",
        field="catalog_max_description_length",
        file_key="catalog-description-max-length",
        editor_key="catalogDescriptionMaxLength",
        flag="--max-description-length",
    ),
    Setting(
        BooleanKind(),
        True,
        "inputs",
        "Also scan the user roots (under the dsh home and the agents home), not only the "
        "project's.",
        field="include_user_roots",
        editor_key="includeUserRoots",
        flag="--include-user-roots",
    ),
    Setting(
        BooleanKind(),
        True,
        "inputs",
        "Scan the project's and the user's roots (`false`: only the custom and bundled "
        "roots; for programs embedding the engine).",
        field="include_default_roots",
    ),
    Setting(
        RulesKind(),
        {},
        "file",
        "Per-rule severity overrides: keys are rule codes (`SD301`) or names; values are "
        "`error`, `warning`, `information`, `hint` or `off`. Merged rule by rule over a "
        "lower layer. Run `skilldeck rules` for the list.",
        field="rule_overrides",
        file_key="rules",
        editor_key="rules",
        analysis_field="overrides",
    ),
    Setting(
        IgnoredRulesKind(),
        (),
        "file",
        'Rules turned off: codes or names (the same as `[rules] CODE = "off"`).',
        field="rule_overrides",
        file_key="ignore",
        analysis_field="overrides",
    ),
    Setting(
        HostsKind(),
        ("dsh",),
        "deck",
        "The agents your skills are written for. For each one, an information diagnostic "
        "says where it would not load a skill or would cut or drop its catalog entry "
        "(SD901-SD903), and hover on `name` shows a line per agent (docs/hosts.md cites "
        "each agent's rules).",
        field="hosts",
        file_key="hosts",
        editor_key="hosts",
        flag="--host",
    ),
    Setting(
        HostTokensKind(),
        {},
        "deck",
        "The context window, in tokens, of the model each agent runs here "
        "(`{ claude-code = 1000000 }`): an agent whose skill listing's budget is a share of "
        "the context window (Claude Code, Codex; docs/hosts.md) is judged with it by SD902, "
        "`budget --host`, `list --host`, `catalog --host` and the editor. An agent left out "
        "keeps the budget skilldeck assumes for it; `budget --context` overrides it for one "
        "run. Merged agent by agent over a lower layer.",
        field="context_tokens",
        file_key="context-tokens",
        editor_key="contextTokens",
    ),
    Setting(
        ProjectRootKind(),
        False,
        "inputs",
        "Make the folder of this `skilldeck.toml` the project root (instead of the "
        "nearest folder with `.git`). Only in `skilldeck.toml`.",
        file_key="project-root",
    ),
    Setting(
        ThresholdKind(),
        DEFAULT_OVERLAP_THRESHOLD,
        "deck",
        "The routing-overlap score from which two skills are reported as overlapping "
        "(SD801), in (0, 1] (docs/overlap.md).",
        field="overlap_threshold",
        file_key="overlap.threshold",
    ),
    Setting(
        ThresholdKind(),
        DEFAULT_NEAR_DUPLICATE_THRESHOLD,
        "deck",
        "The similarity of two descriptions' words from which the skills are "
        "near-identical (SD802), in (0, 1].",
        field="near_duplicate_threshold",
        file_key="overlap.near-duplicate-threshold",
    ),
    Setting(
        DistinctKind(),
        (),
        "deck",
        'Groups of skill names or patterns declared distinct (`[["c4-*"], ["a", "b"]]`): '
        "SD801 is not reported between two skills of one group (see "
        "[SD801](rules.md#sd801-overlapping-skills)).",
        field="overlap_distinct",
        file_key="overlap.distinct",
    ),
    Setting(
        SourcesKind(),
        (),
        "inputs",
        "Remote skill sources (docs/sources.md): one table per source with the keys of a "
        "`[[sources]]` table. A higher layer's source named like a lower one's replaces it; "
        "its others are added. A git source is refreshed in the background once its copy is "
        "older than `refresh-interval` seconds; **Skilldeck: Update Skill Sources** fetches "
        "every git source now.",
        field="remote_sources",
        file_key="sources",
        editor_key="sources",
    ),
    Setting(
        BooleanKind(),
        False,
        "front-end",
        "`skilldeck mcp` leaves out skills with error-level SD10xx findings "
        "(docs/safety.md); the MCP server's own switch, not the editor's.",
        field="mcp_require_safe",
        file_key="mcp-require-safe",
        flag="--require-safe",
    ),
    # The editor's own settings: they shape the extension's views, never the verdicts.
    Setting(
        IntegerKind(minimum=0),
        10000,
        "front-end",
        "Token budget for the catalog the model reads in every session. Above it the "
        "status bar item turns to a warning. `0` turns the warning off.",
        editor_key="catalogTokenBudget",
        client_only=True,
    ),
    Setting(
        IntegerKind(minimum=0),
        100,
        "front-end",
        "In the Skills view, a root with more skills than this lists them under "
        "first-letter groups. `0` never groups.",
        editor_key="skillsView.groupThreshold",
        client_only=True,
    ),
    Setting(
        ChoiceKind(
            (
                ("root", "Skill roots in rank order (what DSH loads)."),
                (
                    "host",
                    "One row per agent of `skilldeck.hosts`, with the skills it loads and "
                    "those it does not.",
                ),
            )
        ),
        "root",
        "front-end",
        "How the Skills view groups skills: by root, or by the agents of `#skilldeck.hosts#`.",
        editor_key="skillsView.groupBy",
        client_only=True,
    ),
    Setting(
        ChoiceKind(
            (
                (
                    "useBundled",
                    "Run the skilldeck server shipped inside the extension (pure Python) "
                    "with any Python 3.10+: nothing to install.",
                ),
                (
                    "fromEnvironment",
                    "Run the skilldeck installed in the chosen interpreter (as `python -m "
                    "skilldeck serve`, without the workspace folder on `sys.path`), e.g. a "
                    "newer version or one with plugins.",
                ),
            )
        ),
        "useBundled",
        "front-end",
        "Which skilldeck runs the language server: the one bundled with the extension, or "
        "the one installed in the interpreter (the Python extension's, "
        "`#skilldeck.server.pythonPath#`, then `python3`). The names and meaning of "
        "Microsoft's Python tools extensions (black-formatter, isort, pylint).",
        editor_key="importStrategy",
        client_only=True,
        editor_scope="machine-overridable",
    ),
    Setting(
        StringKind(),
        "",
        "front-end",
        "Python interpreter that runs the language server (Python 3.10+). Tried after the "
        "Python extension's active interpreter and before `python3` / `python` on PATH "
        "(`py -3` on Windows). `~`, `${userHome}` and `${workspaceFolder}` are expanded, "
        "and a relative path with a folder in it (`.venv/bin/python`) is taken from the "
        "first workspace folder; a bare name (`python3.12`) is looked up on PATH. With "
        "`#skilldeck.importStrategy#` = `fromEnvironment` it must have skilldeck installed.",
        editor_key="server.pythonPath",
        client_only=True,
        editor_scope="machine-overridable",
    ),
    Setting(
        ChoiceKind((("off", ""), ("messages", ""), ("verbose", ""))),
        "off",
        "front-end",
        "Trace the messages between VS Code and the skilldeck language server in the "
        '"Skilldeck Trace" output channel.',
        editor_key="trace.server",
        client_only=True,
    ),
)


def _top_keys() -> tuple[str, ...]:
    keys: dict[str, None] = {}
    for setting in SETTINGS:
        if setting.file_key is not None:
            keys[setting.file_key.split(".", 1)[0]] = None
    return tuple(keys)


#: ``skilldeck.toml`` top-level keys, in table order (``overlap`` for ``[overlap]``).
FILE_KEYS: tuple[str, ...] = _top_keys()

#: Dotted file key (``overlap.threshold``) or top-level key -> its setting.
BY_FILE_KEY: Mapping[str, Setting] = MappingProxyType(
    {s.file_key: s for s in SETTINGS if s.file_key is not None}
)

#: The file's tables of settings (``overlap``) -> their keys, in table order.
FILE_TABLES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        table: tuple(key.split(".", 1)[1] for key in BY_FILE_KEY if key.startswith(f"{table}."))
        for table in FILE_KEYS
        if any(key.startswith(f"{table}.") for key in BY_FILE_KEY)
    }
)

#: The settings the server reads from an editor (below ``skilldeck.``), in table order.
SERVER_EDITOR_SETTINGS: tuple[Setting, ...] = tuple(
    s for s in SETTINGS if s.editor_key is not None and not s.client_only
)

#: Config field -> the editor setting (below ``skilldeck.``) that mirrors it.
EDITOR_KEYS: dict[str, str] = {
    s.field: s.editor_key for s in SERVER_EDITOR_SETTINGS if s.field is not None and s.editor_key
}


#: Every config field, once, with the first setting that fills it (``rules`` for
#: ``rule_overrides``, which ``ignore`` fills too).
def _first_per_field() -> dict[str, Setting]:
    found: dict[str, Setting] = {}
    for setting in SETTINGS:
        if setting.field is not None:
            found.setdefault(setting.field, setting)
    return found


FIELD_SETTINGS: Mapping[str, Setting] = MappingProxyType(_first_per_field())


def setting_for_field(name: str) -> Setting:
    """The setting that fills the config field ``name`` (``KeyError`` when none does)."""
    return FIELD_SETTINGS[name]


def settings_json_schema() -> dict[str, object]:
    """The JSON Schema (draft-07) of ``skilldeck.toml`` (and of ``[tool.skilldeck]`` in a
    ``pyproject.toml``): every file key with its type, default and documentation; no other
    key (``skilldeck schema --config``)."""
    properties: dict[str, object] = {}
    tables: dict[str, dict[str, object]] = {}
    for setting in SETTINGS:
        if setting.file_key is None:
            continue
        schema = setting.kind.json_schema(setting, editor=False)
        schema["description"] = setting.doc
        if setting.default is not None:  # TOML has no null: an unset path has no default
            schema["default"] = document_json(setting.default)
        table, _, key = setting.file_key.partition(".")
        if key:
            tables.setdefault(table, {})[key] = schema
            properties.setdefault(
                table,
                {"type": "object", "additionalProperties": False, "properties": tables[table]},
            )
        else:
            properties[table] = schema
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://github.com/skilldeck/skilldeck/blob/main/docs/skilldeck.schema.json",
        "title": "skilldeck.toml",
        "description": "skilldeck's settings (docs/settings.md): skilldeck.toml at a project's "
        "root, or [tool.skilldeck] in its pyproject.toml.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
    }
