"""Run ``python -m skilldeck ARGS`` with the extension's bundled libraries first on sys.path.

The VS Code extension starts the language server as ``python launch.py serve`` when
``skilldeck.importStrategy`` is ``useBundled``: ``../libs`` holds skilldeck and its
runtime dependencies as pure-Python packages (installed by ``scripts/bundle-server.mjs``
at package time), so any Python 3.10+ runs it with nothing installed. Whatever the
interpreter has in site-packages comes after them.
"""

import os
import runpy
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")

if __name__ == "__main__":
    if sys.version_info < (3, 10):
        sys.exit("skilldeck needs Python 3.10 or newer, not " + sys.version.split()[0])
    # The compiled form of the libraries goes where the extension says (its own storage):
    # compiled once, then read on every start, also where PYTHONDONTWRITEBYTECODE is set
    # or the extension folder is read-only. Nothing is written next to any source file.
    pycache = os.environ.pop("SKILLDECK_PYCACHE", "")
    if pycache:
        sys.pycache_prefix = pycache
        sys.dont_write_bytecode = False
    # sys.path[0] is this script's folder (never the workspace): the libraries go first.
    sys.path.insert(0, LIBS)
    runpy.run_module("skilldeck", run_name="__main__", alter_sys=True)
