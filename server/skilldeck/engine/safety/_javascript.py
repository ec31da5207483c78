"""What a JavaScript file does with secrets, downloads and decoded payloads, from its
ESTree parse by ``esprima2`` (PyPI 6.0.0, 2026-04, BSD-2-Clause: a pure-Python port of
Esprima that reads ECMAScript 2025 and JSX; ``docs/safety.md`` has why).

The program runs in order over the values of :mod:`~skilldeck.engine.safety._python`
(:class:`~skilldeck.engine.safety._python.PVal`): ``require``/``import`` name modules,
template literals and ``+`` build shapes, ``path.join`` and ``os.homedir()`` build paths,
objects and calls carry labels. Sources: ``process.env`` as a whole, its tokens, files
read with ``fs``; sinks: ``fetch``, ``axios``, ``http(s).request``/``get``,
``XMLHttpRequest``, ``navigator.sendBeacon``, ``WebSocket``, ``net`` sockets, ``dns``;
runs: ``eval``, ``Function``, ``vm``, ``child_process`` (its commands read by the shell
analysis). Functions of the file run with their arguments bound where called, and once
on their own; callbacks once, their parameters unknown.

Not followed: object properties assigned after creation (``o.x = secret`` labels
``o``, not ``o.x``), classes, promises' values through ``then`` chains (a callback's
parameter is unknown), bundled or minified code's indirections.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from skilldeck.engine.safety._flow import (
    CLEAN,
    NESTED,
    UNKNOWN,
    Label,
    Line,
    PVal,
    Taint,
    Verdicts,
    placeholder_host,
    sensitive_path,
    token_label,
    url_host,
)
from skilldeck.engine.safety._hits import Hit, shorten
from skilldeck.engine.safety._shell import ShellAnalysis, Value, norm_path, shell_text_hits
from skilldeck.engine.safety._shell_parse import Simple

#: ``esprima`` once imported (on the first JavaScript that opens a gate: its import
#: builds Unicode tables, ~50 ms and ~15 MB, that most runs never need).
_esprima: Any = None


def _parser() -> Any:
    global _esprima  # noqa: PLW0603 - a lazy import
    if _esprima is None:
        try:
            import esprima  # noqa: PLC0415 - lazy: see above
        except ImportError:  # pragma: no cover - a broken install: patterns judge the file
            return None
        _esprima = esprima
    return _esprima


_UNKNOWN = PVal()
_MAX_DEPTH = 4
_SHELL = re.compile(r"(?:^|/)(?:ba|z|da|k)?sh$|cmd(?:\.exe)?$|powershell|pwsh")
_CHILD = "child_process"


def _union(taints: Iterable[Taint]) -> Taint:
    out: set[Label] = set()
    for taint in taints:
        out |= taint
    return frozenset(out)


class JavaScriptAnalysis:
    """Runs a program's statements over values, reporting to ``verdicts``."""

    def __init__(self, text: str, verdicts: Verdicts) -> None:
        self.text = text
        self.verdicts = verdicts
        self.line = verdicts.line_of
        self.scopes: list[dict[str, PVal]] = [{}]
        self.functions: dict[str, Any] = {}
        self.callbacks: list[Any] = []
        self.depth = 0
        self.shell = ShellAnalysis(text, verdicts, nested=1)
        self.sockets: list[str] = []
        self.spawned_shell = False
        self.piped = False

    # --- scopes -------------------------------------------------------------------------

    def lookup(self, name: str) -> PVal | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def bind(self, name: str, value: PVal) -> None:
        self.scopes[-1][name] = value

    def span(self, node: Any) -> tuple[int, int]:
        start, end = node.range
        return start, end

    def source(self, node: Any) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    # --- statements ---------------------------------------------------------------------

    def program(self, tree: Any) -> None:
        self.block(tree.body)
        done: set[int] = set()
        for function in [*self.functions.values(), *self.callbacks]:
            if id(function) in done:
                continue
            done.add(id(function))
            self.scopes.append({})
            self.depth += 1
            try:
                self._body(function)
            finally:
                self.depth -= 1
                self.scopes.pop()
        if self.sockets and self.spawned_shell and self.piped:
            host = next((h for h in self.sockets if not placeholder_host(h)), None)
            if host is not None:
                self.verdicts.add(
                    "SD1025", 0, min(len(self.text), 200), host=host, command=shorten(self.text)
                )

    def _body(self, function: Any) -> list[PVal]:
        body = function.body
        if body is None:
            return []
        if getattr(body, "type", "") != "BlockStatement":
            return [self.expr(body)]
        returned: list[PVal] = []
        for statement in body.body:
            value = self.statement(statement)
            if value is not None:
                returned.append(value)
        return returned

    def block(self, statements: list[Any]) -> None:
        for statement in statements or []:
            self.statement(statement)

    def statement(self, node: Any) -> PVal | None:
        if node is None:
            return None
        kind = node.type
        if kind == "VariableDeclaration":
            for declaration in node.declarations:
                value = self.expr(declaration.init) if declaration.init is not None else _UNKNOWN
                self.pattern(declaration.id, value)
        elif kind == "ExpressionStatement":
            self.expr(node.expression)
        elif kind == "FunctionDeclaration":
            if node.id is not None:
                self.functions[node.id.name] = node
        elif kind == "ImportDeclaration":
            module = node.source.value
            for specifier in node.specifiers:
                if specifier.type == "ImportSpecifier":
                    imported = getattr(specifier.imported, "name", None) or getattr(
                        specifier.imported, "value", ""
                    )
                    self.bind(specifier.local.name, PVal(qual=f"{_module(module)}.{imported}"))
                else:
                    self.bind(specifier.local.name, PVal(qual=_module(module)))
        elif kind == "ReturnStatement":
            return self.expr(node.argument) if node.argument is not None else _UNKNOWN
        elif kind == "BlockStatement":
            for statement in node.body:
                returned = self.statement(statement)
                if returned is not None:
                    return returned
        elif kind == "IfStatement":
            self.expr(node.test)
            for branch in (node.consequent, node.alternate):
                returned = self.statement(branch)
                if returned is not None:
                    return returned
        elif kind in ("ForOfStatement", "ForInStatement"):
            items = self.expr(node.right)
            left = node.left
            target = left.declarations[0].id if left.type == "VariableDeclaration" else left
            self.pattern(target, PVal(items.shape, items.taint, path=items.path))
            self.statement(node.body)
        elif kind in ("ForStatement", "WhileStatement", "DoWhileStatement"):
            for part in ("init", "test", "update"):
                child = getattr(node, part, None)
                if child is not None:
                    if getattr(child, "type", "") == "VariableDeclaration":
                        self.statement(child)
                    else:
                        self.expr(child)
            self.statement(node.body)
        elif kind == "TryStatement":
            self.statement(node.block)
            if node.handler is not None:
                self.statement(node.handler.body)
            if node.finalizer is not None:
                self.statement(node.finalizer)
        elif kind == "SwitchStatement":
            self.expr(node.discriminant)
            for case in node.cases:
                self.block(case.consequent)
        elif kind in ("ExportNamedDeclaration", "ExportDefaultDeclaration"):
            declaration = node.declaration
            if declaration is not None:
                if declaration.type.endswith("Declaration"):
                    self.statement(declaration)
                else:
                    self.expr(declaration)
        elif kind == "LabeledStatement":
            self.statement(node.body)
        elif kind == "ClassDeclaration":
            for member in getattr(node.body, "body", []) or []:
                method = getattr(member, "value", None)
                if method is not None and getattr(method, "type", "").endswith(
                    "FunctionExpression"
                ):
                    self.callbacks.append(method)
        elif kind == "ThrowStatement":
            self.expr(node.argument)
        return None

    def pattern(self, target: Any, value: PVal) -> None:
        if target is None:
            return
        kind = target.type
        if kind == "Identifier":
            self.bind(target.name, value)
        elif kind == "ObjectPattern":
            for prop in target.properties:
                if prop.type == "RestElement":
                    self.pattern(prop.argument, value)
                    continue
                key = getattr(prop.key, "name", None) or getattr(prop.key, "value", None)
                qual = f"{value.qual}.{key}" if value.qual and key else None
                if value.qual == "process.env" and key:
                    self.pattern(prop.value, _env_var(str(key), self.line(target.range[0])))
                else:
                    self.pattern(prop.value, PVal(UNKNOWN, value.taint, qual=qual))
        elif kind == "ArrayPattern":
            for element in target.elements:
                self.pattern(element, PVal(UNKNOWN, value.taint))
        elif kind == "AssignmentPattern":
            self.pattern(target.left, value)
        elif kind == "RestElement":
            self.pattern(target.argument, value)
        elif kind == "MemberExpression":
            base = target.object
            while getattr(base, "type", "") == "MemberExpression":
                base = base.object
            prop = _property(target)
            start, end = self.span(target)
            self.verdicts.safeguards(
                f'"{prop}": "{value.shape}"',
                start,
                end,
                command=self.source(target) + " = " + shorten(value.shape),
            )
            if getattr(base, "type", "") == "Identifier" and value.taint:
                old = self.lookup(base.name) or _UNKNOWN
                self.bind(
                    base.name,
                    PVal(old.shape, old.taint | value.taint, old.qual, old.path, old.host),
                )

    # --- expressions --------------------------------------------------------------------

    def expr(self, node: Any) -> PVal:
        if node is None:
            return _UNKNOWN
        kind = node.type
        if kind == "Literal":
            value = node.value
            if isinstance(value, str):
                return PVal(value, pieces=((value, CLEAN),))
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return PVal(str(value))
            return _UNKNOWN
        if kind == "TemplateLiteral":
            shapes: list[str] = []
            taint: Taint = CLEAN
            pieces: list[tuple[str, Taint]] = []
            for index, quasi in enumerate(node.quasis):
                cooked = quasi.value.cooked if quasi.value.cooked is not None else quasi.value.raw
                shapes.append(cooked)
                pieces.append((cooked, CLEAN))
                if index < len(node.expressions):
                    value = self.expr(node.expressions[index])
                    shapes.append(value.shape)
                    taint |= value.taint
                    pieces += list(value.pieces or ((value.shape, value.taint),))
            return PVal("".join(shapes), taint, pieces=tuple(pieces))
        if kind == "TaggedTemplateExpression":
            return self.expr(node.quasi)
        if kind == "Identifier":
            found = self.lookup(node.name)
            if found is not None:
                return found
            return PVal(qual=node.name if node.name in _GLOBALS else None)
        if kind == "BinaryExpression":
            left, right = self.expr(node.left), self.expr(node.right)
            if node.operator == "+":
                return PVal(
                    left.shape + right.shape,
                    left.taint | right.taint,
                    pieces=(left.pieces or ((left.shape, left.taint),))
                    + (right.pieces or ((right.shape, right.taint),)),
                )
            return PVal(UNKNOWN, left.taint | right.taint)
        if kind == "MemberExpression":
            return self.member(node)
        if kind == "ChainExpression":
            return self.expr(node.expression)
        if kind in ("CallExpression", "NewExpression"):
            return self.call(node)
        if kind == "AssignmentExpression":
            value = self.expr(node.right)
            if node.operator == "+=" and node.left.type == "Identifier":
                old = self.lookup(node.left.name) or _UNKNOWN
                value = PVal(old.shape + value.shape, old.taint | value.taint)
            self.pattern(node.left, value)
            return value
        if kind == "ObjectExpression":
            parts: list[str] = []
            taint = CLEAN
            for prop in node.properties:
                if prop.type == "SpreadElement":
                    value = self.expr(prop.argument)
                    taint |= value.taint
                    continue
                value = self.expr(prop.value)
                taint |= value.taint
                key = getattr(prop.key, "name", None) or getattr(prop.key, "value", None)
                if prop.computed:
                    key = self.expr(prop.key).shape
                parts.append(f'"{key}": "{value.shape}"')
            shape = "{" + ", ".join(parts) + "}"
            start, end = self.span(node)
            self.verdicts.safeguards(shape, start, end, command=self.source(node))
            return PVal(shape, taint)
        if kind == "ArrayExpression":
            values = [self.expr(e) for e in node.elements if e is not None]
            chosen = next((v for v in values if sensitive_path(v.shape, 0) is not None), None)
            shape = chosen.shape if chosen else UNKNOWN
            return PVal(shape, _union(v.taint for v in values))
        if kind in ("FunctionExpression", "ArrowFunctionExpression"):
            self.callbacks.append(node)
            return PVal(qual="function")
        if kind == "AwaitExpression":
            return self.expr(node.argument)
        if kind == "ConditionalExpression":
            self.expr(node.test)
            a, b = self.expr(node.consequent), self.expr(node.alternate)
            return PVal(a.shape if a.shape == b.shape else UNKNOWN, a.taint | b.taint)
        if kind == "LogicalExpression":
            a, b = self.expr(node.left), self.expr(node.right)
            return PVal(a.shape if UNKNOWN not in a.shape else b.shape, a.taint | b.taint)
        if kind == "SpreadElement":
            return self.expr(node.argument)
        if kind == "SequenceExpression":
            values = [self.expr(e) for e in node.expressions]
            return values[-1] if values else _UNKNOWN
        if kind == "UnaryExpression":
            return PVal(UNKNOWN, self.expr(node.argument).taint)
        if kind == "JSXElement":
            return _UNKNOWN
        return _UNKNOWN

    def member(self, node: Any) -> PVal:
        prop = _property(node)
        if node.computed:
            prop = self.expr(node.property).shape
        base = self.expr(node.object)
        if base.qual == "process.env":
            return _env_var(prop, self.line(node.range[0]))
        if base.qual == "process" and prop == "env":
            return PVal(
                UNKNOWN,
                frozenset({Label("env", "the whole environment", self.line(node.range[0]))}),
                qual="process.env",
            )
        qual = f"{base.qual}.{prop}" if base.qual else None
        return PVal(UNKNOWN, base.taint, qual=qual, path=base.path, host=base.host)

    # --- calls --------------------------------------------------------------------------

    def call(self, node: Any) -> PVal:
        callee = node.callee
        receiver: PVal | None = None
        method = ""
        if callee.type == "MemberExpression":
            method = _property(callee)
            receiver = self.expr(callee.object)
            qual = f"{receiver.qual}.{method}" if receiver.qual else None
        elif callee.type == "Identifier":
            known = self.lookup(callee.name)
            qual = (
                known.qual
                if known is not None
                else (callee.name if callee.name in _GLOBALS else None)
            )
            if known is None and callee.name in self.functions:
                return self._local(self.functions[callee.name], node)
        else:
            self.expr(callee)
            qual = None
        args = [self.expr(a) for a in node.arguments]
        taint = _union(a.taint for a in args)
        first = args[0] if args else _UNKNOWN
        start, end = self.span(node)
        text = self.source(node)
        line = self.line(start)
        new = node.type == "NewExpression"

        if qual == "require" and args:
            return PVal(qual=_module(first.shape))
        if qual in ("os.homedir", "os.userInfo.homedir"):
            return PVal("~")
        if qual in ("path.join", "path.resolve", "path.posix.join", "path.win32.join"):
            joined = "/".join(a.shape.rstrip("/") for a in args)
            return PVal(joined, taint)
        if qual in (
            "fs.readFileSync",
            "fs.readFile",
            "fs.promises.readFile",
            "fs/promises.readFile",
            "fs.createReadStream",
            "fs.readdirSync",
            "fs.readdir",
            "fs.promises.readdir",
            "Bun.file",
            "Deno.readTextFile",
            "Deno.readFile",
        ):
            return PVal(UNKNOWN, taint | self._read(first.shape, line))
        if qual in (
            "fs.writeFileSync",
            "fs.writeFile",
            "fs.promises.writeFile",
            "fs/promises.writeFile",
            "fs.appendFileSync",
            "fs.appendFile",
            "fs.promises.appendFile",
            "fs/promises.appendFile",
            "Deno.writeTextFile",
            "Bun.write",
        ):
            content = args[1] if len(args) > 1 else _UNKNOWN
            self.shell.write(
                first.shape,
                Value(content.shape, content.taint),
                append="append" in (qual or "").lower(),
                start=start,
                end=end,
                command=text,
            )
            return _UNKNOWN
        if qual in ("fs.copyFileSync", "fs.copyFile", "fs.promises.copyFile") and len(args) > 1:
            self.shell.state.files[norm_path(args[1].shape)] = Value(
                UNKNOWN, self._read(first.shape, line)
            )
            return _UNKNOWN
        if qual == "fs.createWriteStream":
            return PVal(UNKNOWN, qual="file.write", path=first.shape)
        if receiver is not None and receiver.qual == "file.write" and method in ("write", "end"):
            self.shell.write(
                receiver.path or UNKNOWN,
                Value(first.shape, first.taint),
                append=True,
                start=start,
                end=end,
                command=text,
            )
            return _UNKNOWN
        if qual in ("atob", "Buffer.from", "Buffer.alloc", "window.atob", "globalThis.atob"):
            encoding = args[1].shape.lower() if len(args) > 1 else ""
            if qual.endswith("atob") or encoding in ("base64", "hex", "base64url", "latin1"):
                return PVal(UNKNOWN, taint | {Label("decode", qual, line)})
            return PVal(first.shape, taint)
        if qual in ("String.fromCharCode", "String.fromCodePoint") and len(args) >= 4:
            return PVal(UNKNOWN, taint | {Label("decode", qual, line)})
        if (
            qual in ("unescape", "decodeURIComponent", "decodeURI")
            and len(re.findall(r"%[0-9a-fA-F]{2}", first.shape)) >= 4
        ):
            return PVal(UNKNOWN, taint | {Label("decode", qual, line)})
        if (
            method
            in (
                "toString",
                "trim",
                "slice",
                "substring",
                "replace",
                "split",
                "join",
                "toLowerCase",
                "toUpperCase",
                "text",
                "json",
                "arrayBuffer",
                "then",
                "reverse",
                "map",
                "filter",
                "concat",
            )
            and receiver is not None
        ):
            for arg in node.arguments:
                if arg.type in ("FunctionExpression", "ArrowFunctionExpression"):
                    self.callbacks.append(arg)
            return PVal(
                UNKNOWN, receiver.taint | taint, qual=receiver.qual if method == "then" else None
            )
        if qual in (
            "eval",
            "Function",
            "window.eval",
            "globalThis.eval",
            "vm.runInThisContext",
            "vm.runInNewContext",
            "vm.runInContext",
            "vm.Script",
            "vm.compileFunction",
            "setTimeout",
            "setInterval",
        ) or (qual == "require" and taint):
            if qual in ("setTimeout", "setInterval") and (not args or args[0].qual == "function"):
                return _UNKNOWN
            code = args[-1] if qual == "Function" and args else first
            self.verdicts.execute(code.taint, start, end, command=text)
            if UNKNOWN not in code.shape and code.shape.strip() and qual != "require":
                self._nested(code.shape, start, end)
            return PVal(UNKNOWN, code.taint)
        if qual is not None and qual.startswith(_CHILD + "."):
            return self._child(qual.split(".", 1)[1], args, node, start, end, text)
        if qual in (
            "fetch",
            "window.fetch",
            "globalThis.fetch",
            "axios",
            "axios.request",
            "undici.fetch",
            "undici.request",
            "node-fetch",
            "got",
            "ky",
            "superagent.post",
            "needle.post",
            "request.post",
            "request",
        ) or (
            qual is not None
            and qual.startswith(("axios.", "got.", "ky.", "superagent.", "needle.", "undici."))
        ):
            url = first
            if first.shape.startswith("{"):
                match = re.search(r'"url": "([^"]*)"', first.shape)
                url = PVal(match.group(1) if match else UNKNOWN, first.taint)
            self.verdicts.send(
                taint, start, end, command=text, host=url_host(url.shape), url=url.shape
            )
            return PVal(UNKNOWN, frozenset({Label("download", shorten(url.shape, 80), line)}))
        if qual in ("http.request", "https.request", "http.get", "https.get", "http2.connect"):
            host = url_host(first.shape)
            if host is None and first.shape.startswith("{"):
                match = re.search(r'"(?:hostname|host)": "([^"]*)"', first.shape)
                host = match.group(1) if match else None
            self.verdicts.send(taint, start, end, command=text, host=host, url=first.shape)
            for arg in node.arguments:
                if arg.type in ("FunctionExpression", "ArrowFunctionExpression"):
                    self.callbacks.append(arg)
            return PVal(
                UNKNOWN,
                frozenset({Label("download", shorten(first.shape, 80), line)}),
                qual="http.ClientRequest",
                host=host,
            )
        if (
            receiver is not None
            and receiver.qual in ("http.ClientRequest", "WebSocket", "net.Socket", "XMLHttpRequest")
            and method in ("write", "end", "send")
        ):
            self.verdicts.send(taint, start, end, command=text, host=receiver.host)
            return _UNKNOWN
        if qual in ("XMLHttpRequest",) and new:
            return PVal(qual="XMLHttpRequest")
        if receiver is not None and receiver.qual == "XMLHttpRequest" and method == "open":
            self._rebind(callee.object, host=url_host(args[1].shape) if len(args) > 1 else None)
            return _UNKNOWN
        if qual in ("navigator.sendBeacon",):
            self.verdicts.send(taint, start, end, command=text, host=url_host(first.shape))
            return _UNKNOWN
        if qual in ("WebSocket", "ws", "ws.WebSocket") and new:
            return PVal(qual="WebSocket", host=url_host(first.shape))
        if qual in ("net.connect", "net.createConnection", "tls.connect") or (
            receiver is not None and receiver.qual == "net.Socket" and method == "connect"
        ):
            host = next(
                (
                    a.shape
                    for a in args
                    if UNKNOWN not in a.shape and not a.shape.isdigit() and a.qual != "function"
                ),
                None,
            )
            if host and host.startswith("{"):
                match = re.search(r'"host": "([^"]*)"', host)
                host = match.group(1) if match else None
            if host:
                self.sockets.append(host)
            for arg in node.arguments:
                if arg.type in ("FunctionExpression", "ArrowFunctionExpression"):
                    self.callbacks.append(arg)
            if receiver is not None and callee.type == "MemberExpression":
                self._rebind(callee.object, host=host)
            return PVal(qual="net.Socket", host=host)
        if qual in ("net.Socket",) and new:
            return PVal(qual="net.Socket")
        if method == "pipe":
            self.piped = True
            return PVal(UNKNOWN, taint | (receiver.taint if receiver else CLEAN))
        if qual in (
            "dns.lookup",
            "dns.resolve",
            "dns.resolve4",
            "dns.resolve6",
            "dns.resolveTxt",
            "dns.promises.lookup",
            "dns.promises.resolve",
            "dns.promises.resolveTxt",
            "dns/promises.lookup",
            "dns/promises.resolve",
        ):
            self._dns(first, node.arguments[0] if node.arguments else None, start, end, text)
            return _UNKNOWN
        for arg in node.arguments:
            if arg.type in ("FunctionExpression", "ArrowFunctionExpression"):
                self.callbacks.append(arg)
        read = _union(self._read(a.shape, line) for a in args if a.shape and UNKNOWN not in a.shape)
        out = taint | read | (receiver.taint if receiver is not None else CLEAN)
        if receiver is not None and (taint or read) and callee.type == "MemberExpression":
            self._rebind(callee.object, taint=taint | read)
        return PVal(UNKNOWN, out, qual=f"{qual}()" if qual in ("process.env",) else None)

    def _rebind(self, node: Any, *, host: str | None = None, taint: Taint = CLEAN) -> None:
        if getattr(node, "type", "") != "Identifier":
            return
        old = self.lookup(node.name) or _UNKNOWN
        for scope in reversed(self.scopes):
            if node.name in scope:
                scope[node.name] = PVal(
                    old.shape, old.taint | taint, old.qual, old.path, host or old.host
                )
                return
        self.bind(node.name, PVal(old.shape, old.taint | taint, old.qual, old.path, host))

    def _read(self, path: str, line: int) -> Taint:
        if not path or (UNKNOWN in path and "/" not in path):
            return CLEAN
        label = sensitive_path(path, line)
        held = self.shell.state.files.get(norm_path(path))
        taint = held.taint if held is not None else CLEAN
        return taint | {label} if label is not None else taint

    def _local(self, function: Any, node: Any) -> PVal:
        args = [self.expr(a) for a in node.arguments]
        if self.depth >= _MAX_DEPTH:
            return PVal(UNKNOWN, _union(a.taint for a in args))
        scope: dict[str, PVal] = {}
        for param, value in zip(function.params, args, strict=False):
            if param.type == "Identifier":
                scope[param.name] = value
        self.scopes.append(scope)
        self.depth += 1
        try:
            returned = self._body(function)
        finally:
            self.depth -= 1
            self.scopes.pop()
        if not returned:
            return _UNKNOWN
        return PVal(returned[-1].shape, _union(v.taint for v in returned), returned[-1].qual)

    def _child(  # noqa: PLR0917 - the call's parts
        self, method: str, args: list[PVal], node: Any, start: int, end: int, text: str
    ) -> PVal:
        """child_process: ``exec``/``execSync`` run a shell command string; ``spawn``,
        ``execFile`` run a program with arguments."""
        if method in ("exec", "execSync"):
            command = args[0] if args else _UNKNOWN
            self.verdicts.execute(command.taint, start, end, command=text)
            self._shell_text(command, start, end)
            return PVal(UNKNOWN, command.taint)
        if method in ("spawn", "spawnSync", "execFile", "execFileSync", "fork"):
            program = args[0] if args else _UNKNOWN
            words = [Value(program.shape, program.taint)]
            array = node.arguments[1] if len(node.arguments) > 1 else None
            if array is not None and array.type == "ArrayExpression":
                words += [
                    Value(v.shape, v.taint)
                    for v in (self.expr(e) for e in array.elements if e is not None)
                ]
            if _SHELL.search(program.shape) and len(words) <= 2:
                self.spawned_shell = True
            fake = Simple([], [], [], start, end)
            out = self.shell._dispatch(fake, words, Value(""), text)
            return PVal(UNKNOWN, out.taint, qual="ChildProcess")
        return _UNKNOWN

    def _shell_text(self, command: PVal, start: int, end: int) -> None:
        pieces = command.pieces or ((command.shape, command.taint),)
        hits = shell_text_hits(pieces, self.shell.state.files, self.line(start), "__js")
        self.verdicts.nested(hits, start, end)

    def _nested(self, code: str, start: int, end: int) -> None:
        analyse = NESTED.get("javascript")
        if analyse is None or len(code) > 50_000:
            return
        self.verdicts.nested(analyse(code, 1), start, end)

    def _dns(self, name: PVal, node: Any, start: int, end: int, text: str) -> None:
        if node is not None:
            self.verdicts.dns(name.pieces, name.taint, start, end, command=text)


_GLOBALS = frozenset(
    {
        "require",
        "process",
        "fetch",
        "eval",
        "Function",
        "atob",
        "Buffer",
        "String",
        "XMLHttpRequest",
        "WebSocket",
        "navigator",
        "window",
        "globalThis",
        "unescape",
        "decodeURIComponent",
        "decodeURI",
        "setTimeout",
        "setInterval",
        "Bun",
        "Deno",
        "JSON",
        "Object",
    }
)


def _module(name: str) -> str:
    name = name.removeprefix("node:")
    return {
        "fs/promises": "fs.promises",
        "dns/promises": "dns.promises",
        "node-fetch": "fetch",
        "cross-fetch": "fetch",
        "isomorphic-fetch": "fetch",
    }.get(name, name)


def _property(node: Any) -> str:
    prop = node.property
    return str(getattr(prop, "name", None) or getattr(prop, "value", "") or "")


def _env_var(name: str, line: int) -> PVal:
    if name in ("HOME", "USERPROFILE"):
        return PVal("~")
    label = token_label(name, line) if name and UNKNOWN not in name else None
    return PVal(UNKNOWN, frozenset({label}) if label else CLEAN)


def parse_javascript(code: str) -> Any | None:
    """The ESTree of ``code`` (a script, else a module; JSX allowed), or ``None``."""
    esprima = _parser()
    if esprima is None:
        return None
    options = {"range": True, "jsx": True}
    for parse in (esprima.parseScript, esprima.parseModule):
        try:
            return parse(code, options)
        except Exception:
            continue
    return None


def javascript_hits(
    text: str, start: int = 0, end: int | None = None
) -> tuple[list[Hit], tuple[int, ...]]:
    """The hits of the JavaScript code ``text[start:end]`` (offsets into ``text``), and 1
    when it does not parse."""
    end = len(text) if end is None else end
    code = text[start:end]
    if code.startswith("#!"):
        code = "//" + code[2:]
    tree = parse_javascript(code)
    if tree is None:
        return [], (start,)
    verdicts = Verdicts(Line(code))
    try:
        JavaScriptAnalysis(code, verdicts).program(tree)
    except RecursionError:
        return [], (start,)
    hits = verdicts.hits
    if start:
        hits = [Hit(h.code, h.start + start, h.end + start, h.fields) for h in hits]
    return hits, ()
