"""Files a tool runs or reads by itself, read as what they are (SD1011-SD1014, SD1025-SD1028,
SD1050-SD1052).

A bundle can ship files that are not scripts by name but that a tool executes or trusts
the moment the bundle is used or opened:

- **CI and build files** whose commands are shell: a GitHub workflow or composite action
  (the ``run:`` blocks, with ``${{ secrets.X }}`` read as the token ``$X`` and
  ``toJSON(secrets)`` as the whole environment, and the ``env:`` entries they set), a
  ``Makefile`` or ``justfile`` recipe, a ``Dockerfile``'s ``RUN``, a VS Code task
  (``.vscode/tasks.json``; one with ``runOn: folderOpen`` runs when the folder opens);
- **a ``.pth`` file**: Python runs each of its lines that starts with ``import`` at every
  start-up of the interpreter it is installed in;
- **package-manager configs** (``.npmrc``, ``.yarnrc(.yml)``, ``pip.conf``/``pip.ini``,
  ``.pypirc``, ``uv.toml``): a registry re-pointed to another host (SD1051), a token
  configured for a host that is not its issuer's (SD1013);
- **agent configs** (``.claude/settings*.json``, ``hooks.json``, ``.mcp.json``,
  ``mcp.json``, ``claude_desktop_config.json``): hooks' commands (shell), model traffic
  sent elsewhere (``ANTHROPIC_BASE_URL``), every project MCP server enabled or every
  command allowed (SD1014), an MCP server run unpinned with tokens (SD1052).

The commands are handed to the shell analysis (:mod:`~skilldeck.engine.safety._shell`)
as one script built line for line (a line of the file is a line of the script, so the
lines a message names are the file's), with the offsets of each piece kept: a finding
points at the command in the file. Recognised by the file's name alone (cheap: most
bundles hold none of them), parsed only when its text holds a word a rule looks at.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from skilldeck.engine.safety._flow import ANALYSE, collector, token_label, url_host
from skilldeck.engine.safety._hits import Hit, shorten

#: The kinds of file this module reads, by the name (and folder) of the file.
CONFIG_KINDS = frozenset(
    {"workflow", "make", "just", "docker", "vscode", "pth", "registry", "agent"}
)


#: What makes any JSON file an agent config (a template the skill copies into place).
_AGENT_MARKS = ('"hooks"', '"mcpServers"', "enableAllProjectMcpServers", "ANTHROPIC_BASE_URL",
                '"defaultMode"', "OPENAI_BASE_URL")  # fmt: skip


def config_kind(relative: str, text: str | None = None) -> str | None:
    """The kind of a bundle file this module reads (``None``: not one), by its path (and,
    for a JSON file elsewhere, ``text``: an agent config template)."""
    parts = relative.replace("\\", "/").lower().split("/")
    name = parts[-1]
    folder = parts[-2] if len(parts) > 1 else ""
    if name.endswith((".yml", ".yaml")):
        if ".github" in parts[:-1] or name in ("action.yml", "action.yaml"):
            return "workflow"
        if name in (".yarnrc.yml",):
            return "registry"
        return None
    if name in ("makefile", "gnumakefile") or name.endswith(".mk"):
        return "make"
    if name in ("justfile", ".justfile"):
        return "just"
    if (
        name in ("dockerfile", "containerfile")
        or name.startswith("dockerfile.")
        or (name.endswith(".dockerfile"))
    ):
        return "docker"
    if folder == ".vscode" and name == "tasks.json":
        return "vscode"
    if (
        name.endswith(".json")
        and name != "package.json"
        and text is not None
        and any(mark in text for mark in _AGENT_MARKS)
    ):
        return "agent"
    if name.endswith(".pth"):
        return "pth"
    if name in (".npmrc", "npmrc", ".yarnrc", "pip.conf", "pip.ini", ".pypirc", "uv.toml"):
        return "registry"
    if name in (".mcp.json", "mcp.json", "claude_desktop_config.json", "hooks.json") or (
        folder == ".claude" and name.startswith("settings") and name.endswith(".json")
    ):
        return "agent"
    return None


# --- a script built from pieces of a file ------------------------------------------------


class _Script:
    """Shell code assembled from pieces of a file, line for line: the script's line ``n``
    is the file's line ``n``. Each piece keeps its offset in the file (a verbatim piece
    maps character for character; a substituted one maps to its source's start)."""

    def __init__(self, text: str) -> None:
        self.source = text
        self.lines: list[list[tuple[str, int, bool]]] = [[] for _ in text.split("\n")]
        self.starts = [0]
        for index, char in enumerate(text):
            if char == "\n":
                self.starts.append(index + 1)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def add(self, piece: str, at: int, *, verbatim: bool = True) -> None:
        self.lines[self.line_of(at)].append((piece, at, verbatim))

    def build(self) -> tuple[str, list[tuple[int, int, bool]]]:
        """The script, and its map: (offset in the script, offset in the file, verbatim)."""
        out: list[str] = []
        spans: list[tuple[int, int, bool]] = []
        at = 0
        for index, pieces in enumerate(self.lines):
            if index:
                out.append("\n")
                at += 1
            for piece, source, verbatim in pieces:
                spans.append((at, source, verbatim))
                out.append(piece)
                at += len(piece)
            spans.append((at, self.starts[index] if index < len(self.starts) else 0, False))
        return "".join(out), spans

    @property
    def empty(self) -> bool:
        return not any(self.lines)


def _mapper(spans: list[tuple[int, int, bool]]) -> tuple[list[int], list[tuple[int, int, bool]]]:
    return [s[0] for s in spans], spans


def _source_offset(keys: list[int], spans: list[tuple[int, int, bool]], offset: int) -> int:
    index = max(bisect_right(keys, offset) - 1, 0)
    script_at, source_at, verbatim = spans[index]
    return source_at + (offset - script_at) if verbatim else source_at


def _run_shell(script: _Script, kind: str, force: bool, note: str = "") -> tuple[list[Hit], bool]:
    """The shell analysis of ``script``, its hits at offsets in the file; whether it parsed."""
    if script.empty:
        return [], True
    code, spans = script.build()
    found = ANALYSE["script"]("sh", code, force)
    if found is None:
        return [], False
    keys, spans = _mapper(spans)
    hits: list[Hit] = []
    for hit in found[0]:
        start = _source_offset(keys, spans, hit.start)
        end = max(_source_offset(keys, spans, max(hit.end - 1, hit.start)) + 1, start)
        fields = hit.fields + ((("note", note),) if note else ())
        hits.append(Hit(hit.code, start, end, fields))
    del kind
    return hits, not found[1]


# --- GitHub Actions expressions ----------------------------------------------------------

_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_SECRET_REF = re.compile(r"^secrets\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*['\"]([A-Za-z_]\w*)['\"]\s*\])$")
_ENV_REF = re.compile(r"^env\s*\.\s*([A-Za-z_]\w*)$")
_WHOLE = re.compile(r"^to[Jj][Ss][Oo][Nn]\(\s*(secrets|env|vars)\s*\)$")


def _expression(inner: str) -> str:
    """A GitHub Actions expression as the shell word that stands for it."""
    match = _SECRET_REF.match(inner)
    if match:
        return "${" + (match.group(1) or match.group(2)) + "}"
    match = _ENV_REF.match(inner)
    if match:
        return "${" + match.group(1) + "}"
    if inner in ("github.token", "secrets.GITHUB_TOKEN"):
        return "${GITHUB_TOKEN}"
    whole = _WHOLE.match(inner)
    if whole and whole.group(1) in ("secrets", "env"):
        return "$(printenv)"
    return "expr"


def _add_substituted(  # noqa: PLR0917 - the piece and how it is rewritten
    script: _Script,
    text: str,
    start: int,
    end: int,
    subst: re.Pattern[str],
    replace: Callable[[re.Match[str]], str],
) -> None:
    """``text[start:end]`` into the script, each match of ``subst`` replaced."""
    at = start
    for match in subst.finditer(text, start, end):
        if match.start() > at:
            script.add(text[at : match.start()], at)
        script.add(replace(match), match.start(), verbatim=False)
        at = match.end()
    if at < end:
        script.add(text[at:end], at)


_RUN_KEY = re.compile(r"^([ \t]*)(?:-[ \t]+)?(run|script|command):[ \t]*(.*)$")
_ENV_ENTRY = re.compile(r"^([ \t]*)(?:-[ \t]+)?([A-Za-z_]\w*):[ \t]*(.*)$")
_ENV_KEY = re.compile(r"^([ \t]*)(?:-[ \t]+)?env:[ \t]*$")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    at = 0
    for line in text.split("\n"):
        yield at, line
        at += len(line) + 1


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _workflow_env(text: str) -> dict[str, str]:
    """The ``env:`` entries of a workflow whose value is an expression, as the shell
    word each stands for (``TOKEN: ${{ secrets.X }}`` -> ``${X}``), wherever they are
    set (a step's ``env:`` may follow its ``run:``)."""
    found: dict[str, str] = {}
    env_indent: int | None = None
    for _at, line in _lines(text):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if env_indent is not None and _indent(line) <= env_indent:
            env_indent = None
        if env_indent is not None:
            entry = _ENV_ENTRY.match(line)
            if entry and "${{" in entry.group(3):
                words = [_expression(m.group(1)) for m in _EXPRESSION.finditer(entry.group(3))]
                word = next((w for w in words if w != "expr"), None)
                if word is not None:
                    found[entry.group(2)] = word
            continue
        if _ENV_KEY.match(line):
            env_indent = _indent(line) if not line.lstrip().startswith("-") else _indent(line) + 2
    return found


def _run_word(
    env: dict[str, str],
) -> tuple[re.Pattern[str], Callable[[re.Match[str]], str]]:
    """What a ``run:`` block's text becomes: expressions replaced, and the variables the
    workflow's ``env:`` sets from expressions replaced by what they stand for."""
    names = "|".join(re.escape(name) for name in sorted(env, key=len, reverse=True))
    pattern = _EXPRESSION.pattern + (
        rf"|\$\{{(?P<braced>{names})\}}|\$(?P<bare>{names})(?!\w)" if names else ""
    )

    def replace(match: re.Match[str]) -> str:
        name = match.groupdict().get("braced") or match.groupdict().get("bare")
        if name:
            return env[name]
        return _expression(match.group(1))

    return re.compile(pattern), replace


_ALL_SECRETS = re.compile(r"\$\{\{[^}]*\bto[Jj][Ss][Oo][Nn]\(\s*secrets\s*\)[^}]*\}\}")


def _all_secrets(text: str) -> list[Hit]:
    """``${{ toJSON(secrets) }}``: every secret of the repository at once, written where
    the job's log (public for a public repository) or its commands can carry it."""
    hits: list[Hit] = []
    for match in _ALL_SECRETS.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line = text[line_start : len(text) if line_end < 0 else line_end]
        hits.append(
            Hit("SD1013", match.start(), match.end(),
                (("where", ""), ("secret", "every secret of the repository (`toJSON(secrets)`)"),
                 ("dest", "out of the workflow's protection (its commands and log)"),
                 ("command", shorten(line.strip()))))
        )  # fmt: skip
    return hits


def _workflow(text: str, script: _Script) -> None:
    subst, replace = _run_word(_workflow_env(text))
    lines = list(_lines(text))
    index = 0
    env_indent: int | None = None
    while index < len(lines):
        at, line = lines[index]
        index += 1
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if env_indent is not None and _indent(line) <= env_indent:
            env_indent = None
        if env_indent is not None:
            entry = _ENV_ENTRY.match(line)
            if entry and "${{" in entry.group(3):
                value = entry.group(3).strip().strip("'\"")
                value_at = text.find(value, at)
                name = entry.group(2)
                script.add(f'export {name}="', at, verbatim=False)
                _add_substituted(script, text, value_at, value_at + len(value), _EXPRESSION,
                                 lambda m: _expression(m.group(1)))  # fmt: skip
                script.add('"', value_at + len(value), verbatim=False)
            continue
        if _ENV_KEY.match(line):
            env_indent = _indent(line) if not line.lstrip().startswith("-") else _indent(line) + 2
            continue
        run = _RUN_KEY.match(line)
        if run is None or run.group(2) != "run":
            continue
        key_indent = len(run.group(1)) + ((line[len(run.group(1)) :].startswith("-") and 2) or 0)
        value = run.group(3)
        value_at = at + run.start(3)
        if value.startswith(("|", ">")):
            while index < len(lines):
                next_at, next_line = lines[index]
                if next_line.strip() and _indent(next_line) <= key_indent:
                    break
                index += 1
                if next_line.strip():
                    _add_substituted(script, text, next_at, next_at + len(next_line), subst,
                                     replace)  # fmt: skip
        else:
            value = value.rstrip()
            if len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]:
                value_at += 1
                value = value[1:-1]
            _add_substituted(script, text, value_at, value_at + len(value), subst, replace)


# --- Makefile, justfile, Dockerfile ------------------------------------------------------

_MAKE_VAR = re.compile(r"\$\$|\$\((shell\s+)?([^()]*)\)|\$\{([^{}]*)\}|\$[@<^?*%+|]")
_MAKE_ASSIGN = re.compile(
    r"^(?:export\s+|override\s+)?([A-Za-z_]\w*)\s*(?::{1,3}=|\?=|\+=|=)\s*(.*)$"
)


def _make_word(match: re.Match[str]) -> str:
    whole = match.group(0)
    if whole == "$$":
        return "$"
    if match.group(1):  # $(shell cmd)
        return "$(" + match.group(2) + ")"
    name = match.group(2) if match.group(2) is not None else match.group(3)
    if name is not None and re.fullmatch(r"[A-Za-z_]\w*", name.strip()):
        return "${" + name.strip() + "}"
    return "x"


def _make(text: str, script: _Script) -> None:
    in_recipe = False
    for at, line in _lines(text):
        if line.startswith("\t") and in_recipe:
            body = 1
            while body < len(line) and line[body] in "@-+ \t":
                body += 1
            _add_substituted(script, text, at + body, at + len(line), _MAKE_VAR, _make_word)
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        assign = _MAKE_ASSIGN.match(line)
        if assign and "'" not in assign.group(2) and not line.startswith("\t"):
            in_recipe = False
            value_at = at + assign.start(2)
            script.add(f"{assign.group(1)}='", at, verbatim=False)
            _add_substituted(script, text, value_at, at + len(line.rstrip()), _MAKE_VAR, _make_word)
            script.add("'", at + len(line), verbatim=False)
            continue
        if re.match(r"^[^\s:=#][^:=]*::?(?!=)", line):
            in_recipe = True
            rule_body = re.match(r"^[^:]*::?[^;]*;(.*)$", line)
            if rule_body:
                _add_substituted(script, text, at + rule_body.start(1), at + len(line), _MAKE_VAR,
                                 _make_word)  # fmt: skip
        elif not line.startswith("\t"):
            in_recipe = False


_JUST_VAR = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}|\{\{[^}]*\}\}")


def _just_word(match: re.Match[str]) -> str:
    return "${" + match.group(1) + "}" if match.group(1) else "x"


def _just(text: str, script: _Script) -> None:
    in_recipe = False
    for at, line in _lines(text):
        if not line.strip():
            continue
        if line[0] in " \t":
            if in_recipe and not line.strip().startswith("#"):
                body = _indent(line)
                while body < len(line) and line[body] in "@-":
                    body += 1
                _add_substituted(script, text, at + body, at + len(line), _JUST_VAR,
                                 _just_word)  # fmt: skip
            continue
        assign = re.match(r"^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(['\"])(.*)\2\s*$", line)
        if assign:
            in_recipe = False
            script.add(f"{assign.group(1).replace('-', '_')}='{assign.group(3)}'", at,
                       verbatim=False)  # fmt: skip
            continue
        in_recipe = bool(re.match(r"^@?[A-Za-z_][\w-]*[^:]*:(?!=)", line)) and not line.startswith(
            ("set ", "alias ", "#")
        )


_DOCKER_LINE = re.compile(r"^[ \t]*(RUN|ENV|ARG)[ \t]+(.*)$", re.IGNORECASE)


def _docker(text: str, script: _Script) -> None:
    lines = list(_lines(text))
    index = 0
    while index < len(lines):
        at, line = lines[index]
        index += 1
        match = _DOCKER_LINE.match(line)
        if match is None:
            continue
        word = match.group(1).upper()
        body_at = at + match.start(2)
        body = match.group(2)
        if word in ("ENV", "ARG"):
            pair = re.match(r"([A-Za-z_]\w*)(?:=|\s+)(\S.*)?$", body)
            if pair and pair.group(2) and "'" not in pair.group(2):
                value = pair.group(2).strip().strip('"')
                script.add(f"{pair.group(1)}='{value}'", at, verbatim=False)
            continue
        while True:
            flags = re.match(r"(?:--\S+\s+)*", body)
            skip = flags.end() if flags else 0
            if body.lstrip().startswith("["):
                try:
                    argv = json.loads(body.strip().rstrip("\\"))
                except ValueError:
                    argv = None
                if isinstance(argv, list) and all(isinstance(a, str) for a in argv):
                    if argv[:2] in (
                        ["sh", "-c"],
                        ["/bin/sh", "-c"],
                        ["bash", "-c"],
                        ["/bin/bash", "-c"],
                    ):
                        code = " ".join(argv[2:])
                    else:
                        code = " ".join(_quote(a) for a in argv)
                    script.add(code, body_at, verbatim=False)
                break
            script.add(body[skip:], body_at + skip)
            if not body.rstrip().endswith("\\") or index >= len(lines):
                break
            at, line = lines[index]
            index += 1
            body, body_at = line, at


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


# --- JSON files: VS Code tasks, agent configs ----------------------------------------------

_JSONC_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.DOTALL)


def _jsonc(text: str) -> object:
    """A JSON-with-comments document (comments and trailing commas allowed), or ``None``."""

    def keep(match: re.Match[str]) -> str:
        token = match.group(0)
        return (
            token
            if token.startswith('"')
            else " " * len(token.replace("\n", "")) + ("\n" * token.count("\n"))
        )

    try:
        return json.loads(_JSONC_TOKEN.sub(keep, text))
    except ValueError:
        return None


def _string_at(text: str, value: str, after: int = 0) -> int:
    """Where the JSON string ``value`` is spelled in ``text`` (its first character inside
    the quotes), from ``after`` on; else at ``after``."""
    spelled = json.dumps(value)[1:-1]
    at = text.find(spelled, after)
    if at < 0:
        at = text.find(spelled)
    return at if at >= 0 else after


def _command_line(task: dict[str, object]) -> str | None:
    command = task.get("command")
    if isinstance(command, dict):
        command = command.get("value")
    if isinstance(command, list):
        command = " ".join(str(part) for part in command)
    if not isinstance(command, str) or not command.strip():
        return None
    args = task.get("args")
    words = [command]
    if isinstance(args, list):
        for item in args:
            arg = item.get("value") if isinstance(item, dict) else item
            if isinstance(arg, str):
                words.append(_quote(arg) if task.get("type") == "process" else arg)
    return " ".join(words)


def _one_command(
    text: str, command: str, at: int, force: bool, note: str
) -> tuple[list[Hit], bool]:
    found = ANALYSE["script"]("sh", command, force)
    if found is None:
        return [], False
    end = at + len(json.dumps(command.split(" ", 1)[0])) - 2
    hits = [Hit(h.code, at, max(end, at + 1), (*h.fields, ("note", note))) for h in found[0]]
    return hits, not found[1]


def _vscode(text: str, forced: bool) -> tuple[list[Hit], list[tuple[int, int]]]:
    document = _jsonc(text)
    tasks = document.get("tasks") if isinstance(document, dict) else None
    if not isinstance(tasks, list):
        return [], []
    hits: list[Hit] = []
    parsed: list[tuple[int, int]] = []
    after = 0
    for task in tasks:
        if not isinstance(task, dict):
            continue
        options = task.get("runOptions")
        on_open = isinstance(options, dict) and options.get("runOn") == "folderOpen"
        label = str(task.get("label", "")) or "a task"
        for variant in (task, *(task.get(o) for o in ("windows", "linux", "osx"))):
            if not isinstance(variant, dict):
                continue
            merged = {**task, **variant} if variant is not task else task
            line = _command_line(merged)
            if line is None:
                continue
            raw = merged.get("command")
            at = _string_at(text, raw if isinstance(raw, str) else line.split(" ", 1)[0], after)
            after = at
            when = ", run when the folder is opened" if on_open else ""
            note = f" (the VS Code task `{shorten(label, 40)}`{when})"
            found, ok = _one_command(text, line, at, forced, note)
            hits += found
            if ok:
                parsed.append((at, at + len(line)))
            if on_open and variant is task:
                hits.append(
                    Hit(
                        "SD1050",
                        at,
                        at + max(len(json.dumps(raw)) - 2, 1) if isinstance(raw, str) else at + 1,
                        (
                            ("where", ""),
                            ("runs", shorten(line, 80)),
                            ("when", "when the folder is opened in VS Code (`runOn: folderOpen`)"),
                        ),
                    )
                )
    return hits, parsed


_MODEL_URLS = (
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_API_URL",
    "OPENAI_BASE_URL",
    "OPENAI_API_BASE",
    "CLAUDE_CODE_API_BASE_URL",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
)
_MODEL_HOSTS = ("anthropic.com", "openai.com", "openai.azure.com", "amazonaws.com",
                "googleapis.com", "azure.com")  # fmt: skip
_LOCAL = re.compile(
    r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)$"
)
_RUNNERS = ("npx", "bunx", "uvx", "pnpx")


def _agent(text: str, forced: bool) -> tuple[list[Hit], list[tuple[int, int]]]:
    document = _jsonc(text)
    if not isinstance(document, dict):
        return [], []
    hits: list[Hit] = []
    parsed: list[tuple[int, int]] = []
    hooks = document.get("hooks")
    if isinstance(hooks, dict):
        for event, matchers in hooks.items():
            for matcher in matchers if isinstance(matchers, list) else ():
                inner = matcher.get("hooks") if isinstance(matcher, dict) else None
                for hook in inner if isinstance(inner, list) else ():
                    command = hook.get("command") if isinstance(hook, dict) else None
                    if not isinstance(command, str):
                        continue
                    at = _string_at(text, command)
                    note = f" (a `{shorten(str(event), 30)}` hook the agent runs by itself)"
                    found, ok = _one_command(text, command, at, forced, note)
                    hits += found
                    if ok:
                        parsed.append((at, at + len(command)))
    env = document.get("env")
    if isinstance(env, dict):
        for name, value in env.items():
            if name.upper() not in _MODEL_URLS or not isinstance(value, str):
                continue
            host = url_host(value)
            if host is None or _LOCAL.match(host):
                continue
            if any(host == h or host.endswith("." + h) for h in _MODEL_HOSTS):
                continue
            at = _string_at(text, value)
            what = (
                f"sends the agent's model traffic (every prompt, file read and the API key) "
                f"to `{host}` (`{name}`)"
            )
            hits.append(Hit("SD1052", at, at + len(value), (("where", ""), ("what", what))))
    if document.get("enableAllProjectMcpServers") is True:
        at = text.find("enableAllProjectMcpServers")
        hits.append(
            Hit("SD1014", at, at + len("enableAllProjectMcpServers"),
                (("where", ""), ("command", "enableAllProjectMcpServers: true")))
        )  # fmt: skip
    permissions = document.get("permissions")
    allow = permissions.get("allow") if isinstance(permissions, dict) else None
    for rule_text in allow if isinstance(allow, list) else ():
        if rule_text in ("Bash", "Bash(*)", "Bash(*:*)", "*"):
            at = _string_at(text, rule_text, text.find('"allow"'))
            hits.append(
                Hit("SD1014", at, at + len(rule_text),
                    (("where", ""), ("command", f"permissions.allow: {rule_text}")))
            )  # fmt: skip
    servers = document.get("mcpServers") or document.get("servers")
    if isinstance(servers, dict):
        for name, server in servers.items():
            if isinstance(server, dict):
                hits += _mcp_server(text, str(name), server, forced, parsed)
    return hits, parsed


def _mcp_server(text: str, name: str, server: dict[str, object], forced: bool,
                parsed: list[tuple[int, int]]) -> list[Hit]:  # fmt: skip
    hits: list[Hit] = []
    command = server.get("command")
    args = [a for a in server.get("args") or () if isinstance(a, str)]  # type: ignore[attr-defined]
    url = server.get("url")
    env = server.get("env") if isinstance(server.get("env"), dict) else {}
    assert isinstance(env, dict)
    secrets = [k for k, v in env.items() if isinstance(v, str) and v and token_label(str(k), 0)]
    if isinstance(command, str):
        line = " ".join([command, *(_quote(a) if " " in a else a for a in args)])
        at = _string_at(text, command, max(text.find(json.dumps(name)), 0))
        note = f" (the MCP server `{shorten(name, 30)}`)"
        found, ok = _one_command(text, line, at, forced, note)
        hits += found
        if ok:
            parsed.append((at, at + len(command)))
        program = command.rsplit("/", 1)[-1].lower()
        package = next((a for a in args if not a.startswith("-")), None)
        if program in ("npm", "pnpm") and args[:1] in (["exec"], ["dlx"]):
            package = next((a for a in args[1:] if not a.startswith("-")), None)
            program = "npx"
        # `npx -y @modelcontextprotocol/server-github` with a token is how the servers' own
        # READMEs configure them: only an explicit `@latest` is reported
        if program in _RUNNERS and package is not None and package.endswith(("@latest", "@next")):
            with_tokens = f", with {', '.join(f'`{s}`' for s in secrets[:3])}" if secrets else ""
            what = (
                f"runs the MCP server `{shorten(package, 60)}` unpinned (`{program}` fetches "
                f"whatever is published next{with_tokens})"
            )
            pkg_at = _string_at(text, package, at)
            hits.append(
                Hit("SD1052", pkg_at, pkg_at + len(package), (("where", ""), ("what", what)))
            )
    if isinstance(url, str):
        host = url_host(url)
        if host is not None and collector(host, url):
            at = _string_at(text, url)
            what = (
                f"connects the agent to the MCP server at `{host}`, a request collector or tunnel"
            )
            hits.append(Hit("SD1052", at, at + len(url), (("where", ""), ("what", what))))
    return hits


# --- package-manager configs ---------------------------------------------------------------

_OFFICIAL_REGISTRIES = (
    "registry.npmjs.org",
    "registry.npmjs.com",
    "registry.yarnpkg.com",
    "npm.pkg.github.com",
    "pypi.org",
    "pypi.python.org",
    "files.pythonhosted.org",
    "upload.pypi.org",
    "test.pypi.org",
)
_REGISTRY_KEY = re.compile(
    r"^[ \t]*(?:@[\w.-]+:)?(registry|index-url|extra-index-url|index_url|extra_index_url|"
    r"repository|npmRegistryServer|url|trusted-host)[ \t]*[=:][ \t]*[\"']?([^\s\"'#]+)",
    re.IGNORECASE | re.MULTILINE,
)
_AUTH_LINE = re.compile(
    r"^[ \t]*(?://(?P<host>[^/\s:]+)[^\s=]*:)?(?P<key>_authToken|_auth|_password|password|"
    r"npmAuthToken|token)[ \t]*[=:][ \t]*[\"']?(?P<value>[^\s\"'#]+)",
    re.IGNORECASE | re.MULTILINE,
)
_ENV_VAR = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


def _official(host: str) -> bool:
    return any(host == h or host.endswith("." + h) for h in _OFFICIAL_REGISTRIES)


def _registry(text: str) -> list[Hit]:
    hits: list[Hit] = []
    hosts: list[str] = []
    for match in _REGISTRY_KEY.finditer(text):
        value = match.group(2)
        host = (
            url_host(value) if "//" in value or match.group(1).lower() == "trusted-host" else None
        )
        if match.group(1).lower() == "trusted-host":
            host = value.lower()
        if host is None or _LOCAL.match(host) or _official(host):
            continue
        hosts.append(host)
        what = f"re-points package installs to `{host}` (`{shorten(match.group(0).strip(), 60)}`)"
        hits.append(Hit("SD1051", match.start(2), match.end(2), (("where", ""), ("what", what))))
        user = re.match(r"^[a-z]+://([^/@\s]+)@", value)
        if user and _ENV_VAR.search(user.group(1)):
            name = _ENV_VAR.search(user.group(1)).group(1)  # type: ignore[union-attr]
            hits.append(_token_hit(match.start(2), match.end(2), name, host, match.group(0)))
    for match in _AUTH_LINE.finditer(text):
        host = (match.group("host") or "").lower() or (hosts[0] if hosts else None)
        variable = _ENV_VAR.search(match.group("value"))
        if host is None or _official(host) or _LOCAL.match(host) or variable is None:
            continue
        hits.append(
            _token_hit(match.start("value"), match.end("value"), variable.group(1), host,
                       match.group(0))
        )  # fmt: skip
    return hits


def _token_hit(start: int, end: int, name: str, host: str, line: str) -> Hit:
    label = token_label(name, 0)
    secret = label.what if label is not None else f"${name}"
    return Hit(
        "SD1013",
        start,
        end,
        (("where", ""), ("secret", secret), ("dest", f"into the registry config for `{host}`"),
         ("command", shorten(line.strip()))),
    )  # fmt: skip


# --- .pth ------------------------------------------------------------------------------------


#: What makes a ``.pth`` line more than imports and an install hook (setuptools'
#: ``distutils-precedence.pth``, an editable install's finder): it runs commands, code or
#: data from elsewhere.
_PTH_RUNS = re.compile(
    r"\b(?:exec|eval|compile|system|popen|subprocess|spawn\w*|urlopen|urllib|requests|http\w*|"
    r"socket|b64decode|base64|codecs|marshal|pickle|zlib|fromhex|getattr|chr|startfile)\b"
)


def _pth(text: str, forced: bool) -> tuple[list[Hit], list[tuple[int, int]]]:
    pieces: list[str] = []
    first: tuple[int, str] | None = None
    for at, line in _lines(text):
        if line.startswith(("import ", "import\t")):
            pieces.append(line)
            if first is None and _PTH_RUNS.search(line):
                first = (at, line)
        else:
            pieces.append(" " * len(line))
    if not any(pieces_line.strip() for pieces_line in pieces):
        return [], []
    code = "\n".join(pieces)
    # one line of a .pth is one statement: `import x; exec(...)` is how they run code
    found = ANALYSE["script"]("python", code, True)
    hits = list(found[0]) if found is not None else []
    if first is None:  # imports and an install hook (setuptools, editable installs)
        return hits, [(0, len(text))] if found is not None and not found[1] else []
    at, line = first
    hits.append(
        Hit("SD1050", at, at + len(line),
            (("where", ""), ("runs", shorten(line, 80)),
             ("when", "at every start-up of the Python it is installed in (a `.pth` line "
                      "that starts with `import`)")))
    )  # fmt: skip
    return hits, [(0, len(text))] if found is not None and not found[1] else []


# --- the entry point ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConfigAnalysis:
    """The hits of a config file (offsets into it) and the ranges its parse judged."""

    hits: tuple[Hit, ...]
    parsed: tuple[tuple[int, int], ...]


def config_hits(kind: str, text: str, *, force: bool = False) -> ConfigAnalysis:
    """What the file of ``kind`` (:func:`config_kind`) with ``text`` runs or trusts."""
    if kind in ("workflow", "make", "just", "docker"):
        script = _Script(text)
        {"workflow": _workflow, "make": _make, "just": _just, "docker": _docker}[kind](text, script)
        hits, ok = _run_shell(script, kind, force)
        if kind == "workflow" and "secrets" in text:
            lines = {script.line_of(h.start) for h in hits if h.code == "SD1013"}
            hits += (h for h in _all_secrets(text) if script.line_of(h.start) not in lines)
        return ConfigAnalysis(tuple(hits), ((0, len(text)),) if ok and not script.empty else ())
    if kind == "vscode":
        found, parsed = _vscode(text, force)
        return ConfigAnalysis(tuple(found), tuple(parsed))
    if kind == "agent":
        found, parsed = _agent(text, force)
        return ConfigAnalysis(tuple(found), tuple(parsed))
    if kind == "pth":
        found, parsed = _pth(text, force)
        return ConfigAnalysis(tuple(found), tuple(parsed))
    if kind == "registry":
        return ConfigAnalysis(tuple(_registry(text)), ())
    return ConfigAnalysis((), ())
