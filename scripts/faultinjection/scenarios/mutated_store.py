"""mutated-store: damaged stores (bit flips, truncation, wrong values and types in
Z_PRIMARYKEY, Z_METADATA, Z_MODELCACHE and entity tables, Z_SUPER cycles, dropped tables and
columns, logs beside the store, symlinks, FIFOs, odd names) opened read-only with a handful
of commands: no crash, no hang, not one byte of the store's files changed, no private copy
left in TMPDIR; some are then written to (insert, save), from an odd Z_MAX half the time."""

from __future__ import annotations

import os
import plistlib
import random
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

from ..bookstore import EXAMPLE_STORE
from ..case import Case, NotApplicable
from ..files import SQLITE_ERRORS, STORE_SUFFIXES, copy_store, copy_tree, integrity_of_copy, lenient_text, remove
from ..mutations import ODD_VALUES, bend_uids, mutate_bytes, retype_plist
from ..processes import quote
from ..readonly import read_only_commands, run_read_only
from ..scenario import Scenario
from ..sources import SourceStore, store_sources

INVALID_UTF8 = object()  # stands for TEXT whose bytes are not UTF-8 (written with CAST(X'…' AS TEXT))


def sql_mutation(rng: random.Random, source: SourceStore, store: str) -> str:
    """One damaging change made through SQLite itself; NotApplicable when the store lacks the table."""
    connection = sqlite3.connect(store, isolation_level=None)
    connection.text_factory = lenient_text
    try:
        connection.execute("PRAGMA synchronous=OFF")  # a scratch copy: no fsync per statement
        connection.execute("BEGIN")
        text = _sql_mutation(rng, source, connection)
        connection.execute("COMMIT")
        return text
    except SQLITE_ERRORS as error:
        raise NotApplicable from error
    finally:
        connection.close()
        for suffix in ["-wal", "-shm"]:
            if os.path.exists(store + suffix) and os.path.getsize(store + suffix) == 0:
                remove(store + suffix)


def _sql_mutation(rng: random.Random, source: SourceStore, db: sqlite3.Connection) -> str:
    kind = rng.choice([
        "z_max", "z_max", "z_max", "z_ent", "z_name", "z_super_cycle", "z_super_self", "z_super_chain", "z_super_missing",
        "z_super_odd", "duplicate_entity", "metadata", "metadata", "metadata", "modelcache", "modelcache", "modelcache",
        "row_values", "row_values", "row_values", "z_ent_column", "foreign_key", "drop_table", "drop_column", "rename_column",
        "add_column", "drop_indexes", "view", "empty_primarykey", "declared_type",
    ])
    tables = source.tables
    if kind.startswith("z_") and kind not in ("z_ent_column",) and "Z_PRIMARYKEY" not in tables:
        raise NotApplicable
    entities = [e[0] for e in db.execute("SELECT Z_ENT FROM Z_PRIMARYKEY")] if "Z_PRIMARYKEY" in tables else []
    if kind == "z_max":
        if not entities:
            raise NotApplicable
        label, value = rng.choice(ODD_VALUES)
        entity = rng.choice(entities)
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", (value, entity))
        return f"Z_PRIMARYKEY.Z_MAX of entity {entity} = {label}"
    if kind in ("z_ent", "z_name", "z_super_odd"):
        if not entities:
            raise NotApplicable
        column = {"z_ent": "Z_ENT", "z_name": "Z_NAME", "z_super_odd": "Z_SUPER"}[kind]
        label, value = rng.choice(ODD_VALUES + [("a long name", "N" * 100000), ("another entity's name", "Z_PRIMARYKEY")])
        entity = rng.choice(entities)
        db.execute(f"UPDATE Z_PRIMARYKEY SET {column} = ? WHERE Z_ENT = ?", (value, entity))
        return f"Z_PRIMARYKEY.{column} of entity {entity} = {label}"
    if kind == "z_super_cycle":
        if len(entities) < 2:
            raise NotApplicable
        chosen = rng.sample(entities, min(len(entities), rng.choice([2, 2, 3])))
        for i, entity in enumerate(chosen):
            db.execute("UPDATE Z_PRIMARYKEY SET Z_SUPER = ? WHERE Z_ENT = ?", (chosen[(i + 1) % len(chosen)], entity))
        return f"Z_SUPER cycle through entities {chosen}"
    if kind == "z_super_self":
        if not entities:
            raise NotApplicable
        entity = rng.choice(entities)
        db.execute("UPDATE Z_PRIMARYKEY SET Z_SUPER = Z_ENT WHERE Z_ENT = ?", (entity,))
        return f"Z_SUPER of entity {entity} is itself"
    if kind == "z_super_chain":
        depth = rng.choice([100, 1000, 20000])
        top = max(entities, default=0)
        # Numbered past the store's entities, or before them when a store numbers near the
        # end of SQLite's integers.
        if top > 2**63 - depth - 2:
            top = min(entities) - depth - 2
        rows = [(top + i + 1, f"Deep{i}", top + i if i else (rng.choice(entities) if entities else 0), 0) for i in range(depth)]
        db.executemany("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)", rows)
        return f"a Z_SUPER chain {depth} entities deep"
    if kind == "z_super_missing":
        if not entities:
            raise NotApplicable
        entity = rng.choice(entities)
        # A number no row has, within SQLite's integers (a store may number near their end).
        missing = max(entities) + 50 if max(entities) < 2**63 - 51 else min(entities) - 50
        db.execute("UPDATE Z_PRIMARYKEY SET Z_SUPER = ? WHERE Z_ENT = ?", (missing, entity))
        return f"Z_SUPER of entity {entity} names no entity"
    if kind == "duplicate_entity":
        if not entities:
            raise NotApplicable
        entity = rng.choice(entities)
        db.execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", (entity,))
        return f"entity {entity} twice in Z_PRIMARYKEY"
    if kind == "empty_primarykey":
        db.execute("DELETE FROM Z_PRIMARYKEY")
        return "Z_PRIMARYKEY emptied"
    if kind == "metadata":
        if "Z_METADATA" not in tables:
            raise NotApplicable
        label, value = metadata_plist(rng, db)
        column = "Z_PLIST"
        if rng.random() < 0.15:
            column, (label, value) = rng.choice(["Z_VERSION", "Z_UUID"]), rng.choice(ODD_VALUES)
        db.execute(f"UPDATE Z_METADATA SET {column} = ?", (value,))
        return f"Z_METADATA.{column} = {label}"
    if kind == "modelcache":
        label, value = modelcache_blob(rng, db, "Z_MODELCACHE" in tables)
        if "Z_MODELCACHE" not in tables:
            db.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            db.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (value,))
            return f"a Z_MODELCACHE added: {label}"
        db.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = ?", (value,))
        return f"Z_MODELCACHE.Z_CONTENT = {label}"
    if not source.entity_tables:
        raise NotApplicable
    table = rng.choice(source.entity_tables)
    columns = tables[table]
    if kind == "row_values":
        candidates = [c for c, _ in columns if c not in ("Z_PK",)]
        column = rng.choice(candidates)
        label, value = rng.choice(ODD_VALUES + [("a 1 MB text", "t" * (1 << 20)), ("text that is not UTF-8", INVALID_UTF8),
                                                 ("date text 'yesterday'", "yesterday"), ("70000", 70000)])
        which = rng.choice(["every row", "one row"])
        where = f' WHERE Z_PK = (SELECT Z_PK FROM "{table}" ORDER BY random() LIMIT 1)' if which == "one row" else ""
        if which == "every row" and isinstance(value, str) and len(value) > 4096:
            # A megabyte in each of thousands of rows makes a store of gigabytes, whose
            # reading times the disk rather than finding a hang: 32 rows show the same.
            which = "each of the first 32 rows"
            where = f' WHERE Z_PK IN (SELECT Z_PK FROM "{table}" ORDER BY Z_PK LIMIT 32)'
        if value is INVALID_UTF8:
            db.execute(f'UPDATE "{table}" SET "{column}" = CAST(X\'41FFFEC328\' AS TEXT){where}')
        else:
            db.execute(f'UPDATE "{table}" SET "{column}" = ?{where}', (value,))
        return f"{table}.{column} = {label} in {which}"
    if kind == "z_ent_column":
        label, value = rng.choice(ODD_VALUES + [("an unknown entity", 9999), ("another entity", (entities or [1])[0])])
        db.execute(f'UPDATE "{table}" SET Z_ENT = ? WHERE Z_PK = (SELECT Z_PK FROM "{table}" ORDER BY random() LIMIT 1)', (value,))
        return f"{table}.Z_ENT = {label} in one row"
    if kind == "foreign_key":
        keys = [c for c, _ in columns if c.startswith("Z") and not c.startswith("Z_") and c not in ("ZNAME",)]
        if not keys:
            raise NotApplicable
        column = rng.choice(keys)
        value = rng.choice([999999, -1, 0, "p1", 1.5])
        db.execute(f'UPDATE "{table}" SET "{column}" = ?', (value,))
        return f"{table}.{column} = {value!r} (a reference to nothing)"
    if kind == "drop_table":
        victim = rng.choice(list(tables))
        db.execute(f'DROP TABLE "{victim}"')
        return f"table {victim} dropped"
    if kind == "drop_column":
        column = rng.choice([c for c, _ in columns if c != "Z_PK"] or ["Z_ENT"])
        for (index,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", (table,)).fetchall():
            db.execute(f'DROP INDEX "{index}"')
        db.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"')
        return f"column {table}.{column} dropped"
    if kind == "rename_column":
        column = rng.choice([c for c, _ in columns])
        db.execute(f'ALTER TABLE "{table}" RENAME COLUMN "{column}" TO "{column}_RENAMED"')
        return f"column {table}.{column} renamed"
    if kind == "add_column":
        db.execute(f'ALTER TABLE "{table}" ADD COLUMN "ZEXTRA{rng.randrange(100)}" {rng.choice(["TEXT", "BLOB", "", "INTEGER"])}')
        return f"a column added to {table}"
    if kind == "drop_indexes":
        for (index,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").fetchall():
            db.execute(f'DROP INDEX "{index}"')
        return "every index dropped"
    if kind == "view":
        db.execute(f'ALTER TABLE "{table}" RENAME TO "{table}_OLD"')
        db.execute(f'CREATE VIEW "{table}" AS SELECT * FROM "{table}_OLD"')
        return f"{table} is a view"
    if kind == "declared_type":
        column = rng.choice([c for c, _ in columns if c != "Z_PK"] or ["Z_ENT"])
        new_type = rng.choice(["TEXT", "BLOB", "VARCHAR(3)", "WEIRD TYPE", ""])
        # The table as SQLite names it (names match without case); none when an earlier
        # mutation of the case dropped or renamed it, or made it a view.
        row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", (table,)).fetchone()
        if row is None or row[0] is None:
            raise NotApplicable
        sql = row[0]
        db.execute("PRAGMA writable_schema = ON")
        changed = re.sub(rf'(\b{re.escape(column)}\b\s+)([A-Z ]+?)(?=[,)])', rf'\g<1>{new_type}', sql, count=1)
        db.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (changed, table))
        db.execute("PRAGMA writable_schema = OFF")
        return f"{table}.{column} declared {new_type or 'without a type'}"
    raise NotApplicable


def bplist(objects: list[bytes], top: int = 0, ref_size: int = 4) -> bytes:
    """A binary property list from already encoded objects (refs of `ref_size` bytes)."""
    body = bytearray(b"bplist00")
    offsets = []
    for encoded in objects:
        offsets.append(len(body))
        body += encoded
    table = len(body)
    for offset in offsets:
        body += struct.pack(">Q", offset)
    body += bytes(6) + bytes([8, ref_size]) + struct.pack(">QQQ", len(objects), top, table)
    return bytes(body)


def bplist_array(refs: list[int], ref_size: int = 4, claimed: int | None = None) -> bytes:
    count = len(refs) if claimed is None else claimed
    head = bytes([0xA0 | count]) if count < 15 else bytes([0xAF, 0x13]) + struct.pack(">Q", count)
    return head + b"".join(r.to_bytes(ref_size, "big") for r in refs)


def deep_bplist(depth: int) -> bytes:
    objects = [bplist_array([i + 1]) for i in range(depth)] + [bplist_array([])]
    return bplist(objects)


def odd_plists(rng: random.Random) -> list[tuple[str, bytes]]:
    plists = [
        ("a bplist nested 100000 arrays deep", deep_bplist(100000)),
        ("a bplist array that contains itself", bplist([bplist_array([0])])),
        ("a bplist array claiming 2^40 elements", bplist([bplist_array([], claimed=1 << 40)])),
        ("a bplist whose top object is out of range", bplist([bplist_array([])], top=99)),
        ("a bplist whose offset table points past the end", b"bplist00\xa0" + struct.pack(">Q", 1 << 40) + bytes(6) + bytes([8, 4]) + struct.pack(">QQQ", 1, 0, 9)),
        ("a bplist with object-ref size 0", bplist([bplist_array([])], ref_size=0)),
        ("garbage bytes", bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 8, 100, 5000])))),
        ("'bplist00' and nothing else", b"bplist00"),
        ("an XML plist", plistlib.dumps({"NSStoreType": "SQLite", "NSStoreModelVersionHashes": {}})),
        ("a bplist top-level array", plistlib.dumps([1, 2, 3], fmt=plistlib.FMT_BINARY)),
        ("a bplist with wrong types", plistlib.dumps({"NSStoreType": 7, "NSStoreModelVersionHashes": "none",
                                                      "NSStoreModelVersionIdentifiers": {"a": 1}, "NSPersistenceFrameworkVersion": "x"},
                                                     fmt=plistlib.FMT_BINARY)),
        ("a bplist whose hashes are not data", plistlib.dumps({"NSStoreType": "SQLite", "NSStoreModelVersionHashes": {"Book": 12, "X": [1]}},
                                                                fmt=plistlib.FMT_BINARY)),
    ]
    return plists


def metadata_plist(rng: random.Random, db: sqlite3.Connection) -> tuple[str, object]:
    row = db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()
    original = bytes(row[0]) if row and isinstance(row[0], bytes) else b""
    choices = odd_plists(rng)
    if original:
        data = bytearray(original)
        mutate_bytes(rng, data, "all")
        choices.append(("the plist with bit flips", bytes(data)))
        choices.append(("the plist cut short", original[: rng.randrange(len(original))]))
        try:
            value = plistlib.loads(original)
            choices.append(("the plist with a value retyped", plistlib.dumps(retype_plist(rng, value), fmt=plistlib.FMT_BINARY)))
        except Exception:
            pass
    choices.append(("NULL", None))
    choices.append(("text", "not a plist"))
    return rng.choice(choices)


_BOMB: bytes | None = None
_BOMB_LOCK = threading.Lock()


def deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def modelcache_blob(rng: random.Random, db: sqlite3.Connection, exists: bool) -> tuple[str, object]:
    global _BOMB
    original = b""
    if exists:
        row = db.execute("SELECT Z_CONTENT FROM Z_MODELCACHE").fetchone()
        original = bytes(row[0]) if row and isinstance(row[0], bytes) else b""
    inflated = b""
    if original:
        try:
            inflated = zlib.decompress(original, -15)
        except zlib.error:
            pass
    choices = [(f"deflated {label}", deflate(plist)) for label, plist in odd_plists(rng)]
    choices += [("garbage bytes", bytes(rng.randrange(256) for _ in range(rng.choice([1, 100, 4000])))), ("an empty blob", b""),
                ("NULL", None), ("text", "not a blob")]
    if original:
        data = bytearray(original)
        mutate_bytes(rng, data, "all")
        choices += [("the deflated cache with bit flips", bytes(data)), ("the deflated cache cut short", original[: rng.randrange(len(original))])]
    if inflated:
        data = bytearray(inflated)
        mutate_bytes(rng, data, "all")
        choices.append(("the cache's archive with bit flips, deflated again", deflate(bytes(data))))
        try:
            archive = plistlib.loads(inflated)
            choices.append(("the cache's archive with a value retyped", deflate(plistlib.dumps(retype_plist(rng, archive), fmt=plistlib.FMT_BINARY))))
            choices.append(("the cache's archive with references bent", deflate(plistlib.dumps(bend_uids(rng, archive), fmt=plistlib.FMT_BINARY))))
        except Exception:
            pass
    if rng.random() < 0.05:
        with _BOMB_LOCK:
            if _BOMB is None:
                _BOMB = deflate(bytes(300 << 20))
        choices = [("a deflate bomb (300 MB of zeros)", _BOMB)]
    return rng.choice(choices)


def real_log(rng: random.Random, store: str, kind: str) -> str:
    """A genuine hot rollback journal, or a -wal with committed frames, made by a process that dies mid-way."""
    code = r"""
import os, sqlite3, sys
store, kind = sys.argv[1], sys.argv[2]
db = sqlite3.connect(store, isolation_level=None)
if kind == "journal":
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA cache_size=1")
    db.execute("BEGIN")
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
        try:
            db.execute(f'UPDATE "{table}" SET rowid = rowid')
            db.execute(f'DELETE FROM "{table}" WHERE rowid % 2 = 0')
        except sqlite3.Error:
            pass
    os._exit(0)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
    try:
        db.execute(f'DELETE FROM "{table}" WHERE rowid % 3 = 0')
    except sqlite3.Error:
        pass
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", code, store, kind], capture_output=True, timeout=60)
    return ("a genuine hot -journal (a writer died mid-transaction)" if kind == "journal"
            else "a genuine -wal with committed frames, never checkpointed")


def file_mutation(rng: random.Random, source: SourceStore, store: str) -> str:
    kind = rng.choice(["flip", "flip", "flip_header", "flip_page", "truncate", "truncate", "zero_page", "header_field",
                       "append", "log", "log", "log", "shm"])
    if kind.startswith("flip"):
        with open(store, "r+b") as f:
            data = bytearray(f.read())
            text = mutate_bytes(rng, data, {"flip": "all", "flip_header": "header", "flip_page": "page"}[kind])
            f.seek(0)
            f.write(data)
        return text
    if kind == "truncate":
        size = os.path.getsize(store)
        if size < 2:
            raise NotApplicable
        length = rng.choice([0, rng.randrange(1, min(100, size)), 100, rng.randrange(size), (rng.randrange(max(1, size // 4096))) * 4096])
        os.truncate(store, length)
        return f"truncated to {length} of {size} bytes"
    if kind == "zero_page":
        with open(store, "r+b") as f:
            pages = max(1, os.path.getsize(store) // 4096)
            page = rng.randrange(pages)
            f.seek(page * 4096)
            f.write(bytes(4096))
        return f"page {page + 1} zeroed"
    if kind == "header_field":
        fields = [(16, 2, "page size", [0, 1, 3, 511, 65535, 32768]), (28, 4, "page count", [0, 1, 2**31 - 1, 2**32 - 1]),
                  (18, 1, "write version", [0, 1, 2, 3, 255]), (19, 1, "read version", [0, 1, 2, 3, 255]),
                  (20, 1, "reserved bytes", [0, 1, 32, 255]), (44, 4, "schema format", [0, 5, 99]),
                  (56, 4, "text encoding", [0, 2, 3, 7]), (40, 4, "schema cookie", [0, 2**32 - 1]),
                  (36, 4, "free page count", [2**32 - 1]), (32, 4, "first freelist page", [2**32 - 1, 2])]
        offset, width, name, values = rng.choice(fields)
        value = rng.choice(values)
        with open(store, "r+b") as f:
            f.seek(offset)
            f.write(value.to_bytes(width, "big"))
        return f"header {name} = {value}"
    if kind == "append":
        with open(store, "ab") as f:
            f.write(bytes(rng.randrange(256) for _ in range(rng.choice([1, 100, 4096, 10000]))))
        return "garbage appended"
    if kind == "log":
        choice = rng.choice(["real journal", "real wal", "garbage wal", "garbage journal", "empty wal", "empty journal",
                             "wal header only", "foreign wal"])
        for suffix in ["-wal", "-shm", "-journal"]:
            remove(store + suffix)
        if choice in ("real journal", "real wal"):
            text = real_log(rng, store, "journal" if choice == "real journal" else "wal")
            if not any(os.path.exists(store + s) for s in ["-wal", "-journal"]):
                raise NotApplicable
            return text
        suffix = "-wal" if "wal" in choice else "-journal"
        if choice.startswith("garbage"):
            data = bytes(rng.randrange(256) for _ in range(rng.choice([28, 32, 512, 4120, 40000])))
        elif choice.startswith("empty"):
            data = b""
        elif choice == "wal header only":
            data = struct.pack(">IIIIIIII", 0x377F0682, 3007000, 4096, 0, 1, 2, 0, 0)
        else:
            data = foreign_wal(rng)
        with open(store + suffix, "wb") as f:
            f.write(data)
        return f"a {choice} beside the store"
    if kind == "shm":
        with open(store + "-shm", "wb") as f:
            f.write(bytes(rng.randrange(256) for _ in range(32768)))
        if not os.path.exists(store + "-wal"):
            with open(store + "-wal", "wb") as f:
                f.write(foreign_wal(rng))
        return "a garbage -shm (and a -wal) beside the store"
    raise NotApplicable


_FOREIGN_WAL: bytes | None = None


def foreign_wal(rng: random.Random) -> bytes:
    """A real -wal of another database (its salts do not match this store)."""
    global _FOREIGN_WAL
    with _BOMB_LOCK:
        if _FOREIGN_WAL is None:
            tmp = tempfile.mkdtemp(prefix="fault-injection-wal-")
            store = os.path.join(tmp, "other.sqlite")
            copy_store(EXAMPLE_STORE, store, sidecars=False)
            real_log(rng, store, "wal")
            _FOREIGN_WAL = open(store + "-wal", "rb").read() if os.path.exists(store + "-wal") else b""
            shutil.rmtree(tmp, ignore_errors=True)
        return _FOREIGN_WAL


def present_store(case: Case, rng: random.Random, store: str) -> tuple[str, str | None]:
    """How the store is named on the command line: plainly, or through a link, an odd name, a FIFO..."""
    kind = rng.choices(["plain", "symlink", "symlink dir", "odd name", "dash name", "uri name", "fifo", "directory",
                        "dangling", "loop", "log symlink", "dev"],
                       weights=[60, 6, 3, 6, 2, 2, 3, 1, 1, 1, 3, 1])[0]
    directory = os.path.dirname(store)
    if kind == "plain":
        return store, None
    if kind == "symlink":
        link = case.path("store", "link.sqlite")
        os.symlink(store, link)
        return link, "the store given through a symlink (its log beside the target)"
    if kind == "symlink dir":
        os.symlink(directory, case.path("store", "linked-dir"))
        return os.path.join(case.path("store", "linked-dir"), os.path.basename(store)), "the store's folder given through a symlink"
    if kind in ("odd name", "dash name", "uri name"):
        name = {"odd name": rng.choice(["a b?mode=rw&c#d%41.sqlite", "x%2Fy.sqlite", "é ünicode.sqlite", "semi;colon'quote\".sqlite",
                                         "new\nline.sqlite", "immutable=0&mode=rwc.sqlite"]),
                "dash name": "-c", "uri name": "file:renamed.sqlite?mode=rwc"}[kind]
        target = os.path.join(directory, name)
        for suffix in STORE_SUFFIXES:
            if os.path.exists(store + suffix):
                os.rename(store + suffix, target + suffix)
        if kind == "dash name":
            return "./-c" if directory == case.path("store") else target, "a store named -c"
        return target, f"a store named {name!r}"
    if kind in ("fifo", "directory", "dangling", "loop", "dev"):
        for suffix in STORE_SUFFIXES:
            remove(store + suffix)
    if kind == "fifo":
        os.mkfifo(store)
        return store, "the store is a FIFO"
    if kind == "directory":
        os.mkdir(store)
        return store, "the store is a directory"
    if kind == "dangling":
        os.symlink(os.path.join(directory, "nowhere"), store)
        return store, "the store is a dangling symlink"
    if kind == "loop":
        os.symlink(store + ".b", store)
        os.symlink(store, store + ".b")
        return store, "the store is a symlink loop"
    if kind == "dev":
        os.symlink(rng.choice(["/dev/zero", "/dev/null", "/dev/urandom"]), store)
        return store, f"the store is a link to {os.readlink(store)}"
    if kind == "log symlink":
        # The -wal is a link to a file elsewhere: reading the log must not write through it.
        elsewhere = case.path("real", "elsewhere-wal")
        os.makedirs(os.path.dirname(elsewhere), exist_ok=True)
        with open(elsewhere, "wb") as f:
            f.write(foreign_wal(rng) if rng.random() < 0.5 else b"")
        remove(store + "-wal")
        os.symlink(elsewhere, store + "-wal")
        return store, "the -wal is a symlink to a file elsewhere"
    raise NotApplicable


def run(case: Case) -> None:
    rng = case.rng
    sources = case.harness.prepared(store_sources)
    source = sources[0] if rng.random() < 0.3 else rng.choice(sources)
    store = case.path("store", os.path.basename(source.path))
    copy_store(source.path, store)
    case.describe(f"from {source.label}")
    mutations = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        for attempt in range(20):
            try:
                mutation = sql_mutation if rng.random() < 0.6 else file_mutation
                mutations.append(mutation(rng, source, store))
                break
            except NotApplicable:
                continue
    case.describe("; ".join(mutations) or "unchanged")
    store_arg, presented = present_store(case, rng, store)
    if presented:
        case.describe(presented)
    copy_tree(case.path("store"), case.path("input"))
    model = source.model if source.model and rng.random() < 0.35 else None
    if model:
        case.describe(f"with --model {os.path.basename(model)}")
    entities = [name for _, name, _ in source.entities if isinstance(name, str)]
    commands = read_only_commands(rng, entities)
    roots = [case.path("store")] + ([case.path("real")] if os.path.isdir(case.path("real")) else [])
    run_read_only(case, store_arg, model, commands, "read-only session", roots)
    if rng.random() < 0.3 and entities and not case.problems and os.path.isfile(store):
        write_damaged_store(case, rng, store, model, rng.choice(entities))


def write_damaged_store(case: Case, rng: random.Random, store: str, model: str | None, entity: str) -> None:
    """A damaged store that opened cleanly, written to: insert, save. A clean error or success;
    no crash or hang; and a store that passed integrity_check still passes it. Half the time
    the entity's Z_MAX is made odd first: the save hands out keys from it."""
    if rng.random() < 0.5:
        label, value = rng.choice([v for v in ODD_VALUES if not isinstance(v[1], float)] + [("Int64.max - 1", 2**63 - 2)])
        connection = sqlite3.connect(store)
        try:
            connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = ?", (value, entity))
            connection.commit()
            case.describe(f"Z_MAX of {entity} = {label}")
        except SQLITE_ERRORS:
            pass
        finally:
            connection.close()
    case.describe(f"then written: insert {entity}, save")

    def whole() -> str:
        return integrity_of_copy(store, case.path("judge"))

    before = whole()
    script = f".echo on\ninsert {entity}\nsave\ncount {entity}\n"
    with open(case.path("write-commands.graphstore"), "w") as f:
        f.write(script)
    arguments = ["--write", "--no-bail"] + (["--model", model] if model else []) + [os.path.relpath(store, case.directory)]
    run = case.graphstore(*arguments, stdin=script.encode())
    reproduce = f"{quote(['graphstore', '--no-rc', *arguments])} < write-commands.graphstore"
    case.check_run(run, "write: insert and save into the damaged store", reproduce)
    after = whole()
    if not before and after:
        case.fail("not whole", f"writing to the damaged store broke it: {after}", "not whole: a write to a damaged store", reproduce)


SCENARIO = Scenario("mutated-store", run, short=150, long=1000, summary="damaged stores opened read-only", prepare=store_sources)
