"""The library's layers read one way: no module imports from a layer above its own.

Every import is counted, those inside functions too (a lazy import is still a
dependency). The command line (``gazette_cli``) and the Prefect flows (``flows``) sit
above the library: nothing in ``pipeline`` imports them.
"""

from __future__ import annotations

import ast

from conftest import REPO

#: The library's layers, lowest first. A module may import from its own layer and the
#: layers below it.
LAYERS: list[tuple[str, set[str]]] = [
    ("basics: no knowledge of the project's stages", {
        "errors", "records", "progress", "lexicon", "lines", "pageimage", "textlayer", "sentalign",
        "export.xmltext", "_exec", "_exec.tesseract", "embedding", "embedding.e5file"}),
    ("settings, records on disk, evidence", {
        "config", "store", "catalog", "report", "parts", "legacy_hindi", "language", "reviews",
        "exports",
        "embedding.build", "embedding.encoder"}),
    ("stage 1, ingest", {"pagedecision", "scan", "pdfread", "ingest"}),
    ("an edition cut into acts, its treaties, what identifies a document",
     {"acts", "treaties", "pairing", "editions"}),
    ("stage 2, repair", {"repair", "repair._tables", "repair.hindi_layer",
                         "repair.glyph_map", "repair.rules"}),
    ("stage 3, language split", {"langsplit"}),
    ("stage 4, structure", {"sentences", "structure"}),
    ("stage 5, alignment: sentences, and documents that translate each other",
     {"align", "docalign"}),
    ("stage 6, export", {"export", "export.units", "export.tmx", "export.xliff",
                         "export.tabular"}),
    ("compositions of the stages, pairs across documents, and the review page",
     {"stages", "runs", "corpus", "crossdoc", "review", "reviewapp"}),
]
#: Imports that go up, each with its reason.
ALLOWED_UP = {
    ("config", "repair"): "checks `repair_disabled` names against the rules (lazily)",
}


def library_imports() -> dict[str, set[str]]:
    """Each ``pipeline`` module (without the prefix) and the modules it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((REPO / "pipeline").rglob("*.py")):
        parts = path.relative_to(REPO / "pipeline").with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        found[name or "pipeline"] = imported
    return found


def test_every_library_module_has_a_layer():
    layered = set().union(*(modules for _, modules in LAYERS))
    assert set(library_imports()) - {"pipeline"} == layered


def test_the_library_never_imports_the_flows_or_the_command_line():
    upward = {(module, target) for module, targets in library_imports().items()
              for target in targets if target.split(".")[0] in {"flows", "gazette_cli"}}
    assert upward == set()


def test_no_import_goes_up_a_layer():
    level = {module: index for index, (_, modules) in enumerate(LAYERS) for module in modules}
    upward = []
    for module, targets in library_imports().items():
        for target in targets:
            if not target.startswith("pipeline.") or module == "pipeline":
                continue
            name = target.removeprefix("pipeline.")
            name = name if name in level else name.rsplit(".", 1)[0]
            if level[name] > level[module] and (module, name) not in ALLOWED_UP:
                upward.append(f"{module} ({LAYERS[level[module]][0]}) imports {name} "
                              f"({LAYERS[level[name]][0]})")
    assert upward == []
