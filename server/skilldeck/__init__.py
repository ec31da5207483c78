"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here; see ARCHITECTURE.md for the map.
"""

from __future__ import annotations

__version__ = "0.1.0"
