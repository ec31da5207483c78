"""What the script analysers follow, and how a flow is judged (SD1011-SD1014, SD1025-SD1028).

Every analyser (shell, Python, JavaScript, PowerShell) turns code into the same few
events and leaves the verdict to :class:`Verdicts`:

- a value carries *labels*: where its data came from (a credential file, the whole
  environment, a browser's cookie or login store, a named token, a download, a decoded
  payload, the repository's changes), each with the line it was read at;
- a *send* (the network, a DNS lookup, a registry config) judges the labels that reach it
  and the destination: a credential file, the environment or a browser store sent
  anywhere is exfiltration; a token is exfiltration only when it goes to a host that is
  not its issuer's (``$GITHUB_TOKEN`` to ``api.github.com`` is what the token is for);
- an *execution* of a downloaded value is download-and-execute (unless a checksum or
  signature check named it first), of a decoded one decode-and-execute;
- a *persistence* write (cron, shell start-up files, git hooks, ``authorized_keys``) is
  judged by what it installs.

Paths and hosts are judged from their *shape*: the text of a word with what is known at
that point filled in (``$HOME`` is ``~``) and anything unknown as ``*``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from skilldeck.engine.safety._hits import Hit, shorten

#: The analysers of other languages a script may run inline (``python3 -c '...'``),
#: by language: ``(code, nesting depth) -> hits`` (filled by
#: :mod:`~skilldeck.engine.safety._scripts`).
NESTED: dict[str, Callable[[str, int], list[Hit]]] = {}

#: The gated, memoised analysis of code in a language: ``(language, code, force) ->
#: (hits, offsets of parse errors)``, or ``None`` when no gate opens (filled by
#: :mod:`~skilldeck.engine.safety._scripts` as ``"script"``; the readers of files that
#: hold code, :mod:`~skilldeck.engine.safety._configs` and
#: :mod:`~skilldeck.engine.safety._ruby`, sit below it).
ANALYSE: dict[str, Callable[[str, str, bool], tuple[tuple[Hit, ...], tuple[int, ...]] | None]] = {}
#: What a text tells the model, if it instructs it (filled by
#: :mod:`~skilldeck.engine.safety._instructions` as ``"kind"``): a file the agent reads
#: as standing instructions is judged by it.
INSTRUCTS: dict[str, Callable[[str], str | None]] = {}

#: What stands for an unknown part of a shape (a variable the analysis cannot resolve).
UNKNOWN = "\x00"


@dataclass(frozen=True, slots=True)
class Label:
    """Where some data came from: ``kind`` (``secret``, ``env``, ``browser``, ``token``,
    ``download``, ``decode``, ``repo``, ``info``), what it is for a message, and the
    1-based line it was read at (in the scanned text)."""

    kind: str
    what: str
    line: int
    #: A token's own hosts (suffixes): sending it there is using it.
    issuer: tuple[str, ...] = ()


Taint = frozenset[Label]
CLEAN: Taint = frozenset()


@dataclass(frozen=True, slots=True)
class PVal:
    """A Python value: its text as far as known, its labels, what kind of object it is
    (``qual`` a module or class path, ``path`` the file it was opened on, ``host`` the
    address a socket or connection goes to)."""

    shape: str = "\x00"
    taint: Taint = CLEAN
    qual: str | None = None
    path: str | None = None
    host: str | None = None
    #: The pieces it was built from (literal text, or a value), for commands built in
    #: Python and run by a shell.
    pieces: tuple[tuple[str, Taint], ...] = ()


#: The kinds that are exfiltration wherever they are sent.
_ALWAYS_SECRET = frozenset({"secret", "env", "browser"})

# --- what a path is ---------------------------------------------------------------------

_HOME = r"(?:^|[/\\])"
_CREDENTIAL_PATHS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), what)
    for pattern, what in (
        (r"\.ssh[/\\](?:id_[^/\\.\s]*|[^/\\\s]*_key|identity)$", "an SSH private key"),
        (r"\.ssh[/\\]?(?:\*)?$", "the ~/.ssh folder"),
        (r"\.aws[/\\](?:credentials|config)$", "~/.aws/credentials"),
        (r"\.aws[/\\]?(?:\*)?$", "the ~/.aws folder"),
        (r"(?:^|[/\\])\.netrc$|(?:^|[/\\])_netrc$", "~/.netrc"),
        (r"\.git-credentials$", "~/.git-credentials"),
        (r"\.docker[/\\]config\.json$", "~/.docker/config.json"),
        (r"\.kube[/\\]config$", "the kube config"),
        (r"(?:^|[/\\])\.npmrc$", "~/.npmrc"),
        (r"(?:^|[/\\])\.pypirc$", "~/.pypirc"),
        (r"(?:^|[/\\])\.yarnrc(?:\.yml)?$", "~/.yarnrc"),
        (r"\.config[/\\]gh[/\\]hosts\.yml$", "the GitHub CLI's token"),
        (
            r"\.config[/\\]gcloud[/\\](?:credentials\.db|access_tokens\.db|"
            r"application_default_credentials\.json|legacy_credentials|configurations)",
            "the gcloud credentials",
        ),
        (
            r"\.azure[/\\](?:accessTokens\.json|msal_token_cache|azureProfile\.json)",
            "the Azure CLI's tokens",
        ),
        (r"\.gnupg(?:[/\\]|$)", "the GnuPG keyring"),
        (r"\.password-store(?:[/\\]|$)", "the password store"),
        (r"\.vault-token$", "the Vault token"),
        (r"\.terraform\.d[/\\]credentials\.tfrc\.json$", "the Terraform credentials"),
        (r"\.config[/\\](?:op|1password)[/\\]", "the 1Password CLI's data"),
        (r"Library[/\\]Keychains(?:[/\\]|$)|login\.keychain(?:-db)?$", "the macOS keychain"),
        (r"^/etc/shadow$|^/etc/gshadow$", "/etc/shadow"),
        (r"(?:^|[/\\])Exodus(?:[/\\]|$)|exodus\.wallet", "the Exodus wallet"),
        (r"(?:^|[/\\])\.?electrum(?:[/\\]|$)", "the Electrum wallets"),
        (
            r"solana[/\\](?:id\.json|[^/\\]*keypair[^/\\]*\.json)$|\.config[/\\]solana(?:[/\\]\*?)?$",
            "the Solana keypair",
        ),
        (
            r"(?:^|[/\\])wallet\.dat$|(?:^|[/\\])\.?(?:bitcoin|litecoin|dogecoin)[/\\]wallets?",
            "a Bitcoin-family wallet",
        ),
        (r"\.ethereum[/\\]keystore|(?:^|[/\\])keystore[/\\]UTC--", "the Ethereum keystore"),
        (
            r"nkbihfbeogaeaoehlefnkodbefgpgknn|(?:^|[/\\])(?:MetaMask|Phantom|atomic)(?:[/\\]|$)",
            "a crypto wallet extension's vault",
        ),
        (r"(?:^|[/\\])\.env(?:\.(?:local|production|prod|development|dev|staging|test))?$", ".env"),
        (r"(?:^|[/\\])(?:secrets?|credentials)\.(?:json|ya?ml|toml)$", "a secrets file"),
    )
)
_BROWSER_FILES = re.compile(
    r"(?:^|[/\\])(?:Login Data|Web Data|Login Data For Account|logins\.json|key[34]\.db|"
    r"cookies\.sqlite|Cookies\.binarycookies|signons\.sqlite)$",
    re.IGNORECASE,
)
_BROWSER_DIRS = re.compile(
    r"chrome|chromium|edge|brave|opera|vivaldi|firefox|mozilla|safari|User Data|"
    r"[/\\]Default[/\\]|[/\\]Profile",
    re.IGNORECASE,
)
_BROWSER_COOKIES = re.compile(r"(?:^|[/\\])(?:Network[/\\])?Cookies$|Local State$")
#: Example and template files that hold no secret.
_EXAMPLE = re.compile(
    r"\.(?:example|sample|template|dist|tmpl|pub)$|[/\\]\.env\.\w*example", re.IGNORECASE
)


def home(shape: str) -> str:
    """``shape`` with the usual spellings of the home folder made ``~``."""
    if "$" in shape or "%" in shape:
        for spelling in (
            "$HOME",
            "${HOME}",
            "%USERPROFILE%",
            "$env:USERPROFILE",
            "$env:HOME",
            "${env:USERPROFILE}",
            "$Env:USERPROFILE",
            "%HOMEPATH%",
        ):
            if spelling in shape:
                shape = shape.replace(spelling, "~")
    if shape.startswith(("/home/", "/Users/", "/root", "C:\\Users\\")):
        shape = _HOME_FOLDER.sub("~", shape)
    return shape


_HOME_FOLDER = re.compile(r"^(?:/home/[\w.-]+|/Users/[\w.-]+|/root|C:\\Users\\[\w.-]+)(?=[/\\]|$)")
#: Words one of which every sensitive path holds (lowercase): a path without one is
#: not matched against the patterns at all.
_PATH_MARKS = (
    ".ssh",
    ".aws",
    "netrc",
    ".git-cred",
    ".docker",
    ".kube",
    "npmrc",
    "pypirc",
    "yarnrc",
    "gh/hosts",
    "gh\\hosts",
    "gcloud",
    ".azure",
    ".gnupg",
    "password-store",
    "vault-token",
    ".terraform.d",
    "/op/",
    "\\op\\",
    "1password",
    "keychain",
    "shadow",
    ".env",
    "secret",
    "credential",
    "environ",
    "login data",
    "web data",
    "logins.json",
    "key3.db",
    "key4.db",
    "cookies",
    "local state",
    "signons",
    "exodus",
    "electrum",
    "solana",
    "wallet",
    "bitcoin",
    "litecoin",
    "dogecoin",
    "keystore",
    "nkbihfbeogaeaoehlefnkodbefgpgknn",
    "metamask",
    "phantom",
    "atomic",
)


_PATH_WORDS = re.compile("|".join(re.escape(mark) for mark in _PATH_MARKS), re.IGNORECASE)


def sensitive_path(shape: str, line: int) -> Label | None:
    """The label of reading the file (or folder) whose path has this shape, if it holds
    secrets: a credential file, the process environment, a browser's store."""
    if len(shape) > 300:
        return None
    if _PATH_WORDS.search(shape) is None:
        return None
    found = _sensitive(shape)
    return None if found is None else Label(found[0], found[1], line)


@lru_cache(maxsize=4096)
def _sensitive(shape: str) -> tuple[str, str] | None:
    path = home(shape.strip().strip("\"'")).replace(UNKNOWN, "*")
    if not path or _EXAMPLE.search(path):
        return None
    path = path.rstrip("/\\") if len(path) > 1 else path
    if path.startswith("/proc/") and path.endswith("/environ"):
        return "env", "the process environment"
    if _BROWSER_FILES.search(path) or (
        _BROWSER_COOKIES.search(path) and _BROWSER_DIRS.search(path)
    ):
        return "browser", f"the browser store `{shorten(path, 60)}`"
    for pattern, what in _CREDENTIAL_PATHS:
        if pattern.search(path):
            return "secret", path if len(path) <= 60 else what
    return None


# --- tokens ----------------------------------------------------------------------------

#: Tokens by name and the hosts (suffixes) they are meant for.
_ISSUERS: dict[str, tuple[str, ...]] = {
    "GITHUB_TOKEN": ("github.com", "githubusercontent.com", "ghcr.io", "github"),
    "GH_TOKEN": ("github.com", "githubusercontent.com", "ghcr.io", "github"),
    "GITHUB_PAT": ("github.com", "githubusercontent.com", "ghcr.io", "github"),
    "GH_ENTERPRISE_TOKEN": ("github",),
    "NPM_TOKEN": ("npmjs.org", "npmjs.com", "npm.pkg.github.com", "yarnpkg.com"),
    "NODE_AUTH_TOKEN": ("npmjs.org", "npmjs.com", "npm.pkg.github.com", "yarnpkg.com"),
    "OPENAI_API_KEY": ("openai.com", "openai.azure.com"),
    "ANTHROPIC_API_KEY": ("anthropic.com",),
    "GITLAB_TOKEN": ("gitlab",),
    "CI_JOB_TOKEN": ("gitlab",),
    "SLACK_TOKEN": ("slack.com",),
    "SLACK_BOT_TOKEN": ("slack.com",),
    "HF_TOKEN": ("huggingface.co", "hf.co"),
    "HUGGINGFACE_TOKEN": ("huggingface.co", "hf.co"),
    "PYPI_TOKEN": ("pypi.org",),
    "PYPI_API_TOKEN": ("pypi.org",),
    "TWINE_PASSWORD": ("pypi.org",),
    "DOCKER_PASSWORD": ("docker.io", "docker.com"),
    "DOCKERHUB_TOKEN": ("docker.io", "docker.com"),
    "CODECOV_TOKEN": ("codecov.io",),
    "STRIPE_SECRET_KEY": ("stripe.com",),
    "STRIPE_API_KEY": ("stripe.com",),
    "VERCEL_TOKEN": ("vercel.com",),
    "NETLIFY_AUTH_TOKEN": ("netlify.com",),
    "CLOUDFLARE_API_TOKEN": ("cloudflare.com",),
    "SENTRY_AUTH_TOKEN": ("sentry.io",),
    "DATADOG_API_KEY": ("datadoghq.com", "datadoghq.eu"),
    "GOOGLE_API_KEY": ("googleapis.com",),
    "GEMINI_API_KEY": ("googleapis.com",),
    "DIGITALOCEAN_ACCESS_TOKEN": ("digitalocean.com",),
    "HEROKU_API_KEY": ("heroku.com",),
    "CIRCLE_TOKEN": ("circleci.com",),
    "TELEGRAM_BOT_TOKEN": ("telegram.org",),
    "DISCORD_TOKEN": ("discord.com", "discordapp.com"),
}
#: Secrets that no client sends over the wire as they are (a request is signed with them).
_NEVER_SENT = frozenset(
    {
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AZURE_CLIENT_SECRET",
        "GOOGLE_APPLICATION_CREDENTIALS",
    }
)
_SECRET_NAME = re.compile(
    r"(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|AUTH)(?:_|$)",
    re.IGNORECASE,
)
#: Hosts whose only use is collecting what is sent to them.
_COLLECTORS = (
    "webhook.site",
    "requestbin",
    "pipedream.net",
    "ngrok.io",
    "ngrok-free.app",
    "ngrok.app",
    "interact.sh",
    "oast.",
    "burpcollaborator",
    "pastebin.com",
    "transfer.sh",
    "hookbin.com",
    "requestcatcher.com",
    "beeceptor.com",
    "canarytokens",
    "dnslog.cn",
    "ceye.io",
    "trycloudflare.com",
    "serveo.net",
    "localtunnel.me",
    "loca.lt",
    "discord.com/api/webhooks",
    "discordapp.com/api/webhooks",
    "api.telegram.org",
)


#: The token names whose issuer is known, and those never sent as they are.
ISSUER_NAMES = (*_ISSUERS, *_NEVER_SENT)


def token_label(name: str, line: int) -> Label | None:
    """The label of reading the environment variable ``name``, if it holds a secret."""
    upper = name.upper()
    if upper in _NEVER_SENT:
        return Label("secret", f"${upper}", line)
    issuer = _ISSUERS.get(upper)
    if issuer is not None:
        return Label("token", f"${upper}", line, issuer)
    if _SECRET_NAME.search(upper):
        return Label("token", f"${name}", line)
    return None


# --- hosts -----------------------------------------------------------------------------

_URL = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*:)?//(?:[^/@\s]*@)?(?P<host>\[[^\]]*\]|[^/:?#\s]*)", re.IGNORECASE
)
_BARE = re.compile(
    r"^(?:[^/@\s]*@)?(?P<host>[A-Za-z0-9\x00*_-]+(?:\.[A-Za-z0-9\x00*_-]+)+)"
    r"(?=[:/?#]|$)"
)


def url_host(shape: str) -> str | None:
    """The host of a URL (or ``host/path``) shape, lowercased; ``None`` when unknown."""
    shape = shape.strip().strip("\"'")
    match = _URL.match(shape) or _BARE.match(shape)
    if match is None:
        return None
    host = match.group("host").lower()
    if not host or UNKNOWN in host:
        return None
    return host


_ELIDED = re.compile(
    r"<[^<>]{0,40}>|\.\.\.|\u2026|\b(?:elided|redacted|omitted|truncated|snipped|placeholder|"
    r"payload|base64[_ -]?(?:string|blob|data|payload)|your[_ -]\w+)\b|\[[^\[\]]{0,40}\]",
    re.IGNORECASE,
)


def elided(shape: str) -> bool:
    """Whether a literal stands for a payload rather than being one (``"<payload
    elided>"``, ``"..."``, ``"[base64]"``): decoding it runs nothing, as in teaching
    material describing an attack."""
    text = shape.replace(UNKNOWN, "").strip().strip("\"'")
    return bool(text) and len(text) < 80 and _ELIDED.search(text) is not None


def placeholder_host(host: str) -> bool:
    """Whether ``host`` stands for an address rather than being one (``ATTACKER_IP``,
    ``<ip>``, ``YOUR_IP``, ``x.x.x.x``, ``$LHOST``): the command reaches nothing as
    written, as in security teaching material."""
    if not host or UNKNOWN in host:
        return True
    if any(char in host for char in "<>{}[]$%") or "..." in host:
        return True
    if re.fullmatch(r"[A-Z][A-Z0-9_-]*", host):
        return True
    low = host.lower()
    if re.fullmatch(r"(?:x{1,3}\.){3}x{1,3}|(?:\d+\.){3}x+|ip|lhost|rhost", low):
        return True
    return "." not in low and not low.isdigit() and low != "localhost"


_LOCAL = re.compile(
    r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|[\w.-]+\.(?:local|internal|lan)|"
    r"10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|host\.docker\.internal)$"
)


def issuer_host(label: Label, host: str) -> bool:
    """Whether ``host`` is one of the token's own."""
    return any(
        host == suffix or host.endswith("." + suffix) or ("." not in suffix and suffix in host)
        for suffix in label.issuer
    )


def collector(host: str, url: str = "") -> bool:
    """Whether ``host`` (or the URL) is a request collector, a tunnel or a paste site."""
    text = f"{host}{url}".lower()
    return any(mark in text for mark in _COLLECTORS)


# --- verdicts --------------------------------------------------------------------------


@dataclass(slots=True)
class Verdicts:
    """The findings of one script: each a :class:`~skilldeck.engine.safety._hits.Hit`
    (offsets into the scanned text), one per rule and start offset."""

    line_of: Line
    hits: list[Hit] = field(default_factory=list)
    _seen: set[tuple[str, int]] = field(default_factory=set)

    def add(self, code: str, start: int, end: int, **fields: str) -> None:
        key = (code, start)
        if key in self._seen:
            return
        self._seen.add(key)
        self.hits.append(Hit(code, start, end, (("where", ""), *fields.items())))

    def _source(self, label: Label, at: int) -> str:
        if label.line and label.line != self.line_of(at):
            return f"{label.what} (line {label.line})"
        return label.what

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
        """Judge data with ``taint`` leaving through ``how`` (``network``, ``dns``,
        ``registry``) to ``host``; whether something was reported."""
        secret = _first(label for label in taint if label.kind in _ALWAYS_SECRET)
        if secret is None and host is not None and _LOCAL.match(host):
            return False  # a token used on this machine or its network does not leave it
        if secret is None:
            for label in taint:
                if label.kind != "token":
                    continue
                if host is not None and (
                    collector(host, url) or (label.issuer and not issuer_host(label, host))
                ):
                    secret = label
                    break
                if how in ("dns", "registry") and host is not None and not issuer_host(label, host):
                    secret = label
                    break
        if secret is None:
            return False
        if how == "dns":
            dest = f"in a DNS lookup of `{host}`" if host else "in a DNS lookup"
        elif how == "registry":
            dest = f"into the registry config for `{host}`" if host else "into a registry config"
        else:
            dest = f"to `{host}`" if host else "out"
        self.add(
            "SD1013",
            start,
            end,
            secret=self._source(secret, start),
            dest=dest,
            command=shorten(command),
        )
        return True

    def execute(self, taint: Taint, start: int, end: int, *, command: str) -> None:
        """Judge running code whose text carries ``taint``."""
        decoded = _first(label for label in taint if label.kind == "decode")
        if decoded is not None:
            self.add("SD1012", start, end, command=shorten(command))
            return
        downloaded = _first(
            label
            for label in taint
            if label.kind == "download" and not placeholder_host(url_host(label.what) or "x.y")
        )
        if downloaded is not None:
            source = ""
            if downloaded.line and downloaded.line != self.line_of(start):
                source = f" (downloaded at line {downloaded.line} from {downloaded.what})"
            self.add("SD1011", start, end, command=shorten(command), source=source)

    def nested(self, hits: Iterable[Hit], start: int, end: int) -> None:
        """The findings of code the script runs from a string (``eval``, ``exec``,
        ``bash -c``, a command line built for a shell), each at the call that runs it."""
        for hit in hits:
            self.add(hit.code, start, end, **{k: v for k, v in hit.fields if k != "where"})

    def dns(
        self,
        pieces: tuple[tuple[str, Taint], ...],
        taint: Taint,
        start: int,
        end: int,
        *,
        command: str,
    ) -> None:
        """A DNS lookup of the name built from ``pieces`` (text and taint, in order):
        when the labels before its literal domain are computed, SD1013 if a secret is
        among them, SD1028 otherwise."""
        if not pieces:
            return
        shape, known = pieces[-1]
        literal = shape if not known and UNKNOWN not in shape else ""
        computed = any(t or UNKNOWN in s for s, t in pieces[:-1])
        if not computed or "." not in literal.strip("."):
            return
        domain = literal.lstrip(".")
        if not self.send(taint, start, end, command=command, host=domain, how="dns"):
            self.add("SD1028", start, end, domain=domain, command=shorten(command))

    def safeguards(self, text: str, start: int, end: int, *, command: str) -> None:
        """SD1014 when a value built by the script turns the agent's safeguards off."""
        if _SAFEGUARD_VALUE.search(text):
            self.add("SD1014", start, end, command=shorten(command))


class Line:
    """The 1-based line of an offset in the scanned text (line starts found once, on
    first use)."""

    __slots__ = ("_breaks", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._breaks: list[int] | None = None

    def __call__(self, offset: int) -> int:
        if self._breaks is None:
            text = self._text
            breaks = []
            at = text.find("\n")
            while at >= 0:
                breaks.append(at)
                at = text.find("\n", at + 1)
            self._breaks = breaks
        return bisect_left(self._breaks, offset) + 1


_SAFEGUARD_VALUE = re.compile(
    r"--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox"
    r"|(?:defaultMode|permission[_-]?mode)\W{0,12}bypassPermissions"
    r"|approval_policy\W{0,6}never|sandbox_mode\W{0,6}danger-full-access"
    r"|dangerouslyDisableSandbox\W{0,6}true|enableAllProjectMcpServers\W{0,6}true"
    r"|(?<![\w-])--yolo\b|--approval-mode[= ]yolo|--trust-all-tools|--allow-all-tools"
    r"|--dangerously-(?:allow-all|bypass[\w-]*|disable[\w-]*)|--sandbox[= ]danger-full-access"
    r"|--yes-always|\b(?:gemini|qwen)\b[^\n|;&]{0,80}\s-y\b"
    r"|(?:chat\.tools\.(?:global\.)?autoApprove|autoAccept|autoApprove|alwaysAllow)\W{0,6}true",
    re.IGNORECASE,
)


def _first(labels: Iterable[Label]) -> Label | None:
    ordered = sorted(labels, key=lambda label: (label.line, label.what))
    return ordered[0] if ordered else None


def kinds(taint: Taint) -> frozenset[str]:
    """The kinds of the labels of ``taint``."""
    return frozenset(label.kind for label in taint)


def without(taint: Taint, kind: str) -> Taint:
    """``taint`` without its labels of ``kind``."""
    return frozenset(label for label in taint if label.kind != kind)


def labels_of(taint: Taint, kind: str) -> Iterator[Label]:
    """The labels of ``taint`` of ``kind``."""
    return (label for label in taint if label.kind == kind)
