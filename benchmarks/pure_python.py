"""Run ``skilldeck`` as the VS Code extension's bundled server runs it: pure Python.

``python benchmarks/pure_python.py check ...`` is ``python -m skilldeck check ...`` with
every compiled speed-up refused at import (libyaml through ``ruamel.yaml.clib``, orjson,
PyStemmer, watchfiles, pydantic-core, ahocorasick-rs, rapidfuzz), so the engine takes its
pure-Python fallbacks: what ``clients/vscode/bundled/libs`` holds.
``tests/engine/test_pure_fallbacks.py`` holds the verdicts equal; ``bench_pure_fallbacks.py``
times the difference.
"""

from __future__ import annotations

import importlib.abc
import runpy
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

#: The compiled modules the bundle leaves out (top-level import names).
COMPILED = frozenset(
    {
        "_ruamel_yaml",
        "orjson",
        "Stemmer",
        "watchfiles",
        "pydantic_core",
        "ahocorasick_rs",
        "rapidfuzz",
    }
)


class RefuseCompiled(importlib.abc.MetaPathFinder):
    """A finder that makes ``import X`` fail for each X of :data:`COMPILED`."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname.split(".", 1)[0] in COMPILED:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def main() -> None:
    sys.meta_path.insert(0, RefuseCompiled())
    sys.argv = ["skilldeck", *sys.argv[1:]]
    runpy.run_module("skilldeck", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
