"""How a package's modules import each other, read from the source with ``ast``: imports inside function
bodies included (an import moved into a function to dodge a circle is still a circle; it only fails later,
at the first call). The layer tests of each app ask these."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def _modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by dotted name (a package by its own name), migrations aside."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if "migrations" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Each import statement with each dotted name it imports (``from a import b`` gives ``a`` and ``a.b``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                here = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join([*here[: len(here) - node.level + 1], *([base] if base else [])])
            yield node, base
            for alias in node.names:
                yield node, f"{base}.{alias.name}"


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Which modules of ``package`` each of its modules imports, anywhere in its source."""
    modules = _modules(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for _node, target in _imports(tree, name, path.name == "__init__.py"):
            if target in modules and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def private_imports(root: Path, packages: tuple[str, ...]) -> set[tuple[str, str, str]]:
    """``from X import _name`` of a project module, as (file, X, name): a private name used outside its module."""
    found = set()
    for package in packages:
        for path in _modules(root, package).values():
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ImportFrom) or not node.module or node.module.startswith("_"):
                    continue  # _typeshed, __future__: the language's, not ours
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.add((path.relative_to(root).as_posix(), node.module, alias.name))
    return found


def function_imports(root: Path, package: str) -> set[tuple[str, str]]:
    """Imports inside a function's body, as (file, dotted name): ``from a import b`` is ``a.b``."""
    found = set()
    for path in _modules(root, package).values():
        tree = ast.parse(path.read_text(), filename=str(path))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import):
                    found |= {(path.relative_to(root).as_posix(), alias.name) for alias in node.names}
                elif isinstance(node, ast.ImportFrom):
                    found |= {(path.relative_to(root).as_posix(), f"{node.module}.{a.name}") for a in node.names}
    return found
