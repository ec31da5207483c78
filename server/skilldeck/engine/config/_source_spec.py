"""The ``[[sources]]`` tables of a config file, parsed into frozen source specs.

Each table names one remote source of skills: ``name``, ``type`` (``git`` or ``mcp``),
an optional ``rank`` and the type's own keys. Every key is checked here, where the file
is read, so a bad table is one precise error naming the key (the config module turns
:class:`SourceSpecError` into its ``ConfigError``).

Rank: a source's skills default to :data:`DEFAULT_SOURCE_RANK` (350), between the custom
dirs (300) and the user roots (400): a project's own skills and its custom dirs win over
the team's, the team's win over a developer's personal ones.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import SplitResult, unquote, urlsplit

from skilldeck.engine.config._numbers import finite_number
from skilldeck.engine.config._toml_values import toml_text

#: Default rank of a source's skills: between custom dirs (300) and user roots (400).
DEFAULT_SOURCE_RANK = 350
#: A git source is fetched again when its copy is older than this (seconds).
DEFAULT_REFRESH_INTERVAL = 3600.0
#: No lookup waits longer than this for a source (seconds).
DEFAULT_SOURCE_TIMEOUT = 10.0

SOURCE_TYPES = ("git", "mcp")
#: Keys every source table may hold, and each type's own keys.
COMMON_KEYS = ("name", "type", "rank", "timeout")
TYPE_KEYS: Mapping[str, tuple[str, ...]] = {
    "git": ("url", "ref", "path", "refresh-interval", "token-env", "require"),
    "mcp": ("command", "url", "token-env"),
}
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: URL schemes a git source may use; ``ext::``, ``file::`` and other transports are refused.
GIT_SCHEMES = ("https", "http", "ssh", "git", "file")
#: scp-like ``user@host:path`` (what ``git clone git@github.com:team/skills`` uses); the
#: host may be a bracketed IPv6 literal (``git@[2001:db8::1]:team.git``).
_SCP_LIKE = re.compile(r"^[A-Za-z0-9._-]+@(?:[A-Za-z0-9.-]+|\[([0-9A-Fa-f:.]+)\]):[^:/][^:]*$")
#: ``<transport>::<address>``: git hands such a URL to the helper ``git-remote-<transport>``
#: (``ext::`` runs a command). git's own rule (transport.c ``transport_get``): a run of
#: letters, digits, ``+``, ``-`` and ``.`` (not first) followed by ``::``; a ``::`` inside
#: an IPv6 literal (``http://[::1]/x.git``) is not one.
_HELPER_TRANSPORT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9+.-]*)::")


class SourceSpecError(ValueError):
    """A ``[[sources]]`` table skilldeck cannot use; ``key`` is the key as shown."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class GitSourceSpec:
    """A git repository of skills: ``url``, a ``ref`` (branch, tag or commit; ``None``:
    the remote's default branch) and ``path``, the sub-folder holding the skills."""

    name: str
    url: str
    ref: str | None = None
    path: str = ""
    rank: int = DEFAULT_SOURCE_RANK
    refresh_interval: float = DEFAULT_REFRESH_INTERVAL
    timeout: float = DEFAULT_SOURCE_TIMEOUT
    token_env: str | None = None
    #: ``"no-errors"``: a new revision with error-level safety findings (SD10xx) is
    #: refused and the last good one stays served (``docs/safety.md``).
    require: str | None = None

    @property
    def label(self) -> str:
        """The origin label of its skills (their ``source``) and its provider name."""
        return f"git:{self.name}"


@dataclass(frozen=True)
class McpSourceSpec:
    """Another server speaking the Skills extension: a stdio ``command`` or an HTTP ``url``
    (with a bearer token read from the environment variable ``token_env``)."""

    name: str
    command: tuple[str, ...] | None = None
    url: str | None = None
    rank: int = DEFAULT_SOURCE_RANK
    timeout: float = DEFAULT_SOURCE_TIMEOUT
    token_env: str | None = None

    @property
    def label(self) -> str:
        return f"mcp:{self.name}"


SourceSpec = GitSourceSpec | McpSourceSpec


def parse_sources(value: object, shown: str, base: str) -> tuple[SourceSpec, ...]:
    """The specs of a ``sources`` value (an array of tables); ``base`` is the config file's
    folder (a local git path is relative to it)."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise SourceSpecError(f"'{shown}' must be an array of tables ([[{shown}]])", shown)
    specs: list[SourceSpec] = []
    seen: set[str] = set()
    for index, table in enumerate(value):
        spec = _parse_one(table, f"{shown}[{index}]", base)
        if spec.name in seen:
            raise SourceSpecError(
                f"'{shown}[{index}].name': a source named {spec.name!r} is already configured",
                f"{shown}[{index}].name",
            )
        seen.add(spec.name)
        specs.append(spec)
    return tuple(specs)


def _parse_one(table: Mapping[str, object], shown: str, base: str) -> SourceSpec:
    kind = table.get("type")
    if kind not in SOURCE_TYPES:
        raise SourceSpecError(
            f"'{shown}.type' must be one of {', '.join(map(toml_text, SOURCE_TYPES))}, "
            f"not {toml_text(kind)}",
            f"{shown}.type",
        )
    assert isinstance(kind, str)
    known = (*COMMON_KEYS, *TYPE_KEYS[kind])
    for key in table:
        if key not in known:
            raise SourceSpecError(
                f"unknown key '{shown}.{key}' for a {kind} source (known keys: {', '.join(known)})",
                f"{shown}.{key}",
            )
    name = table.get("name")
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise SourceSpecError(
            f"'{shown}.name' must be a short lowercase name (letters, digits, '-', '_', '.')",
            f"{shown}.name",
        )
    rank = _integer(table, "rank", shown, DEFAULT_SOURCE_RANK)
    timeout = _seconds(table, "timeout", shown, DEFAULT_SOURCE_TIMEOUT)
    token_env = _optional_string(table, "token-env", shown)
    if token_env is not None and _ENV_NAME.fullmatch(token_env) is None:
        raise SourceSpecError(
            f"'{shown}.token-env' must name an environment variable", f"{shown}.token-env"
        )
    if kind == "git":
        url = _optional_string(table, "url", shown)
        if url is None:
            raise SourceSpecError(f"'{shown}.url' is required for a git source", f"{shown}.url")
        return GitSourceSpec(
            name=name,
            url=git_url(url, f"{shown}.url", base),
            ref=_ref(table, shown),
            path=_sub_folder(table, shown),
            rank=rank,
            refresh_interval=_seconds(table, "refresh-interval", shown, DEFAULT_REFRESH_INTERVAL),
            timeout=timeout,
            token_env=token_env,
            require=_require(table, shown),
        )
    command = table.get("command")
    url = _optional_string(table, "url", shown)
    if (command is None) == (url is None):
        raise SourceSpecError(
            f"'{shown}': an mcp source needs exactly one of 'command' (a list) or 'url'",
            f"{shown}.command",
        )
    if command is not None and (
        not isinstance(command, list)
        or not command
        or not all(isinstance(part, str) and part and _is_text(part) for part in command)
    ):
        raise SourceSpecError(
            f"'{shown}.command' must be a non-empty list of strings", f"{shown}.command"
        )
    parts = None if url is None else split_url(url, f"{shown}.url")
    if parts is not None and parts.scheme not in ("http", "https"):
        raise SourceSpecError(f"'{shown}.url' must be an http or https URL", f"{shown}.url")
    if parts is not None and parts.password is not None:
        raise SourceSpecError(
            f"'{shown}.url' must not hold a password; name a variable in 'token-env'",
            f"{shown}.url",
        )
    return McpSourceSpec(
        name=name,
        command=tuple(command) if isinstance(command, list) else None,
        url=url,
        rank=rank,
        timeout=timeout,
        token_env=token_env,
    )


def git_url(url: str, shown: str, base: str) -> str:
    """``url`` when git may fetch it (https, http, ssh, git, file, scp-like or a local
    path, made absolute against ``base``); :class:`SourceSpecError` otherwise.

    Transports that run commands or name helpers (``ext::``, ``file::``, ``fd::``, any
    ``<transport>::``) are refused, as is a URL starting with ``-`` (an option) or one
    holding a password (put the token in an environment variable: ``token-env``).
    """
    if not url or url.startswith("-") or "\0" in url or any(c in url for c in "\r\n"):
        raise SourceSpecError(f"'{shown}' is not a git URL", shown)
    helper = _HELPER_TRANSPORT.match(url)
    if helper is not None:
        raise SourceSpecError(
            f"'{shown}': the '{helper.group(1)}::' transport is not allowed "
            f"(use one of {', '.join(GIT_SCHEMES)} or a local path)",
            shown,
        )
    scp = _SCP_LIKE.fullmatch(url)
    if scp is not None:
        if scp.group(1) is not None:
            _check_ipv6(scp.group(1), shown)
        return url
    parts = split_url(url, shown)
    if parts.scheme and len(parts.scheme) > 1:
        if parts.scheme not in GIT_SCHEMES:
            raise SourceSpecError(
                f"'{shown}': the URL scheme '{parts.scheme}' is not allowed "
                f"(use one of {', '.join(GIT_SCHEMES)} or a local path)",
                shown,
            )
        if parts.password is not None:
            raise SourceSpecError(
                f"'{shown}' must not hold a password; name a variable in 'token-env'", shown
            )
        return url
    return os.path.normpath(os.path.join(base, os.path.expanduser(url)))


def split_url(url: str, shown: str) -> SplitResult:
    """``url`` split into its parts; :class:`SourceSpecError` when it is malformed (an
    unclosed or invalid IPv6 literal such as ``ssh://[x/repo``, a port that is not a
    number from 0 to 65535)."""
    try:
        parts = urlsplit(url)
        if "[" in parts.netloc or "]" in parts.netloc:
            _check_ipv6(parts.hostname or "", shown)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError as error:
        raise SourceSpecError(f"'{shown}' is not a valid URL: {error}", shown) from None
    return parts


def _check_ipv6(host: str, shown: str) -> None:
    """A bracketed host must be an IPv6 address (an optional zone after ``%``)."""
    try:
        ipaddress.IPv6Address(unquote(host))
    except ValueError:
        raise SourceSpecError(
            f"'{shown}' is not a valid URL: [{host}] is not an IPv6 address", shown
        ) from None


def redacted(url: str) -> str:
    """``url`` with any user information replaced by ``***`` (for messages and files)."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL the config accepts: shown without anything after '@'
        return f"***@{url.rsplit('@', 1)[1]}" if "@" in url else url
    if parts.scheme and "@" in parts.netloc:
        host = parts.netloc.rsplit("@", 1)[1]
        return parts._replace(netloc=f"***@{host}").geturl()
    return url


def _integer(table: Mapping[str, object], key: str, shown: str, default: int) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SourceSpecError(f"'{shown}.{key}' must be a non-negative integer", f"{shown}.{key}")
    return value


def _seconds(table: Mapping[str, object], key: str, shown: str, default: float) -> float:
    value = finite_number(table.get(key, default))
    if value is None or value <= 0:
        raise SourceSpecError(
            f"'{shown}.{key}' must be a positive, finite number of seconds", f"{shown}.{key}"
        )
    return value


def _optional_string(table: Mapping[str, object], key: str, shown: str) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value or "\0" in value:
        raise SourceSpecError(f"'{shown}.{key}' must be a non-empty string", f"{shown}.{key}")
    if not _is_text(value):
        raise SourceSpecError(
            f"'{shown}.{key}' must be Unicode text (it holds a lone surrogate)", f"{shown}.{key}"
        )
    return value


def _is_text(value: str) -> bool:
    """Whether ``value`` is text a file name, a command line or a digest can carry: an
    editor's JSON can hold a lone surrogate (``"\\ud800"``), which no encoding can."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _ref(table: Mapping[str, object], shown: str) -> str | None:
    ref = _optional_string(table, "ref", shown)
    if ref is not None and (
        ref.startswith("-") or any(c.isspace() for c in ref) or ".." in ref or ":" in ref
    ):
        raise SourceSpecError(f"'{shown}.ref' must be a branch, tag or commit name", f"{shown}.ref")
    return ref


#: The values of a git source's ``require`` option.
REQUIRE_VALUES = ("no-errors",)


def _require(table: Mapping[str, object], shown: str) -> str | None:
    require = _optional_string(table, "require", shown)
    if require is not None and require not in REQUIRE_VALUES:
        raise SourceSpecError(
            f"'{shown}.require' must be one of {', '.join(map(toml_text, REQUIRE_VALUES))}, "
            f"not {toml_text(require)}",
            f"{shown}.require",
        )
    return require


def _sub_folder(table: Mapping[str, object], shown: str) -> str:
    path = _optional_string(table, "path", shown)
    if path is None:
        return ""
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    if path.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
        raise SourceSpecError(
            f"'{shown}.path' must be a folder inside the repository (no '..', not absolute)",
            f"{shown}.path",
        )
    return "/".join(parts)


#: What each key of a source table means (the JSON Schema's descriptions, the settings
#: reference).
SOURCE_KEY_DOCS: Mapping[str, str] = {
    "name": "Short lowercase name; the skills' origin label is `git:<name>` or `mcp:<name>`.",
    "type": "`git` (a repository of skills) or `mcp` (another server speaking the Skills "
    "extension).",
    "rank": "Rank of the source's skills (lower wins a name; default 350: between custom "
    "dirs and user roots).",
    "timeout": "Seconds a lookup waits for the source at most.",
    "url": "git: repository URL (https, http, ssh, git, file, `user@host:path`) or a local "
    "path relative to the config file (the workspace folder in an editor). mcp: the "
    "server's http(s) URL.",
    "ref": "git: branch, tag or commit (default: the remote's default branch).",
    "path": "git: the folder of the repository holding the skills.",
    "refresh-interval": "git: seconds after which the copy is fetched again.",
    "command": "mcp: the stdio command of another skills server.",
    "token-env": "Name of the environment variable holding the bearer token (never the "
    "token itself).",
    "require": 'git: "no-errors" refuses a new revision whose skills have error-level '
    "safety findings (SD10xx) and keeps serving the last good one.",
}


def source_json_schema() -> dict[str, object]:
    """The JSON Schema of one source table (keys, types, defaults, and the keys only one
    type has refused for the other)."""
    keys = {*COMMON_KEYS, *(key for kind in SOURCE_TYPES for key in TYPE_KEYS[kind])}
    shapes: dict[str, dict[str, object]] = {
        "name": {"type": "string", "pattern": _NAME.pattern},
        "type": {"type": "string", "enum": list(SOURCE_TYPES)},
        "rank": {"type": "integer", "minimum": 0, "default": DEFAULT_SOURCE_RANK},
        "timeout": {"type": "number", "exclusiveMinimum": 0, "default": DEFAULT_SOURCE_TIMEOUT},
        "url": {"type": "string"},
        "ref": {"type": "string"},
        "path": {"type": "string"},
        "refresh-interval": {
            "type": "number",
            "exclusiveMinimum": 0,
            "default": DEFAULT_REFRESH_INTERVAL,
        },
        "command": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "token-env": {"type": "string", "pattern": _ENV_NAME.pattern},
        "require": {"type": "string", "enum": list(REQUIRE_VALUES)},
    }
    assert set(shapes) == keys == set(SOURCE_KEY_DOCS)
    ordered = (*COMMON_KEYS, *dict.fromkeys(k for kind in SOURCE_TYPES for k in TYPE_KEYS[kind]))
    properties = {key: {**shapes[key], "description": SOURCE_KEY_DOCS[key]} for key in ordered}
    rules: list[dict[str, object]] = []
    for kind in SOURCE_TYPES:
        then: dict[str, object] = {
            "properties": {
                key: False for key in ordered if key not in (*COMMON_KEYS, *TYPE_KEYS[kind])
            }
        }
        if kind == "git":
            then = {"required": ["url"], **then}
        rules.append({"if": {"properties": {"type": {"const": kind}}}, "then": then})
    return {
        "type": "object",
        "required": ["name", "type"],
        "additionalProperties": False,
        "properties": properties,
        "allOf": rules,
    }


def source_to_json(spec: SourceSpec) -> dict[str, object]:
    """``spec`` as JSON (its type and every field), for cache keys."""
    fields = {key: value for key, value in vars(spec).items()}
    if isinstance(fields.get("command"), tuple):
        fields["command"] = list(fields["command"])
    return {"type": "git" if isinstance(spec, GitSourceSpec) else "mcp", **fields}
