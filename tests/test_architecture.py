"""The engine's rooms as ARCHITECTURE.md maps them: every package of ``skilldeck.engine`` says
what it holds and its invariant, exports what it promises, and has its table in the map,
whose rows name the modules that exist (the import rules themselves are import-linter's
contracts in ``pyproject.toml``, run by ``scripts/test``)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import skilldeck.engine

ROOT = Path(__file__).resolve().parent.parent
ENGINE = Path(skilldeck.engine.__file__).parent
PACKAGES = sorted(info.name for info in pkgutil.iter_modules([str(ENGINE)]) if info.ispkg)
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")


def test_the_engine_is_only_packages() -> None:
    loose = sorted(p.name for p in ENGINE.glob("*.py") if p.name != "__init__.py")
    assert loose == []
    assert len(PACKAGES) >= 10


@pytest.mark.parametrize("name", PACKAGES)
def test_each_package_states_what_it_holds_and_its_invariant(name: str) -> None:
    package = importlib.import_module(f"skilldeck.engine.{name}")
    assert package.__doc__ and "Invariant:" in package.__doc__
    exported = getattr(package, "__all__", None)
    assert exported, f"skilldeck.engine.{name} exports nothing"
    for attribute in exported:
        assert hasattr(package, attribute), f"{name}.__all__ names a missing {attribute}"
    modules = [p.stem for p in (ENGINE / name).glob("*.py") if p.name != "__init__.py"]
    assert modules and all(m.startswith("_") for m in modules), modules


@pytest.mark.parametrize("name", PACKAGES)
def test_the_map_has_a_table_per_package_naming_its_modules(name: str) -> None:
    heading = re.search(rf"^#### `{name}/` — .+?(?=^#|\Z)", ARCHITECTURE, re.M | re.S)
    assert heading, f"ARCHITECTURE.md has no '#### `{name}/`' table"
    listed = set(re.findall(r"`(_[a-z0-9_]+)\.py`", heading.group(0)))
    actual = {p.stem for p in (ENGINE / name).glob("_*.py") if p.name != "__init__.py"}
    assert listed == actual


def _typing_imports(init: Path) -> dict[str, str]:
    """``name -> module`` of the ``if TYPE_CHECKING:`` imports of an ``__init__``."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    assert alias.asname == alias.name, "re-export as `import x as x`"
                    found[alias.name] = statement.module
    return found


@pytest.mark.parametrize("name", [*PACKAGES, ""])
def test_what_type_checkers_see_is_what_the_package_exports(name: str) -> None:
    package = importlib.import_module(f"skilldeck.engine.{name}" if name else "skilldeck")
    init = Path(package.__file__ or "")
    seen = _typing_imports(init)
    assert sorted(seen) == sorted(n for n in package.__all__ if n != "__version__")
    for attribute, module in seen.items():
        assert getattr(package, attribute) is getattr(importlib.import_module(module), attribute)


def test_importing_a_package_imports_none_of_its_modules() -> None:
    code = (
        "import sys, skilldeck.engine.filesystem, skilldeck.engine.deck\n"
        "print(sorted(m for m in sys.modules if m.startswith('skilldeck.engine.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['skilldeck.engine.deck', 'skilldeck.engine.filesystem']"


#: The packages outside the engine whose modules the map names, and its section's title.
FRONT_ENDS = {
    "": "### `server/skilldeck/` — ",
    "cli": "### `server/skilldeck/cli/` — ",
    "lsp": "### `server/skilldeck/lsp/` — ",
    "mcp": "### `server/skilldeck/mcp/` — ",
    "remote": "### `server/skilldeck/remote/` — ",
}
SERVER = ENGINE.parent


def _modules(package: str) -> list[str]:
    """Each module of ``package`` (relative to it: ``features/params.py``), its own
    ``__init__.py`` files aside (the top level's: the public API, named in the map)."""
    folder = SERVER / package if package else SERVER
    if not package:
        return sorted(p.name for p in folder.glob("*.py"))
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*.py")
        if p.name != "__init__.py" and "__pycache__" not in p.parts
    )


@pytest.mark.parametrize("package", list(FRONT_ENDS))
def test_the_map_names_every_module_of_the_front_ends(package: str) -> None:
    start = ARCHITECTURE.index(FRONT_ENDS[package])
    end = ARCHITECTURE.find("\n### ", start + 1)
    section = ARCHITECTURE[start : end if end != -1 else None]
    missing = []
    for module in _modules(package):
        folder, _, name = module.rpartition("/")
        named = f"`{module}`" in section or any(
            f"`{name}`" in line and f"`{folder}/`" in line
            for line in section.splitlines()
            if folder
        )
        if not named:
            missing.append(module)
    assert missing == [], (
        f"ARCHITECTURE.md's {package or 'top-level'} section names none of {missing}"
    )
