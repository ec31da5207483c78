"""The client's side of text: how an editor applies edits, and how VS Code applies a
workspace edit (test helpers, independent of the server's code).

``reference_apply`` applies content changes the way ``vscode-languageserver-textdocument``
does: over code units of the position encoding, lines broken only at ``\\n``, ``\\r\\n``
and ``\\r``. ``apply_like_vscode`` applies a rename's ``WorkspaceEdit`` to disk in order
and sends the notifications VS Code sends meanwhile (didClose/didOpen of a moved open
document, didChange of open ones, watched-file events, didOpen of edited files).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lsp_harness import uri
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient

from skilldeck.engine.text._positions import Encoding


def _units(text: str, encoding: Encoding) -> list[int]:
    """``text`` as its code units in ``encoding``."""
    if encoding is Encoding.UTF32:
        return [ord(char) for char in text]
    if encoding is Encoding.UTF16:
        raw = text.encode("utf-16-le", "surrogatepass")
        return [raw[i] | (raw[i + 1] << 8) for i in range(0, len(raw), 2)]
    return list(text.encode("utf-8", "surrogatepass"))


def _text(units: list[int], encoding: Encoding) -> str:
    if encoding is Encoding.UTF32:
        return "".join(map(chr, units))
    if encoding is Encoding.UTF16:
        raw = b"".join(unit.to_bytes(2, "little") for unit in units)
        return raw.decode("utf-16-le", "surrogatepass")
    return bytes(units).decode("utf-8", "surrogatepass")


def _is_eol(unit: int) -> bool:
    return unit in (10, 13)


def reference_apply(
    text: str, changes: list[types.TextDocumentContentChangeEvent], encoding: Encoding
) -> str:
    """vscode-languageserver-textdocument's ``TextDocument.update``, on code units."""
    for change in changes:
        if not isinstance(change, types.TextDocumentContentChangePartial):
            text = change.text
            continue
        units = _units(text, encoding)
        starts = [0]
        i = 0
        while i < len(units):
            if units[i] == 13 and i + 1 < len(units) and units[i + 1] == 10:
                starts.append(i + 2)
                i += 2
                continue
            if _is_eol(units[i]):
                starts.append(i + 1)
            i += 1

        def offset(
            position: types.Position, units: list[int] = units, starts: list[int] = starts
        ) -> int:
            if position.line >= len(starts):
                return len(units)
            if position.line < 0:
                return 0
            line_start = starts[position.line]
            if position.character <= 0:
                return line_start
            nxt = starts[position.line + 1] if position.line + 1 < len(starts) else len(units)
            at = min(line_start + position.character, nxt)
            while at > line_start and _is_eol(units[at - 1]):
                at -= 1
            return at

        a, b = sorted((offset(change.range.start), offset(change.range.end)))
        # A position inside a character (a surrogate pair, a UTF-8 sequence) stops before it.
        while a > 0 and _splits(units, a, encoding):
            a -= 1
        while b > 0 and _splits(units, b, encoding):
            b -= 1
        units = [*units[:a], *_units(change.text, encoding), *units[b:]]
        text = _text(units, encoding)
    return text


def _splits(units: list[int], at: int, encoding: Encoding) -> bool:
    """Whether offset ``at`` falls inside one character's units."""
    if at >= len(units) or encoding is Encoding.UTF32:
        return False
    if encoding is Encoding.UTF16:
        return 0xDC00 <= units[at] <= 0xDFFF
    return 0x80 <= units[at] < 0xC0


def apply_text_edits(text: str, edits: list[types.TextEdit], encoding: Encoding) -> str:
    """``text`` after one ``TextDocumentEdit``'s edits (all ranges refer to ``text``)."""
    ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))
    for edit in reversed(ordered):  # last first: earlier ranges stay valid
        change = types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)
        text = reference_apply(text, [change], encoding)
    return text


def _path(value: str) -> Path:
    path = to_fs_path(value)
    assert path is not None
    return Path(path)


@dataclass
class Editor:
    """What the editor holds open: path -> (version, text)."""

    client: LanguageClient
    encoding: Encoding = Encoding.UTF16
    open: dict[Path, tuple[int, str]] = field(default_factory=dict)

    def did_open(self, path: Path, text: str | None = None, version: int = 1) -> None:
        content = path.read_bytes().decode("utf-8") if text is None else text
        self.open[path] = (version, content)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(
                    uri=uri(path), language_id="markdown", version=version, text=content
                )
            )
        )

    def did_close(self, path: Path) -> None:
        self.open.pop(path, None)
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri(path)))
        )

    def changed_on_disk(self, *events: tuple[Path, types.FileChangeType]) -> None:
        self.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=uri(p), type=kind) for p, kind in events]
            )
        )

    def apply(self, edit: types.WorkspaceEdit) -> None:
        """Apply ``edit`` as VS Code does, then save every edited file."""
        for change in edit.document_changes or []:
            if isinstance(change, types.RenameFile):
                old, new = _path(change.old_uri), _path(change.new_uri)
                assert not new.exists(), f"{new} exists"
                moved = {p: state for p, state in self.open.items() if p == old or old in p.parents}
                for path in moved:
                    self.did_close(path)
                old.rename(new)
                self.changed_on_disk(
                    (old, types.FileChangeType.Deleted), (new, types.FileChangeType.Created)
                )
                for path, (version, text) in moved.items():
                    self.did_open(
                        new / path.relative_to(old) if path != old else new, text, version
                    )
                continue
            assert isinstance(change, types.TextDocumentEdit)
            path = _path(change.text_document.uri)
            if path not in self.open:
                self.did_open(path)  # VS Code loads an edited file as a model
            version, text = self.open[path]
            expected = change.text_document.version
            assert expected is None or expected == version, f"{path}: version {version}"
            edits = [e for e in change.edits if isinstance(e, types.TextEdit)]
            new_text = apply_text_edits(text, edits, self.encoding)
            self.open[path] = (version + 1, new_text)
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(
                        uri=uri(path), version=version + 1
                    ),
                    content_changes=[
                        types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
                        for e in sorted(
                            edits,
                            key=lambda e: (e.range.start.line, e.range.start.character),
                            reverse=True,
                        )
                    ],
                )
            )
            path.write_bytes(new_text.encode("utf-8"))  # saved
            self.changed_on_disk((path, types.FileChangeType.Changed))

    def close_all(self) -> None:
        for path in list(self.open):
            self.did_close(path)
