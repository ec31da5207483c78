"""What a Python script does with secrets, downloads and decoded payloads, from its parse
by the standard library's :mod:`ast` (the exact grammar of the running Python; no
dependency, ~5 MB/s).

The module's statements run in order over abstract values (shape and labels, as in
:mod:`~skilldeck.engine.safety._shell`): assignments, f-strings, ``+``/``%``/``.format``,
``os.path.join`` and ``pathlib`` ``/`` build shapes; containers and method calls carry
labels (``d.update(os.environ)`` labels ``d``); a file opened for writing remembers its
path, so ``open(p, "wb").write(r.content)`` then ``subprocess.run([p])`` is a download
run. The script's own functions run with their arguments bound where they are called,
and once more on their own (parameters unknown) so a function nobody calls in the file
is judged too. Commands given to ``subprocess``/``os.system`` are read by the shell
analysis, with the Python values they are built from.

Not followed: attributes of objects (``self.x``), data through classes, generators,
``getattr`` with computed names, imports of other files.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from skilldeck.engine.safety._flow import (
    CLEAN,
    NESTED,
    UNKNOWN,
    Label,
    Line,
    PVal,
    Taint,
    Verdicts,
    elided,
    placeholder_host,
    sensitive_path,
    token_label,
    url_host,
)
from skilldeck.engine.safety._hits import Hit, shorten
from skilldeck.engine.safety._shell import ShellAnalysis, Value, norm_path, shell_text_hits
from skilldeck.engine.safety._shell_parse import Simple

_MAX_DEPTH = 4


_UNKNOWN = PVal()
_ENV = "the whole environment"
_HTTP = {
    "requests",
    "httpx",
    "aiohttp",
    "urllib3",
    "requests.Session",
    "httpx.Client",
    "httpx.AsyncClient",
    "aiohttp.ClientSession",
    "urllib3.PoolManager",
}
_HTTP_METHODS = frozenset(
    {"get", "post", "put", "patch", "delete", "head", "options", "request", "stream", "urlopen"}
)
_DECODERS = frozenset(
    {
        "base64.b64decode",
        "base64.b32decode",
        "base64.b16decode",
        "base64.a85decode",
        "base64.b85decode",
        "base64.urlsafe_b64decode",
        "base64.standard_b64decode",
        "base64.decodebytes",
        "base64.decodestring",
        "codecs.decode",
        "binascii.a2b_base64",
        "binascii.unhexlify",
        "binascii.a2b_hex",
        "bytes.fromhex",
        "zlib.decompress",
        "gzip.decompress",
        "bz2.decompress",
        "lzma.decompress",
        "marshal.loads",
        "pickle.loads",
        "bytearray.fromhex",
    }
)
#: What runs code the bytes it is given describe (pickle's ``__reduce__``, marshalled code,
#: YAML's ``!!python/object/apply`` tags without a safe loader).
_DESERIALISERS = frozenset(
    {
        "pickle.loads",
        "pickle.load",
        "cPickle.loads",
        "_pickle.loads",
        "dill.loads",
        "dill.load",
        "cloudpickle.loads",
        "cloudpickle.load",
        "joblib.load",
        "torch.load",
        "jsonpickle.decode",
        "shelve.open",
        "yaml.load",
        "yaml.load_all",
        "yaml.unsafe_load",
        "yaml.unsafe_load_all",
        "marshal.loads",
        "pandas.read_pickle",
        "numpy.load",
    }
)


def _safe_loader(node: ast.Call) -> bool:
    """Whether ``yaml.load(...)`` is given a safe loader (``SafeLoader``, ``CSafeLoader``,
    ``BaseLoader``)."""
    for value in [*node.args[1:], *(k.value for k in node.keywords if k.arg == "Loader")]:
        name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")
        if "Safe" in name or name == "BaseLoader":
            return True
    return False


_EXECUTORS = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "builtins.exec",
        "builtins.eval",
        "runpy.run_path",
        "runpy.run_module",
        "__import__",
        "importlib.import_module",
    }
)
_SHELL_RUNNERS = frozenset(
    {
        "os.system",
        "os.popen",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "commands.getoutput",
        "os.spawnl",
        "os.spawnlp",
        "os.spawnv",
        "os.spawnvp",
        "os.execv",
        "os.execvp",
        "os.execl",
        "os.execlp",
        "os.execve",
        "os.execvpe",
        "pty.spawn",
        "asyncio.create_subprocess_shell",
        "asyncio.create_subprocess_exec",
    }
)
_DNS = frozenset(
    {
        "socket.gethostbyname",
        "socket.gethostbyname_ex",
        "socket.getaddrinfo",
        "dns.resolver.resolve",
        "dns.resolver.query",
        "dns.resolver.Resolver.resolve",
        "dns.resolver.Resolver.query",
    }
)
_SHELLS = re.compile(r"^(?:/usr)?(?:/bin/)?(?:ba|z|da|k|c|tc)?sh$|cmd(?:\.exe)?$|powershell|pwsh")


class _Return(Exception):
    pass


@dataclass(slots=True)
class _Frame:
    vars: dict[str, PVal] = field(default_factory=dict)
    returned: list[PVal] = field(default_factory=list)


class PythonAnalysis:
    """Runs a module's statements over :class:`PVal` values, reporting to ``verdicts``."""

    def __init__(self, text: str, verdicts: Verdicts) -> None:
        self.text = text
        self.verdicts = verdicts
        self.line = verdicts.line_of
        self.frames = [_Frame()]
        self.imports: dict[str, str] = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.depth = 0
        self.shell = ShellAnalysis(text, verdicts, nested=1)
        #: Hosts of sockets whose descriptor became standard input/output (``os.dup2``).
        self.dup_hosts: list[str] = []
        self._starts = [0]
        for match in re.finditer("\n", text):
            self._starts.append(match.end())
        self._ascii = text.isascii()

    # --- offsets ----------------------------------------------------------------------

    def offset(self, line: int, column: int) -> int:
        start = self._starts[min(line - 1, len(self._starts) - 1)]
        if self._ascii:
            return start + column
        stop = self.text.find("\n", start)
        source = self.text[start : len(self.text) if stop < 0 else stop]
        return start + len(source.encode("utf-8")[:column].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end_line = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
        end_col = getattr(node, "end_col_offset", None) or node.col_offset  # type: ignore[attr-defined]
        return start, max(start, self.offset(end_line, end_col))

    def source(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    # --- statements -------------------------------------------------------------------

    @property
    def vars(self) -> dict[str, PVal]:
        return self.frames[-1].vars

    def lookup(self, name: str) -> PVal | None:
        for frame in reversed(self.frames):
            if name in frame.vars:
                return frame.vars[name]
        return None

    def module(self, tree: ast.Module) -> None:
        self.block(tree.body)
        for function in list(self.functions.values()):  # each function on its own, too
            self.frames.append(_Frame())
            self.depth += 1
            try:
                self.block(function.body)
            except _Return:
                pass
            finally:
                self.depth -= 1
                self.frames.pop()

    def block(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            for alias in node.names:
                qual = f"{module}.{alias.name}" if module else alias.name
                name = alias.asname or (alias.name if module else alias.name.split(".")[0])
                self.imports[name] = qual if (module or alias.asname) else name
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.functions.setdefault(f"{node.name}.{item.name}", item)
        elif isinstance(node, ast.Assign):
            value = self.expr(node.value)
            for target in node.targets:
                self.assign(target, value, node)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            if node.value is not None:
                value = self.expr(node.value)
                if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                    old = self.lookup(node.target.id) or _UNKNOWN
                    value = PVal(
                        _concat(old.shape, value.shape),
                        old.taint | value.taint,
                        pieces=old.pieces + _pieces(value),
                    )
                self.assign(node.target, value, node)
        elif isinstance(node, ast.Expr):
            self.expr(node.value)
        elif isinstance(node, ast.Return):
            value = self.expr(node.value) if node.value is not None else _UNKNOWN
            self.frames[-1].returned.append(value)
        elif isinstance(node, (ast.If, ast.While)):
            self.expr(node.test)
            self.block(node.body)
            self.block(node.orelse)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            items = self.expr(node.iter)
            self.assign(node.target, PVal(items.shape, items.taint, path=items.path), node)
            self.block(node.body)
            self.block(node.orelse)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for with_item in node.items:
                value = self.expr(with_item.context_expr)
                if with_item.optional_vars is not None:
                    self.assign(with_item.optional_vars, value, node)
            self.block(node.body)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            self.block(node.body)  # type: ignore[attr-defined]
            for handler in node.handlers:  # type: ignore[attr-defined]
                self.block(handler.body)
            self.block(node.orelse)  # type: ignore[attr-defined]
            self.block(node.finalbody)  # type: ignore[attr-defined]
        elif type(node).__name__ == "Match":
            self.expr(node.subject)  # type: ignore[attr-defined]
            for case in node.cases:  # type: ignore[attr-defined]
                self.block(case.body)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def assign(self, target: ast.expr, value: PVal, node: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            self.vars[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.assign(element, PVal(UNKNOWN, value.taint), node)
        elif isinstance(target, ast.Subscript):
            key = self.expr(target.slice)
            start, end = self.span(node)
            self.verdicts.safeguards(
                f'"{key.shape}": "{value.shape}"', start, end, command=self.source(node)
            )
            base = target.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name) and value.taint:
                old = self.lookup(base.id) or _UNKNOWN
                self.vars[base.id] = PVal(old.shape, old.taint | value.taint, old.qual, old.path)
        elif isinstance(target, ast.Attribute):
            start, end = self.span(node)
            self.verdicts.safeguards(
                f'"{target.attr}": "{value.shape}"', start, end, command=self.source(node)
            )

    # --- expressions ------------------------------------------------------------------

    def expr(self, node: ast.expr | None) -> PVal:
        if node is None:
            return _UNKNOWN
        if isinstance(node, ast.Constant):
            constant = node.value
            if isinstance(constant, str):
                return PVal(constant, pieces=((constant, CLEAN),))
            if isinstance(constant, bytes):
                text = constant.decode("latin-1")
                return PVal(text, pieces=((text, CLEAN),))
            if isinstance(constant, (int, float)) and not isinstance(constant, bool):
                return PVal(str(constant))
            return _UNKNOWN
        if isinstance(node, ast.JoinedStr):
            shapes: list[str] = []
            taint: Taint = CLEAN
            pieces: list[tuple[str, Taint]] = []
            for part in node.values:
                value = self.expr(part.value if isinstance(part, ast.FormattedValue) else part)
                shapes.append(value.shape)
                taint |= value.taint
                pieces += _pieces(value)
            return PVal("".join(shapes), taint, pieces=tuple(pieces))
        if isinstance(node, ast.BinOp):
            left, right = self.expr(node.left), self.expr(node.right)
            taint = left.taint | right.taint
            if isinstance(node.op, ast.Add):
                return PVal(
                    _concat(left.shape, right.shape), taint, pieces=_pieces(left) + _pieces(right)
                )
            if isinstance(node.op, ast.Div) and (left.qual == "pathlib.Path" or left.path):
                path = f"{left.path or left.shape}/{right.shape}"
                return PVal(path, taint, qual="pathlib.Path", path=path)
            if isinstance(node.op, ast.Mod):
                return PVal(
                    _format(left.shape, [right.shape]), taint, pieces=_pieces(left) + _pieces(right)
                )
            return PVal(UNKNOWN, taint)
        if isinstance(node, ast.Name):
            found = self.lookup(node.id)
            if found is not None:
                return found
            if node.id in self.imports:
                return PVal(UNKNOWN, qual=self.imports[node.id])
            return PVal(UNKNOWN, qual=node.id if node.id in _BUILTINS else None)
        if isinstance(node, ast.Attribute):
            base = self.expr(node.value)
            if base.qual is not None:
                qual = f"{base.qual}.{node.attr}"
                if qual == "os.environ":
                    return PVal(
                        UNKNOWN,
                        frozenset({Label("env", _ENV, self.line(self.span(node)[0]))}),
                        qual="os.environ",
                    )
                return PVal(UNKNOWN, base.taint, qual=qual, path=base.path, host=base.host)
            if node.attr in ("text", "content", "body", "data"):
                return PVal(UNKNOWN, base.taint)
            return PVal(UNKNOWN, base.taint, path=base.path, host=base.host)
        if isinstance(node, ast.Subscript):
            if self._qual(node.value) == "os.environ":
                key = self.expr(node.slice)
                return self._env_var(key.shape, node)
            base = self.expr(node.value)
            self.expr(node.slice)
            step = node.slice.step if isinstance(node.slice, ast.Slice) else None
            if isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.USub):
                # text written backwards: `exec(code[::-1])`
                reversed_label = Label("decode", "reversed text", self._line(node))
                return PVal(UNKNOWN, base.taint | {reversed_label})
            return PVal(UNKNOWN, base.taint, path=base.path, host=base.host)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            values = [self.expr(e) for e in node.elts]
            chosen = next((v for v in values if sensitive_path(v.shape, 0) is not None), None)
            shape = chosen.shape if chosen else " ".join(v.shape for v in values)
            return PVal(shape, _union(v.taint for v in values) | _paths(values, self._line(node)))
        if isinstance(node, ast.Dict):
            parts: list[str] = []
            taint = CLEAN
            for key_node, value_node in zip(node.keys, node.values, strict=True):
                value = self.expr(value_node)
                taint |= value.taint
                if key_node is None:
                    parts.append(value.shape)
                    continue
                key = self.expr(key_node)
                taint |= key.taint
                parts.append(f'"{key.shape}": "{value.shape}"')
            shape = "{" + ", ".join(parts) + "}"
            start, end = self.span(node)
            self.verdicts.safeguards(shape, start, end, command=self.source(node))
            return PVal(shape, taint)
        if isinstance(node, ast.IfExp):
            self.expr(node.test)
            a, b = self.expr(node.body), self.expr(node.orelse)
            return PVal(a.shape if a.shape == b.shape else UNKNOWN, a.taint | b.taint)
        if isinstance(node, ast.BoolOp):
            values = [self.expr(v) for v in node.values]
            return PVal(
                values[0].shape if len(values) == 1 else UNKNOWN, _union(v.taint for v in values)
            )
        if isinstance(node, ast.Await):
            return self.expr(node.value)
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value)
            self.vars[node.target.id] = value
            return value
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for generator in node.generators:
                items = self.expr(generator.iter)
                self.assign(generator.target, items, ast.Pass())
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            values = [self.expr(e) for e in elements]
            return PVal(UNKNOWN, _union(v.taint for v in values))
        if isinstance(node, ast.Starred):
            return self.expr(node.value)
        if isinstance(node, ast.Lambda):
            return _UNKNOWN
        values = [
            self.expr(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
        ]
        return PVal(UNKNOWN, _union(v.taint for v in values))

    def _line(self, node: ast.AST) -> int:
        return self.line(self.span(node)[0])

    def _qual(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            if self.lookup(node.id) is not None:
                return self.lookup(node.id).qual  # type: ignore[union-attr]
            return self.imports.get(node.id, node.id if node.id in _BUILTINS else None)
        if isinstance(node, ast.Attribute):
            base = self._qual(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _env_var(self, name: str, node: ast.AST) -> PVal:
        if name in ("HOME", "USERPROFILE"):
            return PVal("~")
        label = token_label(name, self._line(node)) if UNKNOWN not in name else None
        return PVal(UNKNOWN, frozenset({label}) if label else CLEAN)

    # --- calls ------------------------------------------------------------------------

    def call(self, node: ast.Call) -> PVal:
        func = node.func
        receiver: PVal | None = None
        method = ""
        if isinstance(func, ast.Attribute):
            method = func.attr
            if self._qual(func.value) == "os.environ" and method in ("get", "setdefault", "pop"):
                key = self.expr(node.args[0]) if node.args else _UNKNOWN
                return self._env_var(key.shape, node)
            receiver = self.expr(func.value)
            qual = f"{receiver.qual}.{method}" if receiver.qual else None
        elif isinstance(func, ast.Call):  # `getattr(builtins, "ex" + "ec")(...)`
            qual = self.expr(func).qual
        else:
            qual = self._qual(func)
            if (
                isinstance(func, ast.Name)
                and func.id in self.functions
                and self.lookup(func.id) is None
            ):
                return self._local_call(self.functions[func.id], node)
        args = [self.expr(a) for a in node.args]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg not in ("env",)}
        everything = [*args, *kwargs.values()]
        taint = _union(v.taint for v in everything)
        start, end = self.span(node)
        text = self.source(node)
        line = self.line(start)
        first = args[0] if args else kwargs.get("url") or kwargs.get("args") or _UNKNOWN

        if qual in ("os.getenv", "os.environ.get", "os.getenvb"):
            return self._env_var(first.shape, node)
        if (
            qual == "getattr"
            and len(args) > 1
            and args[1].shape.strip("'\"") in ("exec", "eval", "compile", "system", "popen")
            and not isinstance(node.args[1], ast.Constant)
        ):
            # `getattr(builtins, "ex" + "ec")`: a runner whose name is built, to hide it
            return PVal(UNKNOWN, qual="builtins." + args[1].shape.strip("'\""))
        if qual in (
            "os.path.expanduser",
            "os.path.expandvars",
            "os.path.abspath",
            "os.path.realpath",
            "os.path.normpath",
            "pathlib.Path",
            "pathlib.PurePath",
            "pathlib.PosixPath",
            "pathlib.WindowsPath",
            "str",
            "os.fspath",
            "pathlib.Path.expanduser",
            "pathlib.Path.resolve",
        ):
            base = first if args else (receiver or _UNKNOWN)
            shape = base.path or base.shape
            return PVal(
                shape,
                base.taint,
                qual="pathlib.Path" if "Path" in (qual or "") else None,
                path=shape if "Path" in (qual or "") else None,
            )
        if qual in ("pathlib.Path.home", "os.path.expanduser.home") or (
            qual and qual.endswith("Path.home")
        ):
            return PVal("~", qual="pathlib.Path", path="~")
        if qual == "os.path.join" or (method == "joinpath" and receiver is not None):
            parts = (
                [receiver.path or receiver.shape] if receiver and method == "joinpath" else []
            ) + [a.shape for a in args]
            path = "/".join(p.rstrip("/") for p in parts)
            return PVal(
                path, taint, qual="pathlib.Path" if method else None, path=path if method else None
            )
        if method == "format" and receiver is not None:
            return PVal(
                _format(receiver.shape, [a.shape for a in args]),
                receiver.taint | taint,
                pieces=_pieces(receiver) + tuple(p for a in args for p in _pieces(a)),
            )
        if method == "join" and receiver is not None and args:
            return PVal(UNKNOWN, taint | receiver.taint)
        if (
            qual == "chr"
            or (
                qual in ("bytes", "bytearray", "str")
                and node.args
                and isinstance(node.args[0], (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp))
            )
            or (qual == "map" and node.args and getattr(node.args[0], "id", "") == "chr")
        ):
            # text spelled as character codes: `exec("".join(map(chr, [105, 109, ...])))`
            return PVal(UNKNOWN, taint | {Label("decode", "character codes", line)})
        if (qual in _DESERIALISERS or method in ("unsafe_load", "unsafe_load_all")) and (
            qual not in ("yaml.load", "yaml.load_all") or not _safe_loader(node)
        ):
            # unpickling (or yaml.load without a safe loader) runs what the bytes say
            self.verdicts.execute(first.taint, start, end, command=text)
            return PVal(UNKNOWN, taint | {Label("decode", qual or method, line)})
        if qual in _DECODERS or (
            method
            in ("b64decode", "decodebytes", "unhexlify", "fromhex", "a2b_base64", "decompress")
        ):
            if (
                qual == "codecs.decode"
                and len(args) > 1
                and args[1].shape.lower()
                not in (
                    "base64",
                    "hex",
                    "rot13",
                    "rot_13",
                    "zlib",
                    "bz2",
                    "base64_codec",
                    "hex_codec",
                    "zip",
                )
            ):
                return PVal(UNKNOWN, taint)
            if first.shape and elided(first.shape):
                return PVal(UNKNOWN, taint)  # "<payload elided>": teaching, nothing decoded
            return PVal(UNKNOWN, taint | {Label("decode", qual or method, line)})
        if method == "decode" and receiver is not None:
            return PVal(UNKNOWN, receiver.taint)
        if qual in _EXECUTORS:
            code = first
            self.verdicts.execute(code.taint, start, end, command=text)
            if code.shape and UNKNOWN not in code.shape and qual in ("exec", "eval", "compile"):
                self._nested(code.shape, "python", start, end)
            return PVal(UNKNOWN, code.taint)
        if qual in _SHELL_RUNNERS:
            return self._run(qual, args, kwargs, node, start, end, text)
        if qual in _DNS or (
            receiver is not None
            and receiver.qual == "dns.resolver.Resolver"
            and method in ("resolve", "query")
        ):
            self._dns(first, node.args[0] if node.args else None, start, end, text)
            return _UNKNOWN
        if qual in ("urllib.request.urlretrieve", "urllib.urlretrieve", "wget.download"):
            url = first
            path = args[1].shape if len(args) > 1 else url.shape.rsplit("/", 1)[-1]
            self._send(url, taint - url.taint if False else CLEAN, start, end, text)
            self.shell.write(
                path,
                Value(UNKNOWN, frozenset({Label("download", shorten(url.shape, 80), line)})),
                append=False,
                start=start,
                end=end,
                command=text,
            )
            return PVal(path)
        if qual in ("urllib.request.Request", "urllib2.Request"):
            data = _union(v.taint for v in [*args[1:], *kwargs.values()])
            return PVal(
                UNKNOWN,
                data | first.taint,
                qual="urllib.request.Request",
                host=url_host(first.shape),
                path=first.shape,
            )
        if qual in ("urllib.request.urlopen", "urllib2.urlopen", "urllib.urlopen"):
            request = first.qual == "urllib.request.Request"
            opened = first.host if request else url_host(first.shape)
            address = (first.path if request else first.shape) or UNKNOWN
            self.verdicts.send(taint, start, end, command=text, host=opened, url=address)
            return PVal(UNKNOWN, frozenset({Label("download", shorten(address, 80), line)}))
        if qual in ("socket.socket", "socket.create_connection"):
            host = None
            if qual == "socket.create_connection" and args:
                host = _tuple_host(node.args[0], self)
            return PVal(UNKNOWN, qual="socket.socket", host=host)
        if qual in (
            "http.client.HTTPConnection",
            "http.client.HTTPSConnection",
            "smtplib.SMTP",
            "smtplib.SMTP_SSL",
            "ftplib.FTP",
            "ftplib.FTP_TLS",
            "telnetlib.Telnet",
            "paramiko.SSHClient",
        ):
            return PVal(UNKNOWN, qual=qual, host=url_host("//" + first.shape) or first.shape)
        if receiver is not None and receiver.qual in ("socket.socket",) and method == "connect":
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and node.args:
                old = self.lookup(func.value.id) or receiver
                self.vars[func.value.id] = PVal(
                    old.shape, old.taint, old.qual, old.path, _tuple_host(node.args[0], self)
                )
            return _UNKNOWN
        if (
            receiver is not None
            and receiver.qual in ("socket.socket",)
            and method in ("send", "sendall", "sendto", "sendfile")
        ):
            self.verdicts.send(taint, start, end, command=text, host=receiver.host)
            return _UNKNOWN
        if receiver is not None and receiver.qual in ("socket.socket",) and method == "fileno":
            return PVal(UNKNOWN, qual="socket.fileno", host=receiver.host)
        if qual == "os.dup2" and args and args[0].qual == "socket.fileno":
            self.dup_hosts.append(args[0].host or "")
            return _UNKNOWN
        if (
            receiver is not None
            and receiver.qual
            in (
                "http.client.HTTPConnection",
                "http.client.HTTPSConnection",
                "smtplib.SMTP",
                "smtplib.SMTP_SSL",
                "ftplib.FTP",
                "ftplib.FTP_TLS",
                "telnetlib.Telnet",
            )
            and method
            in (
                "request",
                "send",
                "sendmail",
                "send_message",
                "storbinary",
                "storlines",
                "write",
                "putrequest",
                "putheader",
                "endheaders",
            )
        ):
            self.verdicts.send(taint, start, end, command=text, host=receiver.host)
            return _UNKNOWN
        if self._http(qual, receiver, method):
            url = kwargs.get("url") or (args[1] if method == "request" and len(args) > 1 else first)
            self._send(url, taint, start, end, text)
            return PVal(
                UNKNOWN,
                frozenset({Label("download", shorten(url.shape, 80), line)}),
                qual="requests.Response",
            )
        if qual in ("keyring.get_password", "keyring.get_credential"):
            return PVal(UNKNOWN, frozenset({Label("secret", "the keyring", line)}))
        if qual in ("open", "io.open", "codecs.open", "builtins.open") or (
            method == "open" and receiver is not None and receiver.path
        ):
            path = (
                receiver.path or UNKNOWN
                if method == "open" and receiver is not None
                else first.shape
            )
            mode_value = (
                args[1]
                if len(args) > 1 and qual != "pathlib.Path.open"
                else (
                    args[0]
                    if args and method == "open" and receiver is not None and receiver.path
                    else kwargs.get("mode") or PVal("r")
                )
            )
            mode = mode_value.shape
            if any(flag in mode for flag in "wax"):
                return PVal(UNKNOWN, qual="file.write", path=path)
            return PVal(UNKNOWN, self._read(path or UNKNOWN, line), qual="file.read", path=path)
        if receiver is not None and receiver.path and method in ("read_text", "read_bytes"):
            return PVal(UNKNOWN, receiver.taint | self._read(receiver.path, line))
        if receiver is not None and receiver.path and method in ("write_text", "write_bytes"):
            self._write(receiver.path, args[0] if args else _UNKNOWN, False, start, end, text)
            return _UNKNOWN
        if (
            receiver is not None
            and receiver.qual == "file.write"
            and method in ("write", "writelines")
        ):
            self._write(receiver.path or UNKNOWN, first, True, start, end, text)
            return _UNKNOWN
        if qual in ("json.dump", "yaml.dump", "yaml.safe_dump", "toml.dump", "pickle.dump") and (
            len(args) > 1 and args[1].qual == "file.write"
        ):
            self._write(args[1].path or UNKNOWN, args[0], True, start, end, text)
            return _UNKNOWN
        if qual in ("json.dumps", "str", "repr", "dict", "list", "bytes", "bytearray"):
            return PVal(
                first.shape if qual == "json.dumps" else UNKNOWN, taint, pieces=_pieces(first)
            )
        if (
            qual
            in (
                "shutil.copy",
                "shutil.copy2",
                "shutil.copyfile",
                "shutil.move",
                "os.rename",
                "shutil.copytree",
            )
            and len(args) > 1
        ):
            held = self._read(args[0].shape, line)
            self.shell.state.files[_norm(args[1].shape)] = Value(UNKNOWN, held)
            target = args[1].shape
            source_name = args[0].shape.replace("\\", "/").rsplit("/", 1)[-1]
            if source_name.endswith(".pth") and not target.endswith(".pth"):
                target = target.rstrip("/") + "/" + source_name  # copied into a folder
            if target.endswith((".pth", "customize.py")):
                self._write(target, PVal(UNKNOWN, held), False, start, end, text)
            return PVal(args[1].shape)
        if qual in ("shutil.make_archive",) and args:
            sources = [args[2].shape] if len(args) > 2 else []
            held = _union(self._read(s, line) for s in sources)
            self.shell.state.files[_norm(args[0].shape)] = Value(UNKNOWN, held)
            return PVal(args[0].shape)
        if qual in ("pty.spawn",) or (qual or "").startswith("os.exec"):
            return self._run(qual or "", args, kwargs, node, start, end, text)
        # anything else: its result carries its inputs; a method call with labelled
        # arguments labels its receiver (d.update(os.environ), zf.write(path))
        read = _union(self._read(v.shape, line) for v in args if v.shape and UNKNOWN not in v.shape)
        result_taint = taint | read | (receiver.taint if receiver is not None else CLEAN)
        if (
            receiver is not None
            and isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and (taint or read)
        ):
            old = self.lookup(func.value.id) or receiver
            self.vars[func.value.id] = PVal(
                old.shape, old.taint | taint | read, old.qual, old.path, old.host
            )
            if old.path and old.qual and old.qual.startswith(("zipfile", "tarfile")):
                self.shell.state.files[_norm(old.path)] = Value(UNKNOWN, old.taint | taint | read)
        if qual in ("zipfile.ZipFile", "tarfile.open", "tarfile.TarFile", "sqlite3.connect"):
            return PVal(UNKNOWN, result_taint, qual=qual, path=first.shape)
        return PVal(UNKNOWN, result_taint, qual=_RESULT_QUAL.get(qual or ""))

    def _http(self, qual: str | None, receiver: PVal | None, method: str) -> bool:
        if method not in _HTTP_METHODS:
            return False
        if qual is not None and qual.rsplit(".", 1)[0] in _HTTP:
            return True
        return receiver is not None and receiver.qual in _HTTP

    def _send(self, url: PVal, taint: Taint, start: int, end: int, text: str) -> None:
        self.verdicts.send(
            taint | url.taint, start, end, command=text, host=url_host(url.shape), url=url.shape
        )

    def _read(self, path: str, line: int) -> Taint:
        if not path or (UNKNOWN in path and "/" not in path and "\\" not in path):
            return CLEAN
        label = sensitive_path(path, line)
        held = self.shell.state.files.get(_norm(path))
        taint = held.taint if held is not None else CLEAN
        return taint | {label} if label is not None else taint

    def _write(self, path: str, value: PVal, append: bool, start: int, end: int, text: str) -> None:  # noqa: PLR0917 - the call's parts
        self.shell.write(
            path, Value(value.shape, value.taint), append=append, start=start, end=end, command=text
        )

    def _local_call(self, function: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.Call) -> PVal:
        args = [self.expr(a) for a in node.args]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg}
        if self.depth >= _MAX_DEPTH:
            return PVal(UNKNOWN, _union(v.taint for v in [*args, *kwargs.values()]))
        frame = _Frame()
        params = [a.arg for a in function.args.posonlyargs + function.args.args]
        for name, value in zip(params, args, strict=False):
            frame.vars[name] = value
        for keyword, value in kwargs.items():
            if keyword is not None:
                frame.vars[keyword] = value
        self.frames.append(frame)
        self.depth += 1
        try:
            self.block(function.body)
        finally:
            self.depth -= 1
            self.frames.pop()
        returned = frame.returned
        if not returned:
            return _UNKNOWN
        return PVal(
            returned[0].shape if len(returned) == 1 else UNKNOWN,
            _union(v.taint for v in returned),
            returned[0].qual,
            returned[0].path,
            returned[0].host,
        )

    def _run(  # noqa: PLR0917 - the call's parts
        self,
        qual: str,
        args: list[PVal],
        kwargs: dict[str | None, PVal],
        node: ast.Call,
        start: int,
        end: int,
        text: str,
    ) -> PVal:
        """A command run by ``subprocess`` / ``os.system``: read by the shell analysis,
        with the values it is built from."""
        command_node = node.args[0] if node.args else None
        words: list[Value] = []
        shell = qual in (
            "os.system",
            "os.popen",
            "subprocess.getoutput",
            "subprocess.getstatusoutput",
            "commands.getoutput",
            "asyncio.create_subprocess_shell",
        ) or (kwargs.get("shell") is not None and kwargs["shell"].shape == "True")
        if isinstance(command_node, (ast.List, ast.Tuple)) and not shell:
            words = [Value(v.shape, v.taint) for v in (self.expr(e) for e in command_node.elts)]
        elif qual.startswith(("os.exec", "os.spawn", "asyncio.create_subprocess_exec")):
            words = (
                [Value(a.shape, a.taint) for a in args[1:]]
                if qual.startswith("os.exec")
                else [Value(a.shape, a.taint) for a in args]
            )
        elif qual == "pty.spawn":
            words = [Value(args[0].shape, args[0].taint)] if args else []
        else:
            command = args[0] if args else _UNKNOWN
            self.verdicts.execute(command.taint, start, end, command=text)
            self._shell_text(command, start, end)
            return PVal(UNKNOWN, command.taint)
        if words and _SHELLS.search(words[0].shape.rsplit("/", 1)[-1]) and self.dup_hosts:
            host = next((h for h in self.dup_hosts if h), "")
            if not placeholder_host(host):
                self.verdicts.add("SD1025", start, end, host=host, command=shorten(text))
            return _UNKNOWN
        if words:
            stdin = kwargs.get("input")
            fake = Simple([], [], [], start, end)
            out = self.shell._dispatch(
                fake, words, Value(UNKNOWN, stdin.taint) if stdin else Value(""), text
            )
            return PVal(UNKNOWN, out.taint)
        return _UNKNOWN

    def _shell_text(self, command: PVal, start: int, end: int) -> None:
        """A shell command string built in Python: each value it was built from stands in
        the shell as a variable holding that value."""
        if command.pieces:
            hits = shell_text_hits(command.pieces, self.shell.state.files, self.line(start), "__py")
            self.verdicts.nested(hits, start, end)

    def _nested(self, code: str, language: str, start: int, end: int) -> None:
        analyse = NESTED.get(language)
        if analyse is None or len(code) > 50_000:
            return
        self.verdicts.nested(analyse(code, 1), start, end)

    def _dns(self, name: PVal, node: ast.expr | None, start: int, end: int, text: str) -> None:
        if node is None or not isinstance(node, (ast.JoinedStr, ast.BinOp)):
            return
        self.verdicts.dns(name.pieces, name.taint, start, end, command=text)


_BUILTINS = frozenset(
    {
        "open",
        "exec",
        "eval",
        "compile",
        "__import__",
        "str",
        "bytes",
        "dict",
        "list",
        "repr",
        "bytearray",
        "chr",
        "map",
        "getattr",
    }
)
_RESULT_QUAL = {
    "requests.Session": "requests.Session",
    "httpx.Client": "httpx.Client",
    "httpx.AsyncClient": "httpx.AsyncClient",
    "aiohttp.ClientSession": "aiohttp.ClientSession",
    "urllib3.PoolManager": "urllib3.PoolManager",
    "dns.resolver.Resolver": "dns.resolver.Resolver",
    "requests.session": "requests.Session",
}


def _tuple_host(node: ast.expr, analysis: PythonAnalysis) -> str | None:
    if isinstance(node, ast.Tuple) and node.elts:
        return analysis.expr(node.elts[0]).shape
    value = analysis.expr(node)
    return value.shape if UNKNOWN not in value.shape else None


def _pieces(value: PVal) -> tuple[tuple[str, Taint], ...]:
    return value.pieces or ((value.shape, value.taint),)


def _concat(a: str, b: str) -> str:
    return a + b


def _format(template: str, values: list[str]) -> str:
    if UNKNOWN in template:
        return UNKNOWN
    parts = iter(values)
    return re.sub(r"%[sdr]|\{[^{}]*\}", lambda _m: next(parts, UNKNOWN), template)


def _norm(path: str) -> str:
    return norm_path(path)


def _paths(values: list[PVal], line: int) -> Taint:
    del line
    return CLEAN


def _union(taints: Iterable[Taint]) -> Taint:
    out: set[Label] = set()
    for taint in taints:
        out |= taint
    return frozenset(out)


def python_hits(
    text: str, start: int = 0, end: int | None = None
) -> tuple[list[Hit], tuple[int, ...]]:
    """The hits of the Python code ``text[start:end]`` (offsets into ``text``), and 1 when
    it does not parse (0 when it does)."""
    end = len(text) if end is None else end
    code = text[start:end]
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return [], (start,)
    verdicts = Verdicts(Line(code))
    try:
        PythonAnalysis(code, verdicts).module(tree)
    except RecursionError:
        return [], (start,)
    hits = verdicts.hits
    if start:
        hits = [Hit(h.code, h.start + start, h.end + start, h.fields) for h in hits]
    return hits, ()
