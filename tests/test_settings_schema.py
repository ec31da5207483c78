"""The settings table is the one declaration: the config file's parser and the language
server read every setting with its kind (the same typed value from the same text), the
typed config objects have its fields, what reaches the analysis is ``RuleSettings``, and
the generated files (``package.json``'s settings, the JSON Schema, the reference) are made
from it (``tests/test_generated_files.py`` holds them fresh)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._setting_kinds import IntegerKind, PathKind
from skilldeck.engine.config._settings_schema import (
    EDITOR_KEYS,
    FIELD_SETTINGS,
    FILE_KEYS,
    SETTINGS,
    settings_json_schema,
)
from skilldeck.engine.config._skilldeck_config import (
    ConfigError,
    ConfigLayer,
    SkilldeckConfig,
    load_config_file,
)
from skilldeck.engine.config._source_spec import COMMON_KEYS, SOURCE_TYPES, TYPE_KEYS
from skilldeck.engine.hosts._table import HOSTS
from skilldeck.lsp.settings import anchored, parse_settings

#: A value other than the default for every setting a file or an editor sets: as TOML
#: (the file's text) and as the editor's JSON.
EXAMPLES: dict[str, tuple[str, object]] = {
    "profile": ('"agentskills"', "agentskills"),
    "custom-skill-dirs": ('["team"]', ["team"]),
    "dsh_home": ("", "/h/.dsh"),
    "agents_home": ("", "/h/.agents"),
    "bundled-skill-dir": ('"bundled"', "bundled"),
    "bundled-skills": ("true", True),
    "catalog-description-max-length": ("200", 200),
    "include_user_roots": ("", False),
    "include_default_roots": ("", False),
    "rules": ('{ SD501 = "off" }', {"SD501": "off"}),
    "ignore": ('["SD204"]', ["SD204"]),
    "hosts": ('["dsh", "codex"]', ["dsh", "codex"]),
    "context-tokens": ("{ codex = 400000 }", {"codex": 400000}),
    "project-root": ("true", True),
    "overlap.threshold": ("0.5", 0.5),
    "overlap.near-duplicate-threshold": ("0.9", 0.9),
    "overlap.distinct": ('[["c4-*"]]', [["c4-*"]]),
    "sources": (
        '[{ name = "team", type = "git", url = "https://example.invalid/t.git" }]',
        [{"name": "team", "type": "git", "url": "https://example.invalid/t.git"}],
    ),
    "mcp-require-safe": ("true", True),
}


def _example_key(setting) -> str:
    return setting.file_key or setting.field or setting.editor_key


def _toml(setting, text: str) -> str:
    table, _, key = setting.file_key.partition(".")
    return f"[{table}]\n{key} = {text}\n" if key else f"{setting.file_key} = {text}\n"


def test_every_setting_has_an_example_here() -> None:
    server = [s for s in SETTINGS if not s.client_only]
    assert {_example_key(s) for s in server} == set(EXAMPLES)


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.file_key], ids=_example_key)
def test_the_file_reads_every_file_key(tmp_path: Path, setting) -> None:
    config = tmp_path / "skilldeck.toml"
    config.write_text(_toml(setting, EXAMPLES[setting.file_key][0]), encoding="utf-8")
    layer = load_config_file(config)
    if setting.field is None:
        assert layer == ConfigLayer(origin=str(config))  # a switch read elsewhere
        return
    value = getattr(layer, setting.field)
    assert setting.kind.is_set(value)
    merged = getattr(SkilldeckConfig().merged(layer), setting.field)
    assert setting.kind.to_json(merged) != setting.kind.to_json(setting.default)


@pytest.mark.parametrize(
    "setting", [s for s in SETTINGS if s.editor_key and not s.client_only], ids=_example_key
)
def test_the_editor_reads_every_server_setting_as_the_file_does(tmp_path: Path, setting) -> None:
    parsed = parse_settings({setting.editor_key: EXAMPLES[_example_key(setting)][1]})
    assert parsed.warnings == ()
    from_editor = getattr(anchored(parsed.layer, str(tmp_path)), setting.field)
    assert setting.kind.is_set(from_editor)
    if setting.file_key is not None:
        config = tmp_path / "skilldeck.toml"
        config.write_text(_toml(setting, EXAMPLES[setting.file_key][0]), encoding="utf-8")
        assert from_editor == getattr(load_config_file(config), setting.field)


def test_the_typed_objects_have_every_field_of_the_table() -> None:
    table = set(FIELD_SETTINGS)
    assert {f.name for f in fields(SkilldeckConfig)} == {*table, "config_file", "sources"}
    assert {f.name for f in fields(ConfigLayer)} == {*table, "origin"}
    analysis = {s.analysis_name for s in FIELD_SETTINGS.values() if s.analysis_name}
    assert {f.name for f in fields(RuleSettings)} == analysis


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.field], ids=_example_key)
def test_exactly_the_file_and_deck_settings_reach_the_rule_settings(
    tmp_path: Path, setting
) -> None:
    """``reach`` is declared by every setting; one that reaches the analysis changes
    ``RuleSettings`` (which every cache key digests), and no other one does."""
    changed = {setting.field: _typed_example(tmp_path, setting)}
    before = SkilldeckConfig().rule_settings()
    after = SkilldeckConfig(**changed).rule_settings()
    assert (before != after) == (setting.reach in ("file", "deck")), setting.reach


def _typed_example(tmp_path: Path, setting) -> object:
    if setting.file_key is not None:
        config = tmp_path / "skilldeck.toml"
        config.write_text(_toml(setting, EXAMPLES[setting.file_key][0]), encoding="utf-8")
        return getattr(load_config_file(config), setting.field)
    if setting.editor_key is not None:
        return getattr(parse_settings({setting.editor_key: EXAMPLES[setting.field][1]}).layer,
                       setting.field)  # fmt: skip
    return EXAMPLES[setting.field][1]


def test_the_file_parser_knows_exactly_the_file_keys(tmp_path: Path) -> None:
    config = tmp_path / "skilldeck.toml"
    config.write_text("not-a-setting = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config_file(config)
    assert f"(known keys: {', '.join(FILE_KEYS)})" in str(raised.value)
    config.write_text("[overlap]\nthreshold = 0.5\ncolour = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config_file(config)
    assert str(raised.value) == (
        f"{config}: unknown key 'overlap.colour' "
        "(known keys: threshold, near-duplicate-threshold, distinct)"
    )
    assert raised.value.key == "overlap.colour"


@pytest.mark.parametrize(
    "setting",
    [s for s in SETTINGS if isinstance(s.kind, IntegerKind) and s.field],
    ids=_example_key,
)
def test_limits_are_the_tables_in_the_file_and_the_editor(tmp_path: Path, setting) -> None:
    minimum = setting.kind.minimum
    assert setting.file_key is not None and setting.editor_key is not None
    config = tmp_path / "skilldeck.toml"
    config.write_text(f"{setting.file_key} = {minimum - 1}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"at least {minimum}"):
        load_config_file(config)
    parsed = parse_settings({setting.editor_key: minimum - 1})
    assert getattr(parsed.layer, setting.field) is None
    assert parsed.warnings == (
        f"'skilldeck.{setting.editor_key}' must be at least {minimum}, not {minimum - 1}; "
        "using the default.",
    )
    accepted = parse_settings({setting.editor_key: minimum})
    assert getattr(accepted.layer, setting.field) == minimum


def test_every_mirrored_setting_is_parsed_by_the_server() -> None:
    values = {key: EXAMPLES[_example_key(FIELD_SETTINGS[f])][1] for f, key in EDITOR_KEYS.items()}
    parsed = parse_settings(values)
    assert parsed.warnings == ()
    for field, key in EDITOR_KEYS.items():
        assert getattr(parsed.layer, field) not in (None, {}), key


def test_environment_settings_are_folder_paths() -> None:
    with_env = [s for s in SETTINGS if s.env is not None]
    assert {s.env for s in with_env} == {"DSH_HOME", "DSH_AGENTS_HOME", "DSH_BUNDLED_SKILL_DIR"}
    assert all(isinstance(s.kind, PathKind) for s in with_env)
    config = SkilldeckConfig.from_environment({"DSH_HOME": "/h", "DSH_AGENTS_HOME": ""})
    assert config.dsh_home == "/h" and config.agents_home is None
    assert config.sources == {"dsh_home": "$DSH_HOME"}


def test_a_bad_rule_in_the_editor_costs_only_that_rule() -> None:
    parsed = parse_settings({"rules": {"SD501": "off", "SD999": "off", "SD204": "loud"}})
    assert dict(parsed.layer.rule_overrides) == {"SD501": None}
    assert parsed.warnings == (
        "unknown rule 'skilldeck.rules.SD999' (`skilldeck rules` lists them); ignored.",
        '\'skilldeck.rules.SD204\' must be one of "error", "warning", "information", '
        '"hint", "off", not "loud"; ignored.',
    )
    assert parse_settings({"rules": ["SD501"]}).warnings == (
        "'skilldeck.rules' must be an object; using the default.",
    )


def test_hosts_are_validated_in_the_file_and_the_editor(tmp_path: Path) -> None:
    config = tmp_path / "skilldeck.toml"
    config.write_text('hosts = ["codex", "cursor"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown host \"cursor\" in 'hosts' \\(known: dsh, "):
        load_config_file(config)
    config.write_text('hosts = ["codex", "dsh", "codex"]\n', encoding="utf-8")
    assert load_config_file(config).hosts == ("codex", "dsh")
    parsed = parse_settings({"hosts": "codex"})
    assert parsed.layer.hosts is None
    assert parsed.warnings == (
        "'skilldeck.hosts' must be a list of host names; using the default.",
    )


def test_the_config_json_schema_accepts_the_examples_and_refuses_unknown_keys() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = settings_json_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    document: dict[str, object] = {}
    for setting in SETTINGS:
        if setting.file_key is None:
            continue
        table, _, key = setting.file_key.partition(".")
        value = EXAMPLES[setting.file_key][1]
        if key:
            document.setdefault(table, {})[key] = value  # type: ignore[index]
        else:
            document[table] = value
    jsonschema.validate(document, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"colour": True}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"overlap": {"threshold": 2}}, schema)


def test_the_editor_sources_schema_has_the_keys_of_the_sources_table() -> None:
    package = Path(__file__).resolve().parents[1] / "clients" / "vscode" / "package.json"
    properties = json.loads(package.read_text(encoding="utf-8"))["contributes"]["configuration"]
    items = properties["properties"]["skilldeck.sources"]["items"]
    keys = {*COMMON_KEYS, *(key for kind in SOURCE_TYPES for key in TYPE_KEYS[kind])}
    assert set(items["properties"]) == keys
    assert items["additionalProperties"] is False
    # Keys only one type has are refused for the other one.
    for kind, rule in zip(SOURCE_TYPES, items["allOf"], strict=True):
        assert rule["if"]["properties"]["type"]["const"] == kind
        refused = {key for key, value in rule["then"]["properties"].items() if value is False}
        assert refused == set(keys) - {*COMMON_KEYS, *TYPE_KEYS[kind]}
    hosts = properties["properties"]["skilldeck.hosts"]["items"]
    assert hosts["enumItemLabels"] == [host.label for host in HOSTS.values()]


def test_an_editor_source_is_the_file_table_read_by_the_same_parser(tmp_path: Path) -> None:
    (tmp_path / "team.git").mkdir()
    config = tmp_path / "skilldeck.toml"
    config.write_text(
        '[[sources]]\nname = "team"\ntype = "git"\nurl = "team.git"\nref = "v1"\n'
        'path = "skills"\nrank = 320\nrefresh-interval = 60\ntimeout = 5\n'
        '[[sources]]\nname = "other"\ntype = "mcp"\ncommand = ["skilldeck", "mcp"]\n',
        encoding="utf-8",
    )
    from_file = load_config_file(config).remote_sources
    editor = [
        {"name": "team", "type": "git", "url": "team.git", "ref": "v1", "path": "skills",
         "rank": 320, "refresh-interval": 60, "timeout": 5},
        {"name": "other", "type": "mcp", "command": ["skilldeck", "mcp"]},
    ]  # fmt: skip
    parsed = parse_settings({"sources": editor})
    assert parsed.warnings == ()
    assert anchored(parsed.layer, str(tmp_path)).remote_sources == from_file


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"name": "team"}, "skilldeck.sources must be a list of objects (one per source), got "
         "{name = \"team\"}; only the config file's sources are used."),
        ([{"name": "team", "type": "git"}], "'skilldeck.sources[0].url' is required for a git "
         "source; only the config file's sources are used."),
        ([{"name": "team", "type": "git", "url": "ext::sh -c id"}], "'skilldeck.sources[0].url': "
         "the 'ext::' transport is not allowed (use one of https, http, ssh, git, file or a "
         "local path); only the config file's sources are used."),
        ([{"name": "team", "type": "svn", "url": "x"}], "'skilldeck.sources[0].type' must be one "
         'of "git", "mcp", not "svn"; only the config file\'s sources are used.'),
    ],
)  # fmt: skip
def test_a_bad_editor_source_is_named_and_dropped(value: object, message: str) -> None:
    parsed = parse_settings({"sources": value, "profile": "codex"})
    assert parsed.warnings == (message,)
    assert parsed.layer.remote_sources is None
    assert parsed.layer.profile == "codex"  # the other settings still apply


def test_every_default_is_valid_under_its_own_schema() -> None:
    """A generated declaration says what the code does: each default (the editor's and
    the file's) is a value its schema accepts (``rules`` once defaulted to a list)."""
    jsonschema = pytest.importorskip("jsonschema")
    package = Path(__file__).resolve().parents[1] / "clients" / "vscode" / "package.json"
    contributed = json.loads(package.read_text(encoding="utf-8"))["contributes"]
    for key, declared in contributed["configuration"]["properties"].items():
        schema = {k: v for k, v in declared.items() if k not in ("default", "scope")}
        jsonschema.validate(declared["default"], schema), key  # type: ignore[func-returns-value]
    toml = settings_json_schema()["properties"]
    for key, declared in toml.items():  # type: ignore[union-attr]
        inner = declared.get("properties", {key: declared})
        for name, schema in inner.items():
            if "default" in schema:  # an unset path has none (TOML has no null)
                jsonschema.validate(schema["default"], schema), name
