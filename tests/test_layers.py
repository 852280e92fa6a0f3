"""The library's rooms read one way: no room imports from a room above its own.

A room is a folder of ``pipeline`` (``pipeline/read/``: stage 1) or one of the few
modules at its top (``config.py``). Every import is counted, those inside functions too,
and the library has none inside functions: a lazy import would only hide a circle. The
command line (``gazette_cli``) and the Prefect flows (``flows``) sit above the library:
nothing in ``pipeline`` imports them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from conftest import REPO

#: The library's rooms in layers, lowest first. A room may import from its own room and
#: the rooms of the layers below it.
LAYERS: list[tuple[str, set[str]]] = [
    ("records passed between the stages, errors, progress, the run's worker processes",
     {"errors", "records", "progress", "workers"}),
    ("what text is: line shapes, word lists, language evidence, legacy Hindi", {"text"}),
    ("stage 2, repair: rules on text, which know no settings", {"repair"}),
    ("settings, in one place (they check repair rules' names)", {"config"}),
    ("the project's state on disk; the embedding model", {"project", "embedding"}),
    ("stage 1, read", {"read"}),
    ("editions cut into acts, their treaties, what identifies a document", {"editions"}),
    ("stages 3 and 4: language split, structure, sentences", {"split"}),
    ("stage 5, alignment: sentences, and documents that translate each other", {"align"}),
    ("stage 6, export, and the corpus", {"export"}),
    ("a run composed of the stages, and pairs across documents", {"run"}),
    ("the review page and app", {"review"}),
]
LEVEL = {room: index for index, (_, rooms) in enumerate(LAYERS) for room in rooms}


def room_of(module: str) -> str:
    """The room of a library module given without its ``pipeline.`` prefix."""
    return module.split(".")[0]


def library_imports() -> Iterator[tuple[str, str, bool]]:
    """Each import of a ``pipeline`` module by a ``pipeline`` module: (importer, imported,
    whether it is inside a function), both without the ``pipeline.`` prefix."""
    for path in sorted((REPO / "pipeline").rglob("*.py")):
        parts = path.relative_to(REPO / "pipeline").with_suffix("").parts
        importer = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nested = {id(node) for function in ast.walk(tree)
                  if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
                  for node in ast.walk(function)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] if node.module != "pipeline" else [
                    f"pipeline.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] in {"pipeline", "flows", "gazette_cli"}:
                    yield importer, name, id(node) in nested


def test_every_library_module_is_in_a_room():
    modules = {room_of(importer) for importer, _, _ in library_imports()} | {
        room_of(".".join(p.relative_to(REPO / "pipeline").with_suffix("").parts))
        for p in (REPO / "pipeline").rglob("*.py") if p.name != "__init__.py"}
    assert modules - {""} == set(LEVEL)


def test_the_library_never_imports_the_flows_or_the_command_line():
    upward = {(importer, name) for importer, name, _ in library_imports()
              if not name.startswith("pipeline")}
    assert upward == set()


def test_no_import_goes_up_a_layer():
    upward = sorted(
        f"{importer} ({LAYERS[LEVEL[room_of(importer)]][0]}) imports {name}"
        for importer, name, _ in library_imports() if name.startswith("pipeline.")
        and LEVEL[room_of(name.removeprefix("pipeline."))] > LEVEL[room_of(importer)])
    assert upward == []


def test_rooms_of_one_layer_do_not_import_each_other():
    across = sorted(f"{importer} imports {name}" for importer, name, _ in library_imports()
                    if name.startswith("pipeline.")
                    and (a := room_of(importer)) != (b := room_of(name.removeprefix("pipeline.")))
                    and LEVEL[a] == LEVEL[b])
    assert across == []


def test_the_library_imports_its_own_modules_at_the_top_of_each_file():
    lazy = sorted(f"{importer} imports {name} in a function"
                  for importer, name, nested in library_imports() if nested)
    assert lazy == []


def test_no_function_of_the_library_flows_or_command_line_is_over_50_lines():
    long = sorted(f"{path.relative_to(REPO)}: {node.name} ({node.end_lineno - node.lineno + 1})"
                  for folder in ("pipeline", "flows", "gazette_cli")
                  for path in (REPO / folder).rglob("*.py")
                  for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.end_lineno is not None and node.end_lineno - node.lineno >= 50)
    assert long == []
