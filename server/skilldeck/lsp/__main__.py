"""``python -m skilldeck.lsp``: run the language server on stdio."""

from __future__ import annotations

from skilldeck.lsp.server import serve

serve()
