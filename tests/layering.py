"""The layering check: every module's imports read with `ast` (nothing is run), each module
placed in a unit (a subpackage or a top module, or a module the table names on its own), and
the imports between units checked against the layers of bridge/LAYERS.md."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

_ROW = re.compile(r"^\|\s*(\d+)\s*\|([^|]*)\|")
_NAME = re.compile(r"`([\w.]+)`")


def read_table(text: str) -> dict[str, int]:
    """The layer of each unit, from the markdown table's rows `| N | `unit`, ... | job |`."""
    layers: dict[str, int] = {}
    for line in text.splitlines():
        row = _ROW.match(line)
        if row is None:
            continue
        for unit in _NAME.findall(row.group(2)):
            if unit in layers:
                raise ValueError(f"{unit} is in the table twice")
            layers[unit] = int(row.group(1))
    return layers


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages under root, by dotted name: a subpackage by its own
    name, a top package's `__init__` as `top.__init__` (so that `top` in the table would
    never hold every module)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__" and len(parts) > 2:
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(root: Path, packages: Iterable[str], installed_as: str = "") -> dict[str, set[str]]:
    """Which of the packages' modules each module imports: at its top, in functions, and
    for type checking alone (a type is a dependency too). `installed_as`: the prefix the
    packages are imported under as well (`tabsteward.` for `tabsteward.bridge.cli`)."""
    known = modules(root, packages)
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        own = name.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            for target in _targets(own, is_package, node, known, installed_as):
                target = _known(target, known)
                if target and target != name:
                    edges[name].add(target)
    return edges


def _known(target: str, known: Mapping[str, Path]) -> str:
    """The module an import names: the longest known name that holds it ("" outside)."""
    while target:
        if target in known:
            return target
        if f"{target}.__init__" in known:
            return f"{target}.__init__"
        target = target.rpartition(".")[0]
    return ""


def _targets(name: str, is_package: bool, node: ast.AST, known: Mapping[str, Path],
             installed_as: str) -> list[str]:
    """The dotted names an import statement names (relative ones made absolute)."""
    if isinstance(node, ast.Import):
        return [alias.name.removeprefix(installed_as) if installed_as else alias.name
                for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if installed_as:
        base = base.removeprefix(installed_as)
    if node.level:
        parts = name.split(".") if is_package else name.split(".")[:-1]
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join([*parts, base] if base else parts)
    # `from . import x` names a module x; `from .m import f` names m
    return [f"{base}.{a.name}" if _known(f"{base}.{a.name}", known) == f"{base}.{a.name}"
            else base for a in node.names]


def unit_of(module: str, layers: Mapping[str, int]) -> str | None:
    """The unit a module belongs to: the longest name in the table that is the module or
    a package holding it."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in layers:
            return candidate
    return None


@dataclass(frozen=True)
class Finding:
    what: str

    def __str__(self) -> str:
        return self.what


def check(edges: Mapping[str, set[str]], layers: Mapping[str, int]) -> list[Finding]:
    """What breaks the layering: a module in no unit, an import that goes up a layer, and
    every circle between units (each named with the imports that make it)."""
    found: list[Finding] = []
    between: dict[str, dict[str, list[str]]] = {}
    for module, targets in sorted(edges.items()):
        mine = unit_of(module, layers)
        if mine is None:
            found.append(Finding(f"{module} is in no unit of the layer table"))
            continue
        between.setdefault(mine, {})
        for target in sorted(targets):
            theirs = unit_of(target, layers)
            if theirs is None or theirs == mine:
                continue
            between[mine].setdefault(theirs, []).append(f"{module} -> {target}")
            if layers[theirs] > layers[mine]:
                found.append(Finding(f"{module} (layer {layers[mine]}) imports {target} of "
                                     f"the layer above, {layers[theirs]}"))
    for circle in circles({u: set(t) for u, t in between.items()}):
        why = [imp for a in circle for b in circle for imp in between.get(a, {}).get(b, [])]
        found.append(Finding(f"import circle between {', '.join(circle)}: {'; '.join(why)}"))
    return found


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected parts of two or more nodes (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    nodes = sorted(set(graph) | {t for ts in graph.values() for t in ts})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, rest = work[-1]
            step = next(rest, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found
