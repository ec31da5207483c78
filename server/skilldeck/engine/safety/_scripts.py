"""Scripts parsed, not grepped: which analyser reads a file or a code block, and how its
findings replace the line patterns' (SD1011-SD1014, SD1025-SD1028).

A bundle file is a script by its name (``.sh``, ``.py``, ``.js``, ``.ps1``, ...; a file
without an extension by its ``#!`` line), ``package.json`` by its lifecycle scripts
(``preinstall``, ``install``, ``postinstall``, ``prepare``, ... run as shell), a
Markdown file (``SKILL.md`` included) by its fenced code blocks, each by its info string
or, without one, by what its first line looks like. Each analyser parses the code
(:mod:`~skilldeck.engine.safety._shell`, :mod:`~skilldeck.engine.safety._python`,
:mod:`~skilldeck.engine.safety._javascript`, :mod:`~skilldeck.engine.safety._powershell`)
and follows its data (:mod:`~skilldeck.engine.safety._flow`).

Where a parse succeeds, its findings of SD1011-SD1014 stand for the line patterns'
there (a command quoted inside a string is not a command). Where it fails, or for a
language without a parser (TypeScript, Ruby, a Dockerfile), the patterns stay, and any
finding the analysis still made is added: a parse error never hides what the patterns
find. Code is parsed only when it holds one of the words an analysis can report on
(one Aho-Corasick pass, :class:`~skilldeck.engine.safety._hits.Gate`), and each
analysis is memoised by the code's text, so a keystroke re-reads one block.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from skilldeck.engine.safety._configs import config_hits, config_kind
from skilldeck.engine.safety._flow import ANALYSE, ISSUER_NAMES, NESTED
from skilldeck.engine.safety._hits import Gate, Hit, folded, present_marks
from skilldeck.engine.safety._javascript import javascript_hits
from skilldeck.engine.safety._powershell import powershell_hits
from skilldeck.engine.safety._python import python_hits
from skilldeck.engine.safety._ruby import ruby_hits
from skilldeck.engine.safety._shell import shell_hits

#: The rules an analysis judges where its parse succeeds (the patterns' are dropped there).
STRUCTURAL = frozenset({"SD1011", "SD1012", "SD1013", "SD1014"})

#: An analyser: ``(text, start, end) -> (hits, offsets of its parse errors)``.
Analyser = Callable[[str, int, int], tuple[list[Hit], tuple[int, ...]]]
_ANALYSERS: dict[str, Analyser] = {
    "sh": shell_hits,
    "python": python_hits,
    "javascript": javascript_hits,
    "powershell": powershell_hits,
    "ruby": ruby_hits,
}


def _nested(language: str) -> Callable[[str, int], list[Hit]]:
    analyser = _ANALYSERS[language]

    def nested(code: str, depth: int) -> list[Hit]:
        del depth
        if len(code) < 50_000:
            return list(_cached(language, code)[0])
        return analyser(code, 0, len(code))[0]

    return nested


for _language in ("python", "javascript", "powershell", "ruby"):
    NESTED[_language] = _nested(_language)
for _alias, _language in (
    ("python3", "python"),
    ("python2", "python"),
    ("node", "javascript"),
    ("nodejs", "javascript"),
    ("pwsh", "powershell"),
    ("powershell.exe", "powershell"),
    ("pwsh.exe", "powershell"),
    ("ruby", "ruby"),
):
    NESTED[_alias] = NESTED[_language]

#: What an analysis can report on, as pairs of gates (a source and a sink; something
#: downloaded or decoded and something that runs code; ...): code that opens none is
#: not parsed. Every gate's words are found in one Aho-Corasick pass over the code.
#: Where a secret comes from that is exfiltration wherever it goes: credential files,
#: the environment as a whole, browser stores, stored-secret commands, and the tokens
#: whose issuer is known (sent elsewhere, they are exfiltration).
_SOURCES = (
    ".ssh",
    ".aws",
    ".env",
    ".netrc",
    "_netrc",
    ".npmrc",
    ".pypirc",
    ".yarnrc",
    ".docker",
    ".kube",
    "gcloud",
    ".azure",
    ".gnupg",
    "keychain",
    "keyring",
    "find-generic",
    "secret-tool",
    "password-store",
    ".vault-token",
    "credentials",
    "/etc/shadow",
    "getenvironmentvariables",
    "printenv",
    "env |",
    "env|",
    "(env)",
    "`env`",
    "env >",
    "env>",
    "export -p",
    "declare -p",
    "declare -x",
    "compgen",
    "set |",
    "cookies",
    "env.to_h",
    "env.to_a",
    "env.each",
    "env.inspect",
    "env.map",
    "env.select",
    "env.to_s",
    "exodus",
    "electrum",
    "solana",
    "wallet",
    "keystore",
    "metamask",
    "nkbihfbeogaeaoehlefnkodbefgpgknn",
    "login data",
    "logins.json",
    "key4.db",
    "key3.db",
    "web data",
    "local state",
    "gh auth",
    "git credential",
    "print-access-token",
    "get-access-token",
    "config view",
    "git diff",
    "hosts.yml",
    "storedcredential",
    "passwordvault",
    "cmdkey",
    "secret_access_key",
    "session_token",
    "client_secret",
    *(name.lower() for name in ISSUER_NAMES),
)
#: Any secret-looking name (its issuer unknown: judged only where it goes to a request
#: collector, a DNS name or a registry config).
_TOKEN_WORDS = ("token", "_key", "apikey", "secret", "password", "passwd", "auth")
_NOWHERE = (
    "webhook.site",
    "requestbin",
    "pipedream",
    "ngrok",
    "interact.sh",
    "oast.",
    "burpcollab",
    "pastebin",
    "transfer.sh",
    "hookbin",
    "requestcatcher",
    "beeceptor",
    "canarytoken",
    "dnslog",
    "ceye.io",
    "trycloudflare",
    "serveo",
    "localtunnel",
    "loca.lt",
    "webhooks",
    "api.telegram",
    "npm config",
    "pip config",
    "yarn config",
    "index-url",
    "authtoken",
    "registry=",
    "registry ",
)
_SINKS = (
    "curl",
    "wget",
    "nc ",
    "ncat",
    "netcat",
    "socat",
    "telnet",
    "/dev/tcp",
    "/dev/udp",
    "scp ",
    "rsync",
    "sftp",
    "requests",
    "httpx",
    "urllib",
    "urlopen",
    "http.client",
    "aiohttp",
    "socket",
    "smtp",
    "ftp",
    "fetch",
    "axios",
    "got(",
    "xmlhttprequest",
    "sendbeacon",
    "websocket",
    "net.connect",
    "createconnection",
    "https.request",
    "http.request",
    "https.get",
    "http.get",
    "invoke-webrequest",
    "invoke-restmethod",
    "iwr",
    "irm",
    "upload",
    "send-mailmessage",
    " mail ",
    "sendmail",
    "dig ",
    "nslookup",
    "resolve-dnsname",
    "gethostbyname",
    "getaddrinfo",
    "dns.",
    "npm config",
    "pip config",
    "yarn config",
    "index-url",
    "registry",
    "authtoken",
    "aws s3",
    "gsutil",
    "rclone",
    "openssl s_client",
    "net::http",
    "httparty",
    "restclient",
    "faraday",
    "uri.open",
    "tcpsocket",
    "git push",
    "gh gist",
    "gh api",
    "gh issue",
    "gh pr",
    "gh release",
)
_FETCHED = (
    "curl",
    "wget",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
    "downloadstring",
    "downloaddata",
    "downloadfile",
    "start-bitstransfer",
    "urlretrieve",
    "urlopen",
    "requests",
    "httpx",
    "fetch",
    "axios",
    "http.get",
    "https.get",
    "base64",
    "b64decode",
    "atob",
    "frombase64",
    "fromhex",
    "unhexlify",
    "xxd",
    "decompress",
    "fromcharcode",
    "chr(",
    "map(chr",
    "[char",
    "bytes([",
    "bytearray([",
    "marshal",
    "pickle",
    "codecs",
    "\\x",
    "-enc",
    "powershell -e",
    "pwsh -e",
    "powershell.exe -e",
    " -ec ",
    " -en ",
    " -e ",
    "encodedcommand",
    "unescape",
    "uudecode",
    "rot13",
    "n-za-m",
    "openssl enc",
    "/dev/tcp",
    "nc ",
    "telnet",
)
#: What downloads (a skill's own file written from one is SD1053).
_DOWNLOADS = (
    "curl", "wget", "iwr", "invoke-webrequest", "irm", "invoke-restmethod", "urlretrieve",
    "urlopen", "requests", "httpx", "fetch", "axios", "downloadfile",
)  # fmt: skip
#: What runs code, by language (a download or a decoded payload must reach one).
_RUNNERS = {
    "sh": (
        "| sh",
        "|sh",
        "| bash",
        "|bash",
        "| zsh",
        "sh -",
        "bash",
        "sudo",
        "/sh",
        "/bash",
        "/zsh",
        "/dash",
        "| /",
        "|/",
        "bash ",
        "sh <",
        "zsh ",
        "eval",
        "source ",
        ". /",
        ". ~",
        ". $",
        ". ./",
        "./",
        "/tmp/",
        "chmod",
        "python",
        "node ",
        "perl",
        "ruby",
        "exec",
        "pwsh",
        "powershell",
        "iex",
        "invoke-expression",
        "crontab",
        "dash ",
        "ksh ",
    ),
    "python": (
        "exec(",
        "eval(",
        "compile(",
        "system(",
        "popen",
        "subprocess",
        "spawn",
        "run_path",
        "__import__",
        "pty",
        "import_module",
        "pickle.load",
        "marshal.load",
        "yaml.load",
        "unsafe_load",
        "torch.load",
        "joblib.load",
        "dill.load",
        "cloudpickle",
        "jsonpickle",
        "read_pickle",
    ),
    "javascript": (
        "eval",
        "function(a",
        "function(b",
        "new function",
        "vm.",
        "child_process",
        "execsync",
        "exec(",
        "spawn",
        'settimeout("',
        "settimeout('",
        "require(",
    ),
    "ruby": (
        "eval",
        "system",
        "exec",
        "spawn",
        "popen",
        "open3",
        "`",
        "%x",
        "load",
        "require",
        "file.write",
        "file.open",
    ),
    "powershell": (
        "iex",
        "invoke-expression",
        "scriptblock",
        "start-process",
        "& ",
        ". ",
        "invokescript",
        "invoke-command",
        "powershell",
        "pwsh",
        "cmd",
    ),
}
#: What a reverse shell is made of, by language (with what runs a shell, where needed).
_REVERSE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "sh": (
        (
            "/dev/tcp",
            "/dev/udp",
            "nc -",
            " nc ",
            "|nc ",
            "\nnc ",
            "ncat",
            "netcat",
            "socat",
            "telnet",
            "mkfifo",
        ),
        (),
    ),
    "python": (("dup2", "fileno()"), ("socket",)),
    "javascript": (
        ("net.socket", "net.connect", "createconnection", "tls.connect"),
        ("spawn", "exec"),
    ),
    "powershell": (("tcpclient",), ()),
    "ruby": (("tcpsocket",), ("sh", "cmd.exe")),
}
#: DNS lookups by language, with what makes a name computed.
_DNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "sh": (
        ("dig ", "nslookup", "host ", "drill ", "ping ", "resolvectl", "getent "),
        ("$(", "${", "`", "$"),
    ),
    "python": (("gethostbyname", "getaddrinfo", "dns.resolver"), ('f"', "f'", "+", "%", "format")),
    "javascript": (("dns.", "dns/promises", "lookup("), ("`", "+")),
    "powershell": (("resolve-dnsname", "nslookup", "ping ", "test-connection"), ("$",)),
    "ruby": (("resolv",), ("#{",)),
}
_PERSIST = (
    "crontab",
    "/cron",
    "bashrc",
    "zshrc",
    "zprofile",
    "zshenv",
    "bash_profile",
    ".profile",
    "$profile",
    "profile.ps1",
    "/etc/profile",
    "authorized_keys",
    "hooks/",
    ".husky",
    "launchagents",
    "launchdaemons",
    "systemd",
    "autostart",
    "currentversion\\run",
    "scheduledtask",
    "schtasks",
    "config.fish",
    ".pth",
    "sitecustomize",
    "usercustomize",
    "mcp.json",
    "claude_desktop_config",
    "mcp_config",
    ".claude.json",
    "claude.md",
    "agents.md",
    "gemini.md",
    ".claude/",
    ".cursorrules",
    ".cursor/rules",
    ".windsurfrules",
    "copilot-instructions",
    ".clinerules",
    "pip.conf",
    "pip.ini",
    ".npmrc",
    ".yarnrc",
    ".pypirc",
)
_SAFEGUARD = (
    "autoapprove",
    "autoaccept",
    "alwaysallow",
    "yes-always",
    "danger-full-access",
    "gemini",
    "yolo",
    "trust-all-tools",
    "allow-all-tools",
    "enableallprojectmcpservers",
    "bypass",
    "dangerously",
    "defaultmode",
    "permission_mode",
    "permissionmode",
    "approval_policy",
    "sandbox_mode",
)
_GATES = {
    language: (
        Gate(_SOURCES, also=_SINKS),
        Gate(_NOWHERE, also=_TOKEN_WORDS),
        Gate(_FETCHED, also=runners),
        Gate(_REVERSE[language][0], also=_REVERSE[language][1]),
        Gate(_PERSIST),
        Gate(("skill.md", "/skills/"), also=_DOWNLOADS),
        Gate(_SAFEGUARD),
        Gate(_DNS[language][0], also=_DNS[language][1]),
    )
    for language, runners in _RUNNERS.items()
}


#: Every word of the shell gates: a shell block without one is left out of its
#: document's script.
_ANY_SHELL_WORD = Gate(
    tuple(dict.fromkeys(mark for gate in _GATES["sh"] for mark in (*gate.marks, *gate.also)))
)

#: The environment read as a whole (``os.environ`` or ``process.env`` not followed by a
#: variable's name: ``os.environ.get("X")`` is one token, named by its own gate).
_WHOLE_ENV = re.compile(
    r"os\.environ(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b))|process\.env(?!\s*[.\[])"
    r"|(?:gci|get-childitem|ls|dir|get-item)\s+env:|\benviron\b(?!\s*[\[.])",
    re.IGNORECASE,
)
_SINK_GATE = Gate(_SINKS)


def gate_opens(language: str, code: str) -> bool:
    """Whether ``code`` holds the words of a pair of gates (else nothing to report)."""
    present = present_marks(folded(code))
    if any(gate.opens(present) for gate in _GATES[language]):
        return True
    return _SINK_GATE.opens(present) and _WHOLE_ENV.search(code) is not None


def _analyse(language: str, code: str) -> tuple[tuple[Hit, ...], tuple[int, ...]]:
    analyser = _ANALYSERS[language]
    try:
        hits, errors = analyser(code, 0, len(code))
    except RecursionError:
        return (), (0,)
    return tuple(hits), errors


class _Memo:
    """A bounded memo of results by text: looked up by the text's hash and confirmed by
    comparing the text (so a lookup hashes the text once and a hit compares it once)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[int, int], tuple[str, object]] = OrderedDict()

    def get(self, key: str) -> object | None:
        slot = (hash(key), len(key))
        found = self.entries.get(slot)
        if found is None or found[0] != key:
            return None
        self.entries.move_to_end(slot)
        return found[1]

    def put(self, key: str, value: object) -> None:
        self.entries[(hash(key), len(key))] = (key, value)
        if len(self.entries) > self.size:
            self.entries.popitem(last=False)

    def cache_clear(self) -> None:
        self.entries.clear()


_analyses = _Memo(2048)


def script_hits(
    language: str, code: str, *, force: bool = False
) -> tuple[tuple[Hit, ...], tuple[int, ...]] | None:
    """The analysis of ``code`` in ``language`` (hits with offsets into ``code``, parse
    errors), or ``None`` when its gate keeps it closed (nothing it could report).
    ``force``: a line pattern fired in this code, so the parse decides (the command it
    matched may be a string). Both answers are memoised by the code."""
    if language not in _ANALYSERS:
        return None
    if len(code) > 64 * 1024:
        return _analyse(language, code) if force or gate_opens(language, code) else None
    key = f"{language}\0{code}"
    found = _analyses.get(key)
    if found is _CLOSED and not force:
        return None
    if found is None or found is _CLOSED:
        if not force and not gate_opens(language, code):
            _analyses.put(key, _CLOSED)
            return None
        found = _analyse(language, code)
        _analyses.put(key, found)
    return found  # type: ignore[return-value]


def _cached(language: str, code: str) -> tuple[tuple[Hit, ...], tuple[int, ...]]:
    """The analysis of code some code runs (``python3 -c '...'``): no gate."""
    found = script_hits(language, code, force=True)
    assert found is not None
    return found


def _analyse_hook(
    language: str, code: str, force: bool
) -> tuple[tuple[Hit, ...], tuple[int, ...]] | None:
    return script_hits(language, code, force=force)


ANALYSE["script"] = _analyse_hook

#: What the memo holds for code whose gates stayed closed.
_CLOSED = object()
_words = _Memo(2048)


def _holds_shell_words(code: str) -> bool:
    """Whether a shell block holds any word of the shell gates (memoised by its code)."""
    found = _words.get(code)
    if found is None:
        found = _ANY_SHELL_WORD.opens(present_marks(folded(code)))
        _words.put(code, found)
    return bool(found)


# --- what a file or a block is -----------------------------------------------------------

_EXTENSIONS = {
    "sh": "sh",
    "bash": "sh",
    "zsh": "sh",
    "ksh": "sh",
    "command": "sh",
    "bats": "sh",
    "py": "python",
    "pyw": "python",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "jsx": "javascript",
    "ps1": "powershell",
    "psm1": "powershell",
    "rb": "ruby",
    "rake": "ruby",
    "gemspec": "ruby",
}
_INFO = {
    "sh": "sh",
    "bash": "sh",
    "shell": "sh",
    "zsh": "sh",
    "ksh": "sh",
    "console": "console",
    "terminal": "console",
    "shell-session": "console",
    "shellsession": "console",
    "sh-session": "console",
    "python": "python",
    "py": "python",
    "python3": "python",
    "py3": "python",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
    "jsx": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "powershell": "powershell",
    "ps1": "powershell",
    "pwsh": "powershell",
    "ps": "powershell",
    "posh": "powershell",
    "ruby": "ruby",
    "rb": "ruby",
}
_SHEBANG = re.compile(r"#!\s*(?:/usr)?(?:/local)?/bin/(?:env\s+(?:-S\s+)?)?(\S+)")
_COMMAND_START = re.compile(
    r"(?:sudo\s+)?(?:curl|wget|apt(?:-get)?|brew|npm|npx|yarn|pnpm|pip3?|pipx|uv|git|cd|echo|"
    r"export|mkdir|chmod|cat|bash|sh|zsh|docker|kubectl|source|nc|ncat|socat|base64|printf|tar|"
    r"ssh|scp|crontab|python3?\s+-c|node\s+-e|env|printenv|dig|nslookup|eval|for\s+\w+\s+in)\b"
)
_PYTHON_START = re.compile(r"(?:import\s+\w|from\s+[\w.]+\s+import\b|def\s+\w+\(|class\s+\w+)")
_JS_START = re.compile(
    r"(?:const|let|var)\s+[\w{[]|require\(|import\s.*\sfrom\s|function\s|"
    r"(?:async\s+)?\(?\w*\)?\s*=>|module\.exports|process\."
)
_PS_START = re.compile(r"\$[\w:]+\s*=|[A-Z][a-z]+-[A-Z][A-Za-z]+\b|\[(?:System\.)?[A-Z]\w+")


def language_of_file(relative: str, text: str) -> str | None:
    """The analyser of a bundle file (``package.json``, ``markdown`` or a language), or
    ``None`` for a file the patterns judge alone."""
    name = relative.replace("\\", "/").rsplit("/", 1)[-1]
    lowered = name.lower()
    kind = config_kind(relative, text)
    if kind is not None:
        return f"config:{kind}"
    if lowered == "package.json":
        return "package.json"
    if lowered in ("rakefile", "gemfile"):
        return "ruby"
    if lowered.endswith((".md", ".markdown", ".mdx")):
        return "markdown"
    if "." in lowered:
        language = _EXTENSIONS.get(lowered.rsplit(".", 1)[1])
        if language is not None:
            return language
    if text.startswith("#!"):
        return _shebang(text)
    return None


def _shebang(text: str) -> str | None:
    match = _SHEBANG.match(text)
    if match is None:
        return None
    program = match.group(1).rsplit("/", 1)[-1]
    if program in ("sh", "bash", "zsh", "dash", "ksh", "ash"):
        return "sh"
    if program.startswith("python"):
        return "python"
    if program in ("node", "nodejs", "deno", "bun"):
        return "javascript"
    if program in ("pwsh", "powershell"):
        return "powershell"
    if program == "ruby":
        return "ruby"
    return None


def sniff(code: str) -> str | None:
    """The language of a code block without an info string, from its first line."""
    for line in code.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#!"):
            return _shebang(stripped)
        if stripped.startswith("#") or stripped.startswith("//"):
            continue
        if stripped.startswith("$ "):
            return "console"
        if _PYTHON_START.match(stripped):
            return "python"
        if _JS_START.match(stripped):
            return "javascript"
        if _COMMAND_START.match(stripped):
            return "sh"
        if _PS_START.match(stripped):
            return "powershell"
        return None
    return None


# --- code blocks ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Block:
    """A fenced code block: its language (``None``: judged by the patterns alone) and the
    offsets of its code in the document."""

    language: str | None
    start: int
    end: int


def code_blocks(text: str, start: int, end: int) -> Iterator[Block]:
    """The fenced code blocks of ``text[start:end]``, at any indentation (a fence in a
    list item is code to whoever runs it), with the language their info string names or
    their first line suggests. An unclosed fence runs to the end. Fence marks are found
    by substring search (each once), not by a regular expression over the text."""
    marks = _marks(text, start, end)
    if not marks:
        return
    index = 0
    while True:
        opening, index = _fence(text, marks, index, end, None, 0)
        if opening is None:
            return
        fence_at, length, line_end = opening
        char = text[fence_at]
        info = text[fence_at + length : line_end].strip()
        if char == "`" and "`" in info:  # not a fence (CommonMark)
            continue
        body_start = min(line_end + 1, end)
        while index < len(marks) and marks[index] < body_start:
            index += 1
        closing, index = _fence(text, marks, index, end, char, length)
        body_end = end if closing is None else text.rfind("\n", 0, closing[0]) + 1
        body_end = max(body_end, body_start)
        word = info.split(None, 1)[0].lower().strip("{}.") if info else ""
        language = _INFO.get(word)
        if not word:
            language = _sniffed(text[body_start:body_end])
        yield Block(language, body_start, body_end)
        if closing is None:
            return
        while index < len(marks) and marks[index] <= closing[2]:
            index += 1


_sniffs = _Memo(2048)


def _sniffed(code: str) -> str | None:
    """:func:`sniff`, memoised by the code (a keystroke elsewhere sniffs nothing)."""
    found = _sniffs.get(code)
    if found is None:
        found = sniff(code) or ""
        _sniffs.put(code, found)
    return str(found) or None


def _marks(text: str, start: int, end: int) -> list[int]:
    """Where three backticks or tildes start, in order."""
    found: list[int] = []
    for mark in ("```", "~~~"):
        at = text.find(mark, start, end)
        while at >= 0:
            found.append(at)
            at = text.find(mark, at + 3, end)
    found.sort()
    return found


def _fence(  # noqa: PLR0917 - the scan's state
    text: str, marks: list[int], index: int, end: int, char: str | None, length: int
) -> tuple[tuple[int, int, int] | None, int]:
    """The next fence line at or after ``marks[index]``: (offset of the fence, its
    length, the end of its line), and the index of the next mark to look at. ``char``,
    ``length``: a closing fence of that character, at least that long, alone on its
    line."""
    while index < len(marks):
        i = marks[index]
        index += 1
        fence_char = text[i]
        if char is not None and fence_char != char:
            continue
        line_start = text.rfind("\n", 0, i) + 1
        if text[line_start:i].strip(" \t"):
            continue
        if i > line_start and text[i - 1] == fence_char:
            continue  # inside a longer run already looked at
        line_end = text.find("\n", i, end)
        line_end = end if line_end < 0 else line_end
        run = i
        while run < line_end and text[run] == fence_char:
            run += 1
        while index < len(marks) and marks[index] < run:
            index += 1
        if char is not None and (run - i < length or text[run:line_end].strip()):
            continue
        return (i, run - i, line_end), index
    return None, index


def _console(code: str) -> str:
    """A terminal transcript as the script it runs: prompt lines without their ``$ ``,
    output lines blanked (offsets kept)."""
    lines = code.split("\n")
    if not any(line.lstrip().startswith("$ ") for line in lines):
        return code
    out = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("$ "):
            out.append(line.replace("$ ", "  ", 1))
        else:
            out.append(" " * len(line))
    return "\n".join(out)


@dataclass(frozen=True, slots=True)
class Analysed:
    """The hits of the scripts in a text (offsets into it) and the ranges whose parse
    succeeded (there, :data:`STRUCTURAL` pattern hits are dropped)."""

    hits: tuple[Hit, ...]
    parsed: tuple[tuple[int, int], ...]

    def replaces(self, hit: Hit) -> bool:
        """Whether a pattern ``hit`` is judged by a parse instead (it lies in parsed code)."""
        return hit.code in STRUCTURAL and any(a <= hit.start < b for a, b in self.parsed)

    def moved(self, text: str, start: int) -> Analysed:
        """This analysis of ``text[start:]`` (offsets and the lines its messages name
        counted in that piece) as one of ``text``."""
        if start == 0 or (not self.hits and not self.parsed):
            return self
        lines = text.count("\n", 0, start)

        def shifted(number: int) -> int:
            return number + lines

        return Analysed(
            tuple(_relined(_moved(hit, start), shifted) for hit in self.hits),
            tuple((a + start, b + start) for a, b in self.parsed),
        )


_EMPTY = Analysed((), ())


def markdown_scripts(text: str, start: int, end: int, forced: tuple[int, ...] = ()) -> Analysed:
    """The analysis of every fenced code block of ``text[start:end]`` that an analyser
    reads; the shell blocks of one document are read as one script, in order (a block
    that downloads a file and a later one that runs it). ``forced``: offsets of line
    pattern hits (:data:`STRUCTURAL`), whose blocks are parsed whatever their gates say.
    Memoised by the text (a body seen before, in another copy of a skill or before a
    keystroke in the frontmatter, costs a lookup)."""
    if "```" not in text and "~~~" not in text:
        return _EMPTY
    if start == 0 and end == len(text):
        return _markdown_memo(text, forced)
    found = _markdown_memo(text[start:end], tuple(at - start for at in forced))
    return found.moved(text, start)


#: Documents by their text (a deck's copies of one skill are listed together: a small
#: memo serves them all).
_documents = _Memo(256)


def _markdown_memo(text: str, forced: tuple[int, ...]) -> Analysed:
    key = f"{forced}\0{text}" if forced else text
    found = _documents.get(key)
    if found is None:
        found = _markdown(text, 0, len(text), forced)
        _documents.put(key, found)
    return found  # type: ignore[return-value]


def _markdown(text: str, start: int, end: int, forced: tuple[int, ...] = ()) -> Analysed:
    hits: list[Hit] = []
    parsed: list[tuple[int, int]] = []
    shell: list[Block] = []
    for block in code_blocks(text, start, end):
        if block.language is None:
            continue
        if block.language in ("sh", "console"):
            shell.append(block)
            continue
        force = any(block.start <= at < block.end for at in forced)
        found = script_hits(block.language, text[block.start : block.end], force=force)
        if found is None:  # nothing the analysis could report: the patterns judge it
            continue
        block_hits, errors = found
        if block_hits:
            base = text.count("\n", 0, block.start)

            def shifted(number: int, by: int = base) -> int:
                return number + by

            hits += (_relined(_moved(hit, block.start), shifted) for hit in block_hits)
        if not errors:
            parsed.append((block.start, block.end))
    if shell:
        force = any(b.start <= at < b.end for b in shell for at in forced)
        hits += _shell_blocks(text, shell, parsed, force=force)
    return Analysed(tuple(hits), tuple(parsed))


def _shell_blocks(
    text: str, blocks: list[Block], parsed: list[tuple[int, int]], *, force: bool
) -> list[Hit]:
    """The shell blocks of a document read as one script, in order (a block that
    downloads a file, a later one that runs it), memoised by their code alone: typing
    in the prose around them costs nothing. A block whose code met a parse error keeps
    its patterns."""
    codes = [
        _console(text[b.start : b.end]) if b.language == "console" else text[b.start : b.end]
        for b in blocks
    ]
    if not force:
        # a block holding none of the gates' words can neither source, carry nor sink
        # anything the verdicts look at: leave it out (a keystroke in it costs nothing)
        kept = [_holds_shell_words(code) for code in codes]
        blocks = [b for b, keep in zip(blocks, kept, strict=True) if keep]
        codes = [c for c, keep in zip(codes, kept, strict=True) if keep]
        if not blocks:
            return []
    joined = "\n".join(codes)
    found = script_hits("sh", joined, force=force)
    if found is None:  # nothing the analysis could report: the patterns judge them
        return []
    starts: list[tuple[int, int]] = []  # offset in joined, offset in text
    at = 0
    for block, code in zip(blocks, codes, strict=True):
        starts.append((at, block.start))
        at += len(code) + 1
    errors = found[1]
    for index, (block_at, _text_at) in enumerate(starts):
        block_end = block_at + len(codes[index])
        if not any(block_at <= error <= block_end for error in errors):
            parsed.append((blocks[index].start, blocks[index].end))
    if not found[0]:
        return []
    joined_lines = [joined.count("\n", 0, o) for o, _t in starts]
    text_lines = [text.count("\n", 0, t) for _o, t in starts]

    def line(number: int) -> int:
        index = max((i for i, first in enumerate(joined_lines) if first + 1 <= number), default=0)
        return number - joined_lines[index] + text_lines[index]

    hits: list[Hit] = []
    for hit in found[0]:
        base = max((s for s in starts if s[0] <= hit.start), key=lambda s: s[0])
        moved = Hit(
            hit.code, hit.start - base[0] + base[1], hit.end - base[0] + base[1], hit.fields
        )
        hits.append(_relined(moved, line))
    return hits


def _moved(hit: Hit, by: int) -> Hit:
    return Hit(hit.code, hit.start + by, hit.end + by, hit.fields)


def _relined(hit: Hit, line: Callable[[int], int]) -> Hit:
    """A hit whose message names lines of the joined script: lines of the document."""
    fields = tuple(
        (key, re.sub(r"(?<=\bline )(\d+)", lambda m: str(line(int(m.group(1)))), value))
        if key in ("secret", "source")
        else (key, value)
        for key, value in hit.fields
    )
    return Hit(hit.code, hit.start, hit.end, fields)


#: npm's lifecycle scripts, run by ``npm install`` (and ``prepare``/``prepack`` on
#: ``npm publish``/``pack``) with the user's permissions.
LIFECYCLE = (
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "preprepare",
    "postprepare",
    "prepublish",
    "prepublishOnly",
    "prepack",
    "postpack",
    "dependencies",
)


def package_scripts(text: str, forced: tuple[int, ...] = ()) -> Analysed:
    """The scripts of a ``package.json``, each read as shell where it stands; npm runs
    the lifecycle ones (:data:`LIFECYCLE`) by itself on ``npm install``."""
    if '"scripts"' not in text:
        return _EMPTY
    try:
        manifest = json.loads(text)
    except ValueError:
        return _EMPTY
    scripts = manifest.get("scripts") if isinstance(manifest, dict) else None
    if not isinstance(scripts, dict):
        return _EMPTY
    hits: list[Hit] = []
    parsed: list[tuple[int, int]] = []
    for name, command in scripts.items():
        if not isinstance(command, str):
            continue
        at = _json_value_at(text, name)
        span = (at, at + len(json.dumps(command)))
        force = any(span[0] <= at < span[1] for at in forced)
        found = script_hits("sh", command, force=force)
        if found is None:
            continue
        for hit in found[0]:
            hits.append(Hit(hit.code, span[0], span[1], _lifecycle(hit, name)))
        if not found[1]:
            parsed.append(span)
    return Analysed(tuple(hits), tuple(parsed))


def _lifecycle(hit: Hit, name: str) -> tuple[tuple[str, str], ...]:
    """The hit's fields with the script named (``note`` follows the file and line)."""
    run = ", which `npm install` runs" if name in LIFECYCLE else ""
    return (*hit.fields, ("note", f" (npm's `{name}` script{run})"))


def _json_value_at(text: str, key: str) -> int:
    match = re.search(rf'"{re.escape(key)}"\s*:\s*', text)
    if match is None:
        return 0
    return match.end()


def file_scripts(relative: str, text: str, forced: tuple[int, ...] = ()) -> Analysed | None:
    """The analysis of a bundle file, or ``None`` when no analyser reads it; ``forced``:
    offsets of line pattern hits, whose code is parsed whatever the gates say."""
    language = language_of_file(relative, text)
    if language is None:
        return None
    if language == "package.json":
        return package_scripts(text, forced)
    if language == "markdown":
        return markdown_scripts(text, 0, len(text), forced)
    if language.startswith("config:"):
        config = config_hits(language[7:], text, force=bool(forced))
        return Analysed(config.hits, config.parsed)
    found = script_hits(language, text, force=bool(forced))
    if found is None:
        return _EMPTY
    hits, errors = found
    return Analysed(hits, () if errors else ((0, len(text)),))
