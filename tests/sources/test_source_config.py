"""``[[sources]]`` tables read from a real ``skilldeck.toml``: the specs, their defaults and
the precise error for each bad table (refused git transports first)."""

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
)
from skilldeck.engine.config._source_spec import DEFAULT_SOURCE_RANK, GitSourceSpec, McpSourceSpec
from skilldeck.engine.registry._model import RANK_CUSTOM, RANK_USER_DSH
from skilldeck.lsp.settings import parse_settings


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


def _load(tmp_path: Path, text: str) -> tuple[object, ...]:
    (tmp_path / "skilldeck.toml").write_text(text, encoding="utf-8")
    return load_project_config(tmp_path).remote_sources


def _error(tmp_path: Path, text: str) -> ConfigError:
    with pytest.raises(ConfigError) as raised:
        _load(tmp_path, text)
    return raised.value


def test_git_and_mcp_sources_are_read_with_their_defaults(tmp_path: Path) -> None:
    sources = _load(
        tmp_path,
        '[[sources]]\nname = "team"\ntype = "git"\nurl = "https://git.example/team.git"\n'
        'ref = "v2"\npath = "skills/"\n\n'
        '[[sources]]\nname = "hub"\ntype = "mcp"\ncommand = ["skilldeck", "mcp"]\nrank = 320\n',
    )
    assert sources == (
        GitSourceSpec(name="team", url="https://git.example/team.git", ref="v2", path="skills"),
        McpSourceSpec(name="hub", command=("skilldeck", "mcp"), rank=320),
    )
    assert RANK_CUSTOM < DEFAULT_SOURCE_RANK < RANK_USER_DSH


def test_a_local_path_is_relative_to_the_config_file(tmp_path: Path) -> None:
    (source,) = _load(tmp_path, '[[sources]]\nname = "t"\ntype = "git"\nurl = "../repo.git"\n')
    assert isinstance(source, GitSourceSpec)
    assert source.url == str(tmp_path.parent / "repo.git")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ext::sh -c touch% /tmp/pwned", "the 'ext::' transport is not allowed"),
        ("file::/tmp/repo", "the 'file::' transport is not allowed"),
        ("fd::3", "the 'fd::' transport is not allowed"),
        ("ftp://host/repo", "the URL scheme 'ftp' is not allowed"),
        ("--upload-pack=touch /tmp/x", "is not a git URL"),
    ],
)
def test_unsupported_git_transports_are_refused(tmp_path: Path, url: str, message: str) -> None:
    error = _error(tmp_path, f'[[sources]]\nname = "t"\ntype = "git"\nurl = "{url}"\n')
    assert message in str(error)
    assert error.key == "sources[0].url"
    assert str(tmp_path / "skilldeck.toml") in str(error)


def test_a_password_in_a_url_is_refused_without_being_repeated(tmp_path: Path) -> None:
    error = _error(
        tmp_path,
        '[[sources]]\nname = "t"\ntype = "git"\nurl = "https://me:s3cr3t-value@git.example/x"\n',
    )
    assert "must not hold a password; name a variable in 'token-env'" in str(error)
    assert "s3cr3t-value" not in str(error)


@pytest.mark.parametrize(
    ("table", "message", "key"),
    [
        ('type = "svn"\nname = "t"', '\'sources[0].type\' must be one of "git", "mcp"', "type"),
        ('type = "git"\nname = "T!"\nurl = "x"', "'sources[0].name' must be a short", "name"),
        ('type = "git"\nname = "t"', "'sources[0].url' is required", "url"),
        ('type = "git"\nname = "t"\nurl = "x"\npath = "../up"', "inside the repository", "path"),
        ('type = "git"\nname = "t"\nurl = "x"\nref = "-x"', "branch, tag or commit", "ref"),
        ('type = "git"\nname = "t"\nurl = "x"\ntimeout = 0', "positive, finite number", "timeout"),
        ('type = "git"\nname = "t"\nurl = "x"\ncommand = ["a"]', "unknown key", "command"),
        ('type = "mcp"\nname = "t"', "exactly one of 'command' (a list) or 'url'", "command"),
        ('type = "mcp"\nname = "t"\nurl = "ws://h"', "must be an http or https URL", "url"),
    ],
)
def test_each_bad_table_names_its_key(tmp_path: Path, table: str, message: str, key: str) -> None:
    error = _error(tmp_path, f"[[sources]]\n{table}\n")
    assert message in str(error)
    assert error.key == f"sources[0].{key}"


def test_two_sources_with_one_name_are_refused(tmp_path: Path) -> None:
    one = '[[sources]]\nname = "t"\ntype = "git"\nurl = "x"\n'
    error = _error(tmp_path, one + one)
    assert "a source named 't' is already configured" in str(error)


def test_a_higher_layer_merges_sources_by_name(tmp_path: Path) -> None:
    (tmp_path / "skilldeck.toml").write_text(
        '[[sources]]\nname = "team"\ntype = "git"\nurl = "https://git.example/team.git"\n'
        '[[sources]]\nname = "docs"\ntype = "git"\nurl = "https://git.example/docs.git"\n',
        encoding="utf-8",
    )
    fork = GitSourceSpec(name="team", url="https://git.example/mine/team.git", ref="wip")
    extra = McpSourceSpec(name="local", command=("skilldeck", "mcp"))
    layer = ConfigLayer(remote_sources=(extra, fork), origin="editor settings")
    config = load_project_config(tmp_path).merged(layer)
    assert [(s.name, getattr(s, "url", None)) for s in config.remote_sources] == [
        ("team", "https://git.example/mine/team.git"),  # replaced in its place
        ("docs", "https://git.example/docs.git"),  # the file's other source stays
        ("local", None),  # added after the file's
    ]
    assert config.source_of("remote_sources") == "editor settings"
    unchanged = load_project_config(tmp_path).merged(ConfigLayer(remote_sources=()))
    assert [s.name for s in unchanged.remote_sources] == ["team", "docs"]


@pytest.mark.parametrize(
    ("kind", "url", "message"),
    [
        ("git", "ssh://[x/repo", "'sources[0].url' is not a valid URL: Invalid IPv6 URL"),
        ("git", "https://[zz]/team.git", "'sources[0].url' is not a valid URL: "),
        ("git", "http://host:99999/x.git", "'sources[0].url' is not a valid URL: Port out of"),
        ("mcp", "http://[::1/mcp", "'sources[0].url' is not a valid URL: Invalid IPv6 URL"),
    ],
)
def test_a_malformed_url_is_a_config_error_naming_its_key(
    tmp_path: Path, kind: str, url: str, message: str
) -> None:
    error = _error(tmp_path, f'[[sources]]\nname = "t"\ntype = "{kind}"\nurl = "{url}"\n')
    assert message in str(error)
    assert error.key == "sources[0].url"


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1]:9/x.git",
        "ssh://git@[2001:db8::1]/team.git",
        "git://[::1]:9418/team.git",
        "git@[2001:db8::1]:team.git",
    ],
)
def test_an_ipv6_literal_is_a_url_not_a_transport(tmp_path: Path, url: str) -> None:
    (source,) = _load(tmp_path, f'[[sources]]\nname = "t"\ntype = "git"\nurl = "{url}"\n')
    assert source == GitSourceSpec(name="t", url=url)


def test_an_ipv6_literal_is_an_http_url_of_an_mcp_source(tmp_path: Path) -> None:
    url = "http://[::1]:8765/mcp"
    (source,) = _load(tmp_path, f'[[sources]]\nname = "t"\ntype = "mcp"\nurl = "{url}"\n')
    assert source == McpSourceSpec(name="t", url=url)


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("git", "timeout", "inf"),
        ("git", "refresh-interval", "nan"),
        ("git", "refresh-interval", "+inf"),
        ("mcp", "timeout", "nan"),
    ],
)
def test_a_number_that_is_not_finite_is_refused(
    tmp_path: Path, kind: str, key: str, value: str
) -> None:
    where = 'url = "x"' if kind == "git" else 'command = ["skilldeck", "mcp"]'
    error = _error(
        tmp_path, f'[[sources]]\nname = "t"\ntype = "{kind}"\n{where}\n{key} = {value}\n'
    )
    assert f"'sources[0].{key}' must be a positive, finite number of seconds" in str(error)
    assert error.key == f"sources[0].{key}"


def test_an_editor_setting_that_is_not_finite_is_named_and_ignored() -> None:
    parsed = parse_settings(
        {"sources": [{"name": "t", "type": "git", "url": "/r.git", "timeout": float("inf")}]}
    )
    assert parsed.layer.remote_sources is None
    assert parsed.warnings == (
        "'skilldeck.sources[0].timeout' must be a positive, finite number of seconds; "
        "only the config file's sources are used.",
    )


def test_an_editor_source_holding_a_lone_surrogate_is_named_and_ignored() -> None:
    # JSON can spell one ("\ud800"); no file name, command line or digest can carry it.
    parsed = parse_settings({"sources": [{"name": "t", "type": "git", "url": "/r\ud800.git"}]})
    assert parsed.layer.remote_sources is None
    assert parsed.warnings == (
        "'skilldeck.sources[0].url' must be Unicode text (it holds a lone surrogate); "
        "only the config file's sources are used.",
    )
