from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from skilldeck.engine.config._skilldeck_config import (
    ConfigError,
    ConfigLayer,
    SkilldeckConfig,
    find_config_file,
    load_config_file,
    load_config_file_keeping_valid,
)
from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rules import rule


def load_project_config(
    project_root: Path, *, base: SkilldeckConfig | None = None
) -> SkilldeckConfig:
    """``base`` (default: the environment's) merged with the project's config file, as
    the CLI and the language server read it."""
    config = SkilldeckConfig.from_environment() if base is None else base
    file = find_config_file(project_root)
    if file is None:
        return config
    return replace(config.merged(load_config_file(file)), config_file=str(file))


def test_defaults() -> None:
    config = SkilldeckConfig()
    assert config.profile == "dsh"
    assert config.custom_skill_dirs == ()
    assert config.include_default_roots and config.include_user_roots
    assert config.catalog_max_description_length == 500
    assert dict(config.rule_overrides) == {}


def test_environment_sets_homes_and_bundled_dir(tmp_path: Path) -> None:
    env = {
        "DSH_HOME": str(tmp_path / "dsh"),
        "DSH_AGENTS_HOME": str(tmp_path / "agents"),
        "DSH_BUNDLED_SKILL_DIR": str(tmp_path / "bundled"),
    }
    config = SkilldeckConfig.from_environment(env)
    assert config.dsh_home == str(tmp_path / "dsh")
    assert config.agents_home == str(tmp_path / "agents")
    assert config.bundled_skill_dir == str(tmp_path / "bundled")


def test_empty_environment_variables_count_as_unset() -> None:
    config = SkilldeckConfig.from_environment({"DSH_HOME": "", "DSH_BUNDLED_SKILL_DIR": ""})
    assert config.dsh_home is None
    assert config.bundled_skill_dir is None


def test_skilldeck_toml_is_read_relative_to_its_folder(tmp_path: Path) -> None:
    (tmp_path / "skilldeck.toml").write_text(
        'profile = "agentskills"\n'
        'custom-skill-dirs = ["shared/skills", "/abs/skills"]\n'
        'bundled-skill-dir = "vendor/bundled"\n'
        "catalog-description-max-length = 120\n"
        'ignore = ["deferred-key"]\n'
        "[rules]\n"
        'SD701 = "off"\n'
        'invalid-name = "warning"\n'
    )
    layer = load_config_file(tmp_path / "skilldeck.toml")
    assert layer.profile == "agentskills"
    assert layer.custom_skill_dirs == (str(tmp_path / "shared" / "skills"), "/abs/skills")
    assert layer.bundled_skill_dir == str(tmp_path / "vendor" / "bundled")
    assert layer.catalog_max_description_length == 120
    assert dict(layer.rule_overrides) == {
        rule("deferred-key").code: None,
        "SD701": None,
        rule("invalid-name").code: Severity.WARNING,
    }


def test_pyproject_tool_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n'
        '[tool.skilldeck]\ncustom-skill-dirs = ["skills"]\n'
        '[tool.skilldeck.rules]\nSD702 = "hint"\n'
    )
    assert find_config_file(tmp_path) == tmp_path / "pyproject.toml"
    config = load_project_config(tmp_path, base=SkilldeckConfig())
    assert config.custom_skill_dirs == (str(tmp_path / "skills"),)
    assert dict(config.rule_overrides) == {"SD702": Severity.HINT}
    assert config.config_file == str(tmp_path / "pyproject.toml")


def test_pyproject_without_tool_table_is_not_a_config(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config_file(tmp_path) is None
    assert load_project_config(tmp_path, base=SkilldeckConfig()) == SkilldeckConfig()


def test_skilldeck_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.skilldeck]\nprofile = "agentskills"\n')
    (tmp_path / "skilldeck.toml").write_text('profile = "dsh"\n')
    assert find_config_file(tmp_path) == tmp_path / "skilldeck.toml"


def test_precedence_defaults_environment_file_flags(tmp_path: Path) -> None:
    (tmp_path / "skilldeck.toml").write_text(
        'bundled-skill-dir = "from-file"\ncatalog-description-max-length = 80\n'
        '[rules]\nSD701 = "off"\nSD702 = "warning"\n'
    )
    env = {"DSH_BUNDLED_SKILL_DIR": str(tmp_path / "from-env"), "DSH_HOME": str(tmp_path / "h")}
    base = SkilldeckConfig.from_environment(env)
    from_file = load_project_config(tmp_path, base=base)
    # the file overrides the environment, the environment fills what the file leaves
    assert from_file.bundled_skill_dir == str(tmp_path / "from-file")
    assert from_file.dsh_home == str(tmp_path / "h")
    flags = ConfigLayer(
        catalog_max_description_length=40,
        rule_overrides={"SD702": Severity.ERROR},
        bundled_skill_dir=str(tmp_path / "from-flag"),
    )
    final = from_file.merged(flags)
    assert final.catalog_max_description_length == 40
    assert final.bundled_skill_dir == str(tmp_path / "from-flag")
    # overrides merge per rule
    assert dict(final.rule_overrides) == {"SD701": None, "SD702": Severity.ERROR}
    assert final.profile == "dsh"


def test_sources_name_the_layer_each_value_came_from(tmp_path: Path) -> None:
    (tmp_path / "skilldeck.toml").write_text(
        'profile = "codex"\ncatalog-description-max-length = 80\n'
    )
    base = SkilldeckConfig.from_environment({"DSH_HOME": str(tmp_path / "h")})
    from_file = load_project_config(tmp_path, base=base)
    final = from_file.merged(ConfigLayer(profile="dsh", origin="editor settings"))
    assert final.source_of("catalog_max_description_length") == str(tmp_path / "skilldeck.toml")
    assert final.source_of("profile") == "editor settings"
    assert final.source_of("dsh_home") == "$DSH_HOME"
    assert final.source_of("include_user_roots") is None
    flagged = final.merged(ConfigLayer(catalog_max_description_length=40))
    assert flagged.source_of("catalog_max_description_length") == "command-line flags"
    assert flagged.source_of("profile") == "editor settings"


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ("colour = true\n", "colour", "unknown key 'colour'"),
        ("profile = 3\n", "profile", "'profile' must be a profile name"),
        ('custom-skill-dirs = "x"\n', "custom-skill-dirs", "must be a list of folder paths"),
        (
            "catalog-description-max-length = 2\n",
            "catalog-description-max-length",
            "must be at least 3, not 2",
        ),
        (
            "catalog-description-max-length = true\n",
            "catalog-description-max-length",
            "must be an integer",
        ),
        ('[rules]\nSD999 = "off"\n', "rules.SD999", "unknown rule 'rules.SD999'"),
        ('[rules]\nSD701 = "loud"\n', "rules.SD701", 'must be one of "error", "warning"'),
        ('ignore = "SD701"\n', "ignore", "must be a list of rule codes or names"),
        (
            'custom-skill-dirs = ["ok", "team\\u0000skills"]\n',
            "custom-skill-dirs",
            "'custom-skill-dirs' must not contain a NUL character",
        ),
        (
            'bundled-skill-dir = "b\\u0000"\n',
            "bundled-skill-dir",
            "'bundled-skill-dir' must not contain a NUL character",
        ),
    ],
)
def test_bad_values_name_the_key_and_file(
    tmp_path: Path, text: str, key: str, fragment: str
) -> None:
    file = tmp_path / "skilldeck.toml"
    file.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config_file(file)
    assert caught.value.key == key
    assert caught.value.path == str(file)
    assert str(caught.value).startswith(f"{file}: ")
    assert fragment in str(caught.value)


def test_unknown_key_in_pyproject_is_shown_with_its_table(tmp_path: Path) -> None:
    file = tmp_path / "pyproject.toml"
    file.write_text("[tool.skilldeck]\nprofiles = 'dsh'\n")
    with pytest.raises(ConfigError, match=r"unknown key 'tool\.skilldeck\.profiles'"):
        load_project_config(tmp_path, base=SkilldeckConfig())


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    file = tmp_path / "skilldeck.toml"
    file.write_text("profile = \n")
    with pytest.raises(ConfigError, match=r"skilldeck\.toml: invalid TOML"):
        load_config_file(file)


def test_flag_layer_with_bad_cap_is_rejected() -> None:
    with pytest.raises(ConfigError, match="must be at least 3"):
        SkilldeckConfig().merged(ConfigLayer(catalog_max_description_length=1))


@pytest.mark.parametrize(
    "key", ["custom_skill_dirs", "dsh_home", "agents_home", "bundled_skill_dir"]
)
def test_a_layer_with_a_nul_in_a_path_is_rejected_naming_it(key: str) -> None:
    value: object = ("team\0skills",) if key == "custom_skill_dirs" else "team\0skills"
    with pytest.raises(ConfigError, match="must not contain a NUL character") as caught:
        SkilldeckConfig().merged(ConfigLayer(**{key: value}, origin="flags"))  # type: ignore[arg-type]
    assert caught.value.key == key.replace("_", "-")


def test_project_root_key_only_in_skilldeck_toml(tmp_path: Path) -> None:
    (tmp_path / "skilldeck.toml").write_text("project-root = true\n")
    assert load_config_file(tmp_path / "skilldeck.toml") == ConfigLayer(
        origin=str(tmp_path / "skilldeck.toml")
    )
    (tmp_path / "pyproject.toml").write_text("[tool.skilldeck]\nproject-root = true\n")
    with pytest.raises(ConfigError, match=r"only in skilldeck\.toml"):
        load_config_file(tmp_path / "pyproject.toml")


def test_keeping_valid_leaves_out_only_the_bad_keys(tmp_path: Path) -> None:
    config = tmp_path / "skilldeck.toml"
    config.write_text(
        'profile = "nope"\nignore = ["SD998", "SD204"]\n[rules]\nSD999 = "off"\nSD501 = "off"\n',
        encoding="utf-8",
    )
    layer, errors = load_config_file_keeping_valid(config)
    assert layer.rule_overrides == {"SD501": None, "SD204": None}
    assert layer.profile is None
    assert [error.key for error in errors] == ["profile", "ignore: SD998", "rules.SD999"]
    # `check` and the other front ends still refuse the file.
    with pytest.raises(ConfigError, match='unknown profile "nope"'):
        load_config_file(config)
