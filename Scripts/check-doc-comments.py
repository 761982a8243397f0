#!/usr/bin/env python3
"""Counts the public symbols of the library products that have no `///` doc comment, and the
public types their DocC catalogs leave out of Topics.

Reads the symbol graphs `make docs` emits (.build/symbol-graphs) and lists every public symbol
declared in this repository's sources without a doc comment of its own, as FILE:LINE: symbol.
A member that implements a documented protocol requirement (`description`, `==`, `next()` of
an iterator) still needs its own line: DocC shows the requirement's text otherwise, which says
nothing of what this type does. Every top-level public type must be named (``Type``) in its
module's catalog, `Sources/MODULE/MODULE.docc/`. Exits 1 when anything is missing.
"""
import json
import pathlib
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
GRAPHS = ROOT / ".build" / "symbol-graphs"
MODULES = ["Crease", "CreaseRecording", "CreaseRecordingFile", "CreaseSystem", "CreaseJSON", "CreaseConfiguration", "CreaseIO", "CreaseTesting"]


TYPE_KINDS = {"swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias"}


def uncatalogued_types(graph: pathlib.Path, module: str):
    """The top-level public types of `module` declared in `graph` that its catalog never names."""
    catalog = ROOT / "Sources" / module / f"{module}.docc"
    text = "".join(p.read_text() for p in catalog.rglob("*.md")) if catalog.is_dir() else ""
    for symbol in json.loads(graph.read_text())["symbols"]:
        if symbol["kind"]["identifier"] in TYPE_KINDS and len(symbol["pathComponents"]) == 1 \
                and symbol.get("accessLevel") == "public":
            name = symbol["pathComponents"][0]
            # A module's graph also holds what it re-exports (`CreaseIO` re-exports
            # `CreaseSystem` and `CreaseJSON`): each type belongs in the catalog of the module
            # whose folder declares it.
            where = pathlib.Path(urllib.parse.urlparse(symbol.get("location", {}).get("uri", "")).path)
            if (ROOT / "Sources" / module) not in where.parents:
                continue
            if f"``{name}``" not in text:
                yield f"{catalog.relative_to(ROOT)}: the type {name} is in no topic"


def main() -> int:
    missing, total = [], 0
    for module in MODULES:
        graph = GRAPHS / f"{module}.symbols.json"
        if graph.exists():
            missing += uncatalogued_types(graph, module)
    seen = set()
    for graph in sorted(GRAPHS.glob("*.symbols.json")):
        if graph.name.split("@")[0].split(".")[0] not in MODULES:
            continue
        for symbol in json.loads(graph.read_text())["symbols"]:
            location = symbol.get("location")
            if symbol.get("accessLevel") != "public" or not location:
                continue
            path = pathlib.Path(urllib.parse.urlparse(location["uri"]).path)
            if ROOT not in path.parents:
                continue  # a default implementation from the standard library
            key = (symbol["identifier"]["precise"], str(path))
            if key in seen:
                continue
            seen.add(key)
            total += 1
            comment = symbol.get("docComment")
            if comment and comment.get("module") in (None, *MODULES):
                continue
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing.append(f"{path.relative_to(ROOT)}:{line}: {name} has no doc comment")
    for entry in sorted(missing):
        print(entry)
    print(f"doc comments: {total} public symbols; {len(missing)} problem(s)", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
