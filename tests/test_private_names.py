"""The harness's names say who may use them (docs/api.md):

- ``harness.__all__`` is the public API, with the pytest plugin's hooks and the ``cc-harness`` command;
- a top-level name without a leading underscore in a module of the harness is one another file uses (a
  module of the harness, a test, a tool script, a documented import), or one a public name's signature
  shows, so a reader can trust that renaming it reaches beyond its module;
- every other top-level name starts with an underscore: it is the module's own.

A package's ``__all__`` lists only names some file takes from the package.

Uses are read from the imports, not guessed from words: ``from harness.x import name``, ``x.name`` on a
module ``x`` a file imported, ``"harness.x.name"`` or ``"harness.x:name"`` in a string (a patch target, an
entry point), ``setattr(x, "name", ...)`` on an imported module, and ``from harness.x import name`` or
``harness.x.name`` in the documents.
"""

from __future__ import annotations

import ast
import enum
import importlib
import re
import subprocess
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_DOTTED = re.compile(r"harness(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?")
_DOC_IMPORT = re.compile(r"from (harness[\w.]*) import \(?([\w, \n]+)\)?")

#: Public though no other file names them, each for a reason outside the import graph.
_CALLED_BY_NAME = {
    ("harness.pytest_plugin", "CaseFile"): "a pytest collector: its class name shows in pytest's output",
    ("harness.pytest_plugin", "CaseTest"): "a pytest item: its class name shows in pytest's output",
    ("harness.pytest_plugin", "CaseFailure"): "its class name heads each failed case in pytest's output",
    ("harness.engines.reference", "unmodelled_parts"): "refengine/abstentions.py finds it by name for NOT_MODELLED.md",
    **{(f"harness.engines.{adapter}", "PACKAGE"): "tests/test_check_agents.py reads it from an adapter imported by name"
       for adapter in ("codex", "opencode", "qwen", "sdk_ts")},
}



def _module_paths() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "harness").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _defined(tree: ast.Module) -> set[str]:
    """Top-level names bound by def, class or assignment (also under a top-level ``if`` or ``try``)."""
    out: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    out.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))

    visit(tree.body)
    return out


def _all_of(tree: ast.Module) -> set[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            assert isinstance(node.value, (ast.List, ast.Tuple))
            return {e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return None


class _Graph:
    """Which (module, name) pairs each file of the repository uses."""

    def __init__(self) -> None:
        self.paths = _module_paths()
        self.trees = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in self.paths.items()}
        self.names = {m: _defined(t) for m, t in self.trees.items()}
        self.users: dict[tuple[str, str], set[str]] = defaultdict(set)
        # a package's __init__ that imports a name to hand it on (listed in its __all__) does not use it
        self.handed_on: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)
        for module, tree in self.trees.items():
            listed = _all_of(tree)
            if self.paths[module].name != "__init__.py" or listed is None:
                continue
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.module in self.paths:
                    for alias in node.names:
                        if (alias.asname or alias.name) in listed:
                            self.handed_on[module][alias.asname or alias.name] = (node.module, alias.name)
        tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True)
        for file in tracked.stdout.splitlines():
            path = ROOT / file
            if file.endswith(".py") and path.is_file():
                self._read_python(path)
            elif file.endswith((".md", ".toml")) and path.is_file():
                self._read_text(path)
        for package, names in self.handed_on.items():
            for name, source in names.items():
                self.users[source] |= self.users[(package, name)]

    def _use(self, module: str, name: str, where: Path, *, importer: str | None = None) -> None:
        if module != importer and not (importer and self.handed_on.get(importer, {}).get(name) == (module, name)):
            self.users[(module, name)].add(str(where.relative_to(ROOT)))

    def _dotted(self, text: str, where: Path, own: str | None) -> None:
        """``harness.a.b.name`` or ``harness.a.b:name``: the longest module prefix, then the name."""
        dotted, _, colon = text.partition(":")
        parts = dotted.split(".") + ([colon] if colon else [])
        for i in range(len(parts) - 1, 0, -1):
            if ".".join(parts[:i]) in self.paths:
                self._use(".".join(parts[:i]), parts[i], where, importer=own)
                return

    def _read_python(self, path: Path) -> None:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):  # a case's fixture may hold any file
            return
        own = next((m for m, p in self.paths.items() if p == path), None)
        bound: dict[str, str] = {}  # a local name -> the harness module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "harness":
                        bound[alias.asname or "harness"] = alias.name if alias.asname else "harness"
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in self.paths:
                        bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                    else:
                        self._use(node.module, alias.name, path, importer=own)
        strings: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                chain = []
                base: ast.expr = node
                while isinstance(base, ast.Attribute):
                    chain.append(base.attr)
                    base = base.value
                if isinstance(base, ast.Name) and base.id in bound:
                    module = bound[base.id]
                    for attr in reversed(chain):
                        if f"{module}.{attr}" not in self.paths:
                            self._use(module, attr, path, importer=own)
                            break
                        module = f"{module}.{attr}"
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                for found in _DOTTED.finditer(node.value):
                    self._dotted(found.group(0), path, own)
                if node.value.isidentifier():
                    strings.add(node.value)
        for module in set(bound.values()) & set(self.names):  # setattr(module, "name", ...) and its kin
            for name in strings & self.names[module]:
                self._use(module, name, path, importer=own)

    def _read_text(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8", errors="replace")
        for found in _DOTTED.finditer(text):
            self._dotted(found.group(0), path, None)
        for found in _DOC_IMPORT.finditer(text):
            if found.group(1) in self.paths:
                for name in re.findall(r"\w+", found.group(2)):
                    self._use(found.group(1), name, path)


@cache
def _graph() -> _Graph:
    return _Graph()


def _in_public_signatures(tree: ast.Module) -> set[str]:
    """Names the signature of a public top-level function, a public class's fields and method signatures, or the
    annotation of a public top-level value show: a caller handles values of these types, so they are public with it."""
    shown: set[str] = set()

    def annotations(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr | None]:
        args = func.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
        return [a.annotation for a in every] + [func.returns]

    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not node.target.id.startswith("_"):  # a public table shows its rows' type: CHANGES: tuple[Change, ...]
                shown.update(n.id for n in ast.walk(node.annotation) if isinstance(n, ast.Name))
            continue
        if getattr(node, "name", "_").startswith("_"):
            continue
        found: list[ast.expr | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found = annotations(node)
        elif isinstance(node, ast.ClassDef):
            found = list(node.bases)
            for item in node.body:
                if isinstance(item, ast.AnnAssign):
                    found.append(item.annotation)
                elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found += annotations(item)
        for annotation in filter(None, found):
            shown.update(n.id for n in ast.walk(annotation) if isinstance(n, ast.Name))
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                shown.update(re.findall(r"[A-Za-z_]\w*", annotation.value))
    return shown


def _why_public(module: str, name: str, tree: ast.Module, path: Path) -> str | None:
    """Why ``name`` may stay public though no other file uses it, or None."""
    if (module, name) in _CALLED_BY_NAME:
        return _CALLED_BY_NAME[(module, name)]
    if name.startswith("pytest_"):
        return "a pytest hook: pytest calls it by name"
    if name == "main" and '__name__ == "__main__"' in path.read_text(encoding="utf-8"):
        return "what ``python -m`` runs"
    if name in _in_public_signatures(tree):
        return "a public name's signature shows it"
    value = getattr(importlib.import_module(module), name, None)
    if isinstance(value, type) and issubclass(value, (BaseException, enum.Enum)):
        return "an exception's or an enum's class name shows in messages"
    return None


def test_a_public_name_of_a_module_is_used_outside_it() -> None:
    graph = _graph()
    lonely = [
        f"{graph.paths[module].relative_to(ROOT)}: {name}"
        for module in graph.paths
        for name in sorted(graph.names[module])
        if not name.startswith("_")
        and not graph.users.get((module, name))
        and _why_public(module, name, graph.trees[module], graph.paths[module]) is None
    ]
    assert not lonely, (
        "used only inside their own module: give them a leading underscore (tests/test_private_names.py says "
        "the rule):\n" + "\n".join(lonely)
    )


def test_a_package_hands_on_only_names_taken_from_it() -> None:
    graph = _graph()
    unused = [
        f"{package}.__all__: {name}"
        for package, names in graph.handed_on.items()
        if package != "harness"  # the public API is for users outside this repository
        for name in sorted(names)
        if not graph.users.get((package, name))
    ]
    assert not unused, "listed in a package's __all__ but taken from the package by no file:\n" + "\n".join(unused)


def test_the_rule_reads_uses_from_imports_attributes_and_strings() -> None:
    """The reading the two tests above rest on finds each kind of use, so an empty list means no lonely name,
    not a blind reader."""
    users = _graph().users
    assert "harness/batch.py" in users[("harness.engine_name", "EngineName")]  # from harness.x import name
    assert "tests/test_check_agents.py" in users[("harness.engines.families", "family_of")]  # families.family_of
    assert "tests/test_check_agents.py" in users[("harness.engines.registry", "latest_of")]  # setattr(registry, "...")
    assert "pyproject.toml" in users[("harness.cli", "main")]  # the entry point "harness.cli:main"
    assert "docs/api.md" in users[("harness", "Suite")]  # harness.Suite in a document
    assert not users.get(("harness.yamlfile", "_MAX_NODES"))  # a private name is nobody else's
