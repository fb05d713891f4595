"""The stores and models the damaging scenarios start from: the BookStore example, and every
store and model of the corpus when it is present (a store paired with its model where
MANIFEST.tsv names one)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .bookstore import EXAMPLE_MODEL, EXAMPLE_STORE
from .files import SQLITE_ERRORS, open_copy

if TYPE_CHECKING:
    from .runner import Harness


@dataclass
class SourceStore:
    """A store to mutate, with what was learnt of it before any mutation."""

    path: str
    label: str
    model: str | None
    entities: list[tuple[int, str, int]]  # (Z_ENT, Z_NAME, Z_SUPER)
    tables: dict[str, list[tuple[str, str]]]  # table -> [(column, declared type)]
    entity_tables: list[str]
    has_cache: bool
    journal: str


def learn_store(path: str, label: str, model: str | None) -> SourceStore | None:
    tmp = tempfile.mkdtemp(prefix="fault-injection-learn-")
    try:
        connection, _ = open_copy(path, tmp)
        try:
            tables = {}
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                tables[name] = [(r[1], r[2] or "") for r in connection.execute(f'PRAGMA table_info("{name}")')]
            entities = []
            if "Z_PRIMARYKEY" in tables:
                entities = [tuple(r) for r in connection.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")]
            journal = connection.execute("PRAGMA journal_mode").fetchone()[0]
        finally:
            connection.close()
    except SQLITE_ERRORS:
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    entity_tables = [t for t in tables if t.startswith("Z") and not t.startswith("Z_") and any(c == "Z_PK" for c, _ in tables[t])]
    return SourceStore(path, label, model, entities, tables, entity_tables, "Z_MODELCACHE" in tables, journal)


def corpus_dir(harness: "Harness") -> str | None:
    path = harness.args.corpus
    return path if path and os.path.isdir(path) else None


def paired_models(corpus: str) -> dict[str, str]:
    """Store path (relative to corpus) -> its model folder, from MANIFEST.tsv's MATCH notes."""
    pairs = {}
    manifest = os.path.join(corpus, "MANIFEST.tsv")
    if not os.path.exists(manifest):
        return pairs
    with open(manifest, encoding="utf-8", errors="replace") as f:
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) > 6 and cells[4] == "store":
                match = re.search(r"model: MATCH (models/\S+?\.xcdatamodel)\b", cells[6])
                if match and os.path.isdir(os.path.join(corpus, match.group(1))):
                    pairs[cells[0]] = os.path.join(corpus, match.group(1))
    return pairs


def store_sources(harness: "Harness") -> list[SourceStore]:
    sources = [learn_store(EXAMPLE_STORE, "examples/BookStore/BookStore.sqlite", EXAMPLE_MODEL)]
    corpus = corpus_dir(harness)
    if corpus:
        pairs = paired_models(corpus)
        root = os.path.join(corpus, "stores")
        for directory, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if name.endswith(("-wal", "-shm", "-journal")):
                    continue
                path = os.path.join(directory, name)
                with open(path, "rb") as f:
                    if f.read(16) != b"SQLite format 3\0":
                        continue
                relative = os.path.relpath(path, corpus)
                sources.append(learn_store(path, relative, pairs.get(relative)))
    return [s for s in sources if s is not None]


@dataclass
class SourceModel:
    label: str
    bundle: str | None  # the .xcdatamodeld, when the model is in one
    version: str  # the .xcdatamodel folder
    file: str  # its contents or elements file
    store: str | None  # a store of this model, to open with it


def model_sources(harness: "Harness") -> list[SourceModel]:
    sources = [SourceModel("examples/BookStore/BookStore.xcdatamodeld", EXAMPLE_MODEL,
                           os.path.join(EXAMPLE_MODEL, "BookStore.xcdatamodel"),
                           os.path.join(EXAMPLE_MODEL, "BookStore.xcdatamodel", "contents"), EXAMPLE_STORE)]
    corpus = corpus_dir(harness)
    if corpus:
        stores_of = {}
        for store, model in paired_models(corpus).items():
            stores_of.setdefault(os.path.normpath(model), os.path.join(corpus, store))
        for directory, dirs, files in sorted(os.walk(os.path.join(corpus, "models"))):
            if not directory.endswith(".xcdatamodel"):
                continue
            name = "contents" if "contents" in files else "elements" if "elements" in files else None
            if not name:
                continue
            parent = os.path.dirname(directory)
            sources.append(SourceModel(os.path.relpath(directory, corpus), parent if parent.endswith(".xcdatamodeld") else None,
                                       directory, os.path.join(directory, name), stores_of.get(os.path.normpath(directory))))
    return sources
