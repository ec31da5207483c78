"""The settings table is the one declaration: the extension's ``package.json``, the config
file parser and the language server all agree with it (name, type, default, limits)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skilldeck.engine.config._settings_schema import EDITOR_KEYS, FILE_KEYS, SETTINGS
from skilldeck.engine.config._skilldeck_config import ConfigError, ConfigLayer, load_config_file
from skilldeck.engine.config._source_spec import (
    COMMON_KEYS,
    DEFAULT_REFRESH_INTERVAL,
    DEFAULT_SOURCE_RANK,
    DEFAULT_SOURCE_TIMEOUT,
    SOURCE_TYPES,
    TYPE_KEYS,
)
from skilldeck.engine.hosts._table import HOSTS
from skilldeck.engine.rules._profiles import PROFILES
from skilldeck.lsp.settings import anchored, parse_settings

PACKAGE = Path(__file__).resolve().parents[1] / "clients" / "vscode" / "package.json"
JSON_TYPES = {
    "profile": "string",
    "path": ["string", "null"],
    "paths": "array",
    "integer": "integer",
    "boolean": "boolean",
    "rules": "object",
    "string": "string",
    "hosts": "array",
    "sources": "array",
}


def _contributed() -> dict[str, dict[str, object]]:
    configuration = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"]
    sections = configuration if isinstance(configuration, list) else [configuration]
    return {
        key.removeprefix("skilldeck."): value
        for section in sections
        for key, value in section["properties"].items()
    }


def test_package_json_declares_exactly_the_editor_settings_of_the_table() -> None:
    contributed = _contributed()
    editor = {s.editor_key: s for s in SETTINGS if s.editor_key is not None}
    assert set(contributed) == set(editor)
    for key, setting in editor.items():
        declared = contributed[key]
        assert declared["type"] == JSON_TYPES[setting.kind], key
        default = list(setting.default) if isinstance(setting.default, tuple) else setting.default
        assert declared["default"] == default, key
        assert declared.get("minimum") == setting.minimum, key
    assert contributed["profile"]["enum"] == list(PROFILES)
    assert contributed["hosts"]["items"]["enum"] == list(HOSTS)


def test_the_file_parser_knows_exactly_the_file_keys(tmp_path: Path) -> None:
    config = tmp_path / "skilldeck.toml"
    config.write_text("not-a-setting = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config_file(config)
    assert f"(known keys: {', '.join(FILE_KEYS)})" in str(raised.value)
    layer_fields = set(ConfigLayer.__dataclass_fields__)
    assert {s.field for s in SETTINGS if s.field is not None} <= layer_fields


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.minimum is not None and s.field])
def test_limits_are_the_tables_in_the_file_and_the_editor(tmp_path: Path, setting) -> None:
    below = setting.minimum - 1
    assert setting.file_key is not None and setting.editor_key is not None
    config = tmp_path / "skilldeck.toml"
    config.write_text(f"{setting.file_key} = {below}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"at least {setting.minimum}"):
        load_config_file(config)
    parsed = parse_settings({setting.editor_key: below})
    assert getattr(parsed.layer, setting.field) is None
    assert any(f"at least {setting.minimum}" in warning for warning in parsed.warnings)
    accepted = parse_settings({setting.editor_key: setting.minimum})
    assert getattr(accepted.layer, setting.field) == setting.minimum


def test_every_mirrored_setting_is_parsed_by_the_server() -> None:
    values = {
        "profile": "agentskills",
        "customSkillDirs": ["team"],
        "dshHome": "/h/.dsh",
        "agentsHome": "/h/.agents",
        "bundledSkillDir": "/b",
        "catalogDescriptionMaxLength": 200,
        "includeUserRoots": False,
        "rules": {"SD501": "off"},
        "hosts": ["dsh", "codex"],
        "sources": [{"name": "team", "type": "git", "url": "https://example.invalid/t.git"}],
    }
    assert set(values) == set(EDITOR_KEYS.values())
    parsed = parse_settings(values)
    assert parsed.warnings == ()
    for field, key in EDITOR_KEYS.items():
        assert getattr(parsed.layer, field) not in (None, {}), key


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


def test_the_editor_sources_schema_has_the_keys_and_defaults_of_the_sources_table() -> None:
    items = _contributed()["sources"]["items"]
    assert isinstance(items, dict)
    properties = items["properties"]
    keys = {*COMMON_KEYS, *(key for kind in SOURCE_TYPES for key in TYPE_KEYS[kind])}
    assert set(properties) == keys
    assert items["additionalProperties"] is False
    assert items["required"] == ["name", "type"]
    assert properties["type"]["enum"] == list(SOURCE_TYPES)
    assert properties["rank"]["default"] == DEFAULT_SOURCE_RANK
    assert properties["timeout"]["default"] == DEFAULT_SOURCE_TIMEOUT
    assert properties["refresh-interval"]["default"] == DEFAULT_REFRESH_INTERVAL
    # Keys only one type has are refused for the other one.
    for kind, rule in zip(SOURCE_TYPES, items["allOf"], strict=True):
        assert rule["if"]["properties"]["type"]["const"] == kind
        refused = {key for key, value in rule["then"]["properties"].items() if value is False}
        assert refused == set(keys) - {*COMMON_KEYS, *TYPE_KEYS[kind]}


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
         "{'name': 'team'}; only the config file's sources are used."),
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


def test_the_agents_display_names_are_the_engines() -> None:
    # The agent picker shows them (#31); the engine's host table is the one source.
    items = _contributed()["hosts"]["items"]
    assert isinstance(items, dict)
    assert items["enum"] == list(HOSTS)
    assert items["enumItemLabels"] == [host.label for host in HOSTS.values()]
