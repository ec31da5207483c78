"""The skilldeck language server (pygls 2). Entry point: :func:`skilldeck.lsp.server.serve`."""
