"""Dangerous commands and committed secrets in a skill's text (SD1011-SD1015).

The same scan serves ``SKILL.md`` (prose and code blocks alike: a command in a code
block is what the agent runs) and the text files of the bundle
(:mod:`skilldeck.engine.safety._bundle`). Each pattern names a command shape, not a
word: ``curl ... | sh``, ``base64 -d ... | bash``, reading ``~/.aws/credentials`` and
``curl -F`` in the same command (in a script: within five lines), the flags that turn
an agent's permission prompts off, and the token formats that their issuers document.

Secrets use a small set of high-precision patterns rather than a detector library:
``detect-secrets`` (PyPI 1.5.0, 2024-05) adds entropy and keyword plugins that are
noisy on prose, and runs per file rather than per keystroke; the token formats below
are the ones with a fixed prefix and length, so a hit is almost never prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from skilldeck.engine.safety._flow import elided, placeholder_host, url_host
from skilldeck.engine.safety._hits import Gate, Hit, present_marks, shorten, word_matches

_I = re.IGNORECASE
_SHELL = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?"
    r"(?:(?:ba|z|da|k|fi)?sh|python[23]?|perl|ruby|node)\b"
)
_DOWNLOAD_EXEC = re.compile(
    r"\b(?:curl|wget)\b[^\n|;]*\|\s*"
    + _SHELL
    + r"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?(?:<\(|\$\()\s*(?:curl|wget)\b"
    r"|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*\|\s*(?:iex|invoke-expression)\b"
    r"|\.downloadstring\([^\n]*\)[^\n]*\|\s*(?:iex|invoke-expression)\b"
    r"|\b(?:iex|invoke-expression)\s*\(?\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|"
    r"new-object\s+(?:system\.)?net\.webclient)",
    _I,
)
_DOWNLOAD_GATE = Gate(("curl", "wget", "iwr ", "irm ", "iex", "downloadstring", "invoke-"))
_DECODE_EXEC = re.compile(
    r"\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*"
    + _SHELL
    + r"|\b(?:eval|exec)\s*\(\s*(?:(?:base64\.)?b64decode|atob|codecs\.decode|zlib\.decompress|"
    r"bytes\.fromhex|Buffer\.from)\s*\("
    r"|\bFunction\s*\(\s*atob\s*\("
    r"|\beval\s+[\"']?\$\((?:echo|printf)[^\n)]*\|\s*base64\s+(?:-d|--decode)"
    r"|\bpowershell(?:\.exe)?\b[^\n]*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}"
    r"|\b(?:iex|invoke-expression)\b[^\n]*frombase64string|frombase64string[^\n]*"
    r"\|\s*(?:iex|invoke-expression)\b",
    _I,
)
#: The words every match begins with (lowercase; :func:`word_matches`).
_DOWNLOAD_STARTS = ("curl", "wget", "ba", "z", "sh", "iwr", "irm", "invoke-", ".downloadstring",
                    "iex")  # fmt: skip
_DECODE_GATE = Gate(
    ("base64", "atob", "b64decode", "codecs.", "zlib.", "fromhex", "buffer.from", "powershell")
)
_DECODE_STARTS = ("base64", "eval", "exec", "function", "powershell", "iex",
                  "invoke-expression", "frombase64string")  # fmt: skip
_CREDENTIAL = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|/home/[\w.-]+|/root)[/\\]\.(?:ssh[/\\](?:id_\w+|\w*_key"
    r"|authorized_keys)|aws[/\\]credentials|netrc|git-credentials|docker[/\\]config\.json|"
    r"kube[/\\]config|npmrc|pypirc|config[/\\]gh[/\\]hosts\.yml|gnupg)"
    r"|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|(?<![\w./-])\.env(?![\w.-])|/etc/shadow"
    r"|\$(?:\{)?(?:AWS_SECRET_ACCESS_KEY|GITHUB_TOKEN|GH_TOKEN|OPENAI_API_KEY|ANTHROPIC_API_KEY)\b",
    _I,
)
_CREDENTIAL_GATE = Gate(
    (".ssh", ".aws", ".netrc", ".git-credentials", ".docker", ".kube", ".npmrc", ".pypirc",
     "gh/hosts", "gh\\hosts", ".gnupg", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", ".env",
     "/etc/shadow", "aws_secret_access_key", "github_token", "gh_token", "openai_api_key",
     "anthropic_api_key")
)  # fmt: skip
_SENDER = re.compile(
    r"\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\b"
    r"|\bwget\b[^\n]*--post-(?:file|data)"
    r"|\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\s+\d{2,5}\b"
    r"|\bscp\b[^\n]*\s[\w.-]*@?[\w.-]+:"
    r"|\brequests\.(?:post|put)\s*\("
    r"|\bhttpx\.(?:post|put)\s*\("
    r"|\burllib\.request\.urlopen\s*\([^\n]*data\s*="
    r"|\bfetch\s*\([^\n]*method\s*:\s*[\"'](?:POST|PUT)"
    r"|\bInvoke-(?:WebRequest|RestMethod)\b[^\n]*-Method\s+(?:Post|Put)"
    r"|/dev/tcp/",
    _I,
)
_SENDER_GATE = Gate(
    ("curl", "wget", "nc ", "ncat", "netcat", "scp", "requests.", "httpx.", "urlopen",
     "fetch", "invoke-", "/dev/tcp/")
)  # fmt: skip
_SAFEGUARDS = re.compile(
    r"--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox"
    r"|--permission-mode[= ]bypassPermissions"
    r"|[\"']?defaultMode[\"']?\s*[:=]\s*[\"']bypassPermissions"
    r"|approval_policy\s*=\s*[\"']never|sandbox_mode\s*=\s*[\"']danger-full-access"
    r"|dangerouslyDisableSandbox"
    # other agents' CLIs run unattended: Gemini and Qwen `--yolo`, Amazon Q's
    # `--trust-all-tools`, Copilot CLI's `--allow-all-tools`; every project MCP server on
    r"|(?<![\w-])--yolo\b|--approval-mode[= ]yolo|--trust-all-tools|--allow-all-tools"
    r"|--dangerously-(?:allow-all|bypass[\w-]*|disable[\w-]*)|--sandbox[= ]danger-full-access"
    r"|--yes-always|\b(?:gemini|qwen)\b[^\n|;&]{0,80}\s-y\b"
    r"|--allowedTools[= ][\"']?Bash(?:\(\*\))?[\"']?(?=[\s,]|$)"
    r"|[\"']?enableAllProjectMcpServers[\"']?\s*[:=]\s*true"
    # editors' agents told to approve every tool call: VS Code's `chat.tools.autoApprove`,
    # Gemini CLI's `autoAccept`, an `alwaysAllow`/`autoApprove` set to true
    r"|[\"']?(?:chat\.tools\.(?:global\.)?autoApprove|autoAccept|autoApprove|alwaysAllow)"
    r"[\"']?\s*[:=]\s*true\b",
    _I,
)
_SAFEGUARD_GATE = Gate(
    ("dangerously", "bypasspermissions", "approval_policy", "sandbox_mode", "yolo",
     "trust-all-tools", "allow-all-tools", "enableallprojectmcpservers", "danger-full-access",
     "yes-always", "allowedtools", "gemini", "qwen", "autoapprove", "autoaccept",
     "alwaysallow")
)  # fmt: skip

_SECRETS: tuple[tuple[str, re.Pattern[str], Gate], ...] = (
    (
        "a private key",
        re.compile(
            r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----"
            r"[ \t]*\r?\n(?:[\w-]+:[^\n]*\r?\n)*\r?\n?[A-Za-z0-9+/=]{40,}"
        ),
        Gate(("-----begin",)),
    ),
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), Gate(("akia", "asia"))),
    (
        "a GitHub token",
        re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{60,}"),
        Gate(("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    ),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), Gate(("glpat-",))),
    (
        "a Slack token",
        re.compile(r"\bxox[abprs]-[A-Za-z0-9]{6,}-[A-Za-z0-9-]{10,}"),
        Gate(("xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-")),
    ),
    ("a Stripe live key", re.compile(r"\b[sr]k_live_[A-Za-z0-9]{24,}\b"), Gate(("k_live_",))),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), Gate(("aiza",))),
    (
        "an OpenAI API key",
        re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}"),
        Gate(("t3blbkfj",)),
    ),
    (
        "an Anthropic API key",
        re.compile(r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{80,}"),
        Gate(("sk-ant-",)),
    ),
    ("an npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), Gate(("npm_",))),
    ("a PyPI token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"), Gate(("pypi-",))),
)
#: Placeholders documentation writes in place of a token.
_PLACEHOLDER = re.compile(r"EXAMPLE|xxxx|XXXX|0000000|1234567|abcdef|your|YOUR|\.\.\.|<|>")
#: How many lines apart a script may read a credential and send it out.
SCRIPT_WINDOW = 5


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    return first, len(text) if last < 0 else last


def command_hits(
    text: str,
    start: int,
    end: int,
    present: frozenset[str],
    *,
    where: str = "",
    window: int = 0,
    lowered: str | None = None,
) -> Iterator[Hit]:
    """SD1011-SD1015 in ``text[start:end]``; ``present`` is ``present_marks`` of that text
    lowered (:class:`~skilldeck.engine.safety._hits.Gate`); ``where``
    starts each message (``in `scripts/x.sh` line 3: ``); ``window`` is how many lines
    apart a credential read and a sender still count as one command (0: the same line);
    ``lowered``: :func:`~skilldeck.engine.safety._hits.folded` of ``text``
    (:func:`word_matches`)."""

    def field(match: re.Match[str]) -> tuple[tuple[str, str], ...]:
        return (("where", where), ("command", shorten(match.group())), ("source", ""))

    for pattern, code, gate, starts in (
        (_DOWNLOAD_EXEC, "SD1011", _DOWNLOAD_GATE, _DOWNLOAD_STARTS),
        (_DECODE_EXEC, "SD1012", _DECODE_GATE, _DECODE_STARTS),
        (_SAFEGUARDS, "SD1014", _SAFEGUARD_GATE, None),
    ):
        if gate.opens(present):
            for match in word_matches(pattern, starts, text, start, end, lowered=lowered):
                if code == "SD1012" and (_browser_payload(text, match) or _elided(text, match)):
                    continue
                yield Hit(code, match.start(), match.end(), field(match))
    if _SENDER_GATE.opens(present) and _CREDENTIAL_GATE.opens(present):
        yield from _exfiltration(text, (start, end), where=where, window=window)
    yield from secret_hits(text, start, end, where, present)
    if _URL_GATE.opens(present):
        yield from _secret_urls(text, start, end, where)


#: A Markdown image or link, or an HTML ``src``/``href``, whose URL is filled in at run time.
_URL_GATE = Gate(("](http", "src=", "href="), also=("${", "{{", "$(", "%", "<", "[", "$"))
_LINKED_URL = re.compile(
    r"!?\[[^\]\n]*\]\(\s*(?P<md>https?://(?:[^\s()<>\[\]]|<[^<>\n]{1,60}>|\[[^\[\]\n]{1,60}\]"
    r"|\$\([^()\n]{1,80}\))+)|(?:src|href)\s*=\s*[\"']?(?P<html>https?://[^\s\"'>]+)",
    _I,
)
_FILLED = re.compile(
    r"\$\{?(?P<var>[A-Za-z_]\w*)\}?|\{\{\s*(?P<tpl>[^{}]{1,60}?)\s*\}\}|%(?P<win>[A-Za-z_]\w*)%"
    r"|<(?P<angle>[^<>]{2,60})>|\[(?P<square>[^\[\]]{2,60})\]|\$\((?P<sub>[^()]{1,80})\)",
)
_SECRET_WORDS = re.compile(
    r"token|secret|passw|api[_ -]?key|credential|\.env\b|\benv\b|environ|ssh|cookie|"
    r"private[_ -]?key|session|auth|base64|conversation|chat history|system prompt|printenv",
    _I,
)


def _secret_urls(text: str, start: int, end: int, where: str) -> Iterator[Hit]:
    """SD1054: a Markdown image or link (or an HTML ``src``/``href``) whose URL carries a
    secret filled in when it is rendered or followed: ``![](https://x/?d=${TOKEN})``,
    ``{{OPENAI_API_KEY}}``, ``<base64 of ~/.env>``, ``$(env | base64)``."""
    for match in _LINKED_URL.finditer(text, start, end):
        url = match.group("md") or match.group("html")
        host = url_host(url)
        if host is None or placeholder_host(host):
            continue
        rest = url[url.find(host) + len(host) :]
        for filled in _FILLED.finditer(rest):
            name = next(g for g in filled.groups() if g is not None)
            if _SECRET_WORDS.search(name) is None:
                continue
            yield Hit(
                "SD1054",
                match.start(),
                match.end(),
                (("where", where), ("kind", "an image" if match.group().startswith("!") else
                                    "a link"),
                 ("what", shorten(filled.group(), 60)), ("host", host),
                 ("url", shorten(url, 100))),
            )  # fmt: skip
            break


def _elided(text: str, match: re.Match[str]) -> bool:
    """A decode-and-run whose payload is elided (``exec(base64.b64decode("<payload
    elided>"))``, ``echo '...' | base64 -d | sh``): teaching, nothing to run."""
    first, last = _line_bounds(text, match.start(), match.end())
    literals = re.findall(r"\"([^\"\n]{0,80})\"|'([^'\n]{0,80})'", text[first:last])
    payloads = [a or b for a, b in literals]
    return bool(payloads) and all(elided(p) for p in payloads if p.strip())


_BROWSER = re.compile(r"<script|javascript:|\bon[a-z]+\s*=", _I)


def _browser_payload(text: str, match: re.Match[str]) -> bool:
    """A JavaScript ``eval(atob(...))`` in ``<script>``, a ``javascript:`` URL or an
    ``on...=`` attribute: an XSS example for a browser, not code the agent runs."""
    if not match.group().lower().startswith(("eval", "function")):
        return False
    first, last = _line_bounds(text, match.start(), match.end())
    return _BROWSER.search(text, first, last) is not None


def _exfiltration(text: str, bounds: tuple[int, int], *, where: str, window: int) -> Iterator[Hit]:
    start, end = bounds
    reported: set[int] = set()
    for match in _CREDENTIAL.finditer(text, start, end):
        line_first, line_last = _line_bounds(text, match.start(), match.end())
        line_first, line_last = max(line_first, start), min(line_last, end)
        if line_first in reported:
            continue
        first, last = line_first, line_last
        for _ in range(window):
            if first <= start:
                break
            first = max(start, text.rfind("\n", start, first - 1) + 1)
        for _ in range(window):
            if last >= end:
                break
            following = text.find("\n", last + 1, end)
            last = end if following < 0 else following
        sender = _SENDER.search(text, first, last)
        if sender is None:
            continue
        reported.add(line_first)
        command = text[line_first:line_last]
        if not (line_first <= sender.start() <= line_last):
            command = f"{command.strip()} ... {sender.group().strip()}"
        yield Hit(
            "SD1013",
            match.start(),
            match.end(),
            (
                ("where", where),
                ("secret", match.group()),
                ("dest", "out"),
                ("command", shorten(command)),
            ),
        )


def secret_hits(
    text: str, start: int, end: int, where: str, present: frozenset[str] | None = None
) -> Iterator[Hit]:
    """SD1015: token formats and private key blocks in ``text[start:end]``."""
    present = present_marks(text[start:end].lower()) if present is None else present
    for kind, pattern, gate in _SECRETS:
        if not gate.opens(present):
            continue
        for match in pattern.finditer(text, start, end):
            value = match.group()
            if _PLACEHOLDER.search(value) or len(set(value)) < 10:
                continue
            first_line = value.split("\n", 1)[0].strip()
            private = kind == "a private key"
            masked = first_line if private else f"{value[:8]}...{value[-2:]}"
            yield Hit(
                "SD1015",
                match.start(),
                match.start() + len(first_line) if private else match.end(),
                (("where", where), ("kind", kind), ("masked", masked)),
            )
