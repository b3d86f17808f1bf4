"""One direction of dependencies: every import in engine/ goes to its own layer or a lower one, and the
imports between packages form no cycle. The layers are read from docs/architecture.md, so the document
and the code cannot drift apart."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO_ROOT

ENGINE = REPO_ROOT / "engine"
ARCHITECTURE = REPO_ROOT / "docs" / "architecture.md"
LAYER_LINE = re.compile(r"^(\d+)\s+(.+?)\s{2,}\S")


def layers_from_doc(text: str) -> dict[str, int]:
    """Package -> layer number, from the ```layers block."""
    block = text.split("```layers", 1)[1].split("```", 1)[0]
    layers: dict[str, int] = {}
    for line in block.strip().splitlines():
        match = LAYER_LINE.match(line)
        assert match is not None, f"not a layer line: {line!r}"
        for package in match.group(2).split():
            layers[package] = int(match.group(1))
    return layers


def package_of(module: str) -> str | None:
    """`engine.game.state` -> "game"; `engine.config` -> "config"; `engine` -> "engine"."""
    parts = module.split(".")
    if parts[0] != "engine":
        return None
    return parts[1] if len(parts) > 1 else "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import of the file, wherever it stands, but under TYPE_CHECKING
    (types only: nothing is loaded at run time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno


def package_imports() -> dict[str, dict[str, list[str]]]:
    """importer package -> imported package -> where ("engine/x/y.py:12")."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(ENGINE.rglob("*.py")):
        importer = package_of(module_name(path))
        for module, line in imports(path):
            imported = package_of(module)
            if importer is not None and imported is not None and imported != importer:
                found[importer][imported].append(f"{path.relative_to(REPO_ROOT)}:{line}")
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_package_has_a_layer() -> None:
    layers = layers_from_doc(ARCHITECTURE.read_text(encoding="utf-8"))
    on_disk = {path.name for path in ENGINE.iterdir() if (path / "__init__.py").is_file()}
    on_disk |= {path.stem for path in ENGINE.glob("*.py") if path.stem != "__init__"} | {"engine"}
    assert sorted(on_disk - set(layers)) == [], "packages missing from docs/architecture.md"
    assert sorted(set(layers) - on_disk) == [], "layers name packages that do not exist"


def test_no_import_reaches_up_a_layer() -> None:
    layers = layers_from_doc(ARCHITECTURE.read_text(encoding="utf-8"))
    upward = [
        f"{importer} (layer {layers[importer]}) imports {imported} (layer {layers[imported]}) at {where[0]}"
        for importer, targets in package_imports().items()
        for imported, where in targets.items()
        if layers[imported] > layers[importer]
    ]
    assert upward == []


def test_the_packages_import_each_other_in_no_cycle() -> None:
    edges = {importer: set(targets) for importer, targets in package_imports().items()}
    assert cycles(edges) == []


def test_the_checks_themselves_catch_what_they_look_for(tmp_path: Path) -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    doc = "```layers\n0  errors files   the base\n1  game           knowledge\n```"
    assert layers_from_doc(doc) == {"errors": 0, "files": 0, "game": 1}
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nimport engine.game\nif TYPE_CHECKING:\n    import engine.runtime\n"
        "def f():\n    from engine.llm import gateway\n",
        encoding="utf-8",
    )
    assert [module for module, _ in imports(source)] == ["typing", "engine.game", "engine.llm"]
