"""``skilldeck mcp``: the deck served to any MCP host (the engine's tool, catalog and
gesture; the Skills extension; ``skill://`` resources). See ``docs/mcp.md``."""
