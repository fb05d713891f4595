"""migrate: `migrate --write` of the BookStore example (grown with extra categories) to its
History bundle's current version, killed with SIGKILL at a random moment: the store must
pass integrity_check and be the old store or the new one, whole (every object there, the
metadata saying its version), and a second `migrate` must finish it and leave nothing
behind. Some cases' books have photos, kept outside the database or moved in or out of it
by the migration, and some are killed while the backup's copy of the support folder is
being made: every photo must read back, from the store and its backup, and no `.partial-`
copy survive the second run."""

from __future__ import annotations

import os
import plistlib
import re
import sqlite3
import subprocess
import time
import uuid

from ..bookstore import EXAMPLE_HISTORY, EXTERNAL_VALUE_SIZE, example_copy
from ..case import Case, Skip
from ..files import SQLITE_ERRORS, copy_tree, integrity, open_copy, remove
from ..processes import kill_group, quote
from ..scenario import Scenario


def grow_categories(store: str, count: int) -> None:
    """Adds `count` BookCategory rows (and raises Z_MAX), so that a migration takes long enough
    to be killed in its middle."""
    connection = sqlite3.connect(store)
    try:
        top = connection.execute("SELECT MAX(Z_PK) FROM ZBOOKCATEGORY").fetchone()[0] or 0
        connection.executemany("INSERT INTO ZBOOKCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 2, 1, ?)",
                               ((top + i + 1, f"grown {i}") for i in range(count)))
        connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'BookCategory'", (top + count,))
        connection.commit()
    finally:
        connection.close()


def migration_state(store: str, workdir: str) -> tuple[str, dict[str, int]] | str:
    """Which version the store is ("old" or "new", by its tables) and its rows per table, or
    what is wrong with it."""
    connection, _ = open_copy(store, workdir)
    try:
        problem = integrity(connection)
        if problem:
            return f"integrity_check: {problem}"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = "new" if "ZPUBLICATION" in tables else "old" if "ZBOOK" in tables else None
        if version is None:
            return f"neither the old nor the new layout: tables {sorted(tables)}"
        books = "ZPUBLICATION" if version == "new" else "ZBOOK"
        counts = {name: connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                  for name, table in [("books", books), ("categories", "ZBOOKCATEGORY"), ("pages", "ZPAGE")]}
        return version, counts
    except SQLITE_ERRORS as error:
        return f"unreadable: {error}"
    finally:
        connection.close()
        remove(workdir)


# Whether Book.photo (Publication.photo in version 3) allows external storage in versions 1, 2
# and 3 of an external-data case's bundle: kept (the backup copies the files), turned on (large
# values move to files) or turned off (the files' values move into the table).
PHOTO_STORAGE = {"kept": (True, True, True), "on": (False, True, True), "off": (True, False, False)}
PHOTO_SMALL = 3_000


def photo_bundle(case: Case, name: str, versions: list[tuple[str, bool]], source: str | None = None) -> str:
    """A copy of the History bundle's versions (file name, whether photo allows external
    storage), each with a Binary photo on Book (Publication), the last one current; `source`
    names the History version they are all copies of (each their own by default)."""
    bundle = case.path(name)
    os.makedirs(bundle, exist_ok=True)
    for file, external in versions:
        with open(os.path.join(EXAMPLE_HISTORY, source or file, "contents")) as f:
            contents = f.read()
        flag = ' allowsExternalBinaryDataStorage="YES"' if external else ""
        photo = f'<attribute name="photo" optional="YES" attributeType="Binary"{flag}/>'
        contents = re.sub(r'(<entity name="(?:Book|Publication)"[^>]*>)', lambda m: m.group(1) + "\n        " + photo, contents, count=1)
        os.makedirs(os.path.join(bundle, file), exist_ok=True)
        with open(os.path.join(bundle, file, "contents"), "w") as f:
            f.write(contents)
    with open(os.path.join(bundle, ".xccurrentversion"), "wb") as f:
        plistlib.dump({"_XCCurrentVersionName": versions[-1][0]}, f)
    return bundle


def photo_store(case: Case, store: str, storage: tuple[bool, bool, bool], count: int) -> tuple[str, dict[int, bytes]] | None:
    """Gives the example store a photo column (by migrating it to a version 1 with one, so its
    metadata says so) and `count` books' photos, small and large, in Core Data's format
    (files in .BookStore_SUPPORT/_EXTERNAL_DATA when photo allows external storage); returns
    the bundle to migrate with and each book's photo."""
    names = ["BookStore.xcdatamodel", "BookStore 2.xcdatamodel", "BookStore 3.xcdatamodel"]
    first = photo_bundle(case, "first.xcdatamodeld", [(names[0], False), ("BookStore 1.xcdatamodel", storage[0])], source=names[0])
    with open(os.path.join(first, names[0], "contents")) as f:
        plain = re.sub(r'\n\s*<attribute name="photo"[^>]*/>', "", f.read())
    with open(os.path.join(first, names[0], "contents"), "w") as f:
        f.write(plain)
    run = case.graphstore("--write", store, "-c", f"migrate --model {first} --no-backup")
    if not case.check_run(run, "giving the store a photo column", quote(run.argv), allow_nonzero=False):
        return None
    bundle = photo_bundle(case, "history.xcdatamodeld", list(zip(names, storage)))
    folder = os.path.join(os.path.dirname(store), ".BookStore_SUPPORT", "_EXTERNAL_DATA")
    connection = sqlite3.connect(store)
    photos: dict[int, bytes] = {}
    try:
        books = [row[0] for row in connection.execute("SELECT Z_PK FROM ZBOOK ORDER BY Z_PK")]
        entity = connection.execute("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'").fetchone()[0]
        for index in range(count):
            if index < len(books):
                pk = books[index]
            else:
                # More books, within the model's rules (price at least 15).
                pk = (connection.execute("SELECT MAX(Z_PK) FROM ZBOOK").fetchone()[0] or 0) + 1
                connection.execute("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZPRICE) VALUES (?, ?, 1, ?, 20)", (pk, entity, f"photo {index}"))
                connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Book'", (pk,))
            value = bytes([index % 251 + 1]) * (EXTERNAL_VALUE_SIZE if index % 3 else PHOTO_SMALL)
            stored = value
            if storage[0]:
                if len(value) > 128 * 1024:
                    name = str(uuid.UUID(bytes=case.rng.randbytes(16))).upper()
                    os.makedirs(folder, exist_ok=True)
                    with open(os.path.join(folder, name), "wb") as f:
                        f.write(value)
                    stored = b"\x02" + name.encode() + b"\x00"
                else:
                    stored = b"\x01" + value
            connection.execute("UPDATE ZBOOK SET ZPHOTO = ? WHERE Z_PK = ?", (stored, pk))
            photos[pk] = value
        connection.commit()
    finally:
        connection.close()
    return bundle, photos


def photo_problems(store: str, table: str, external: bool, photos: dict[int, bytes]) -> list[str]:
    """What keeps the store's photos from being the ones written: a value that differs, a
    reference to a missing file."""
    if not photos:
        return []
    name = os.path.splitext(os.path.basename(store))[0]  # the backup's is BookStore.sqlite
    folder = os.path.join(os.path.dirname(store), f".{name}_SUPPORT", "_EXTERNAL_DATA")
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = dict(connection.execute(f"SELECT Z_PK, ZPHOTO FROM {table} WHERE ZPHOTO IS NOT NULL").fetchall())
    except SQLITE_ERRORS as error:
        return [f"{store}: unreadable: {error}"]
    finally:
        connection.close()
    problems = []
    for pk, value in sorted(photos.items()):
        blob = rows.get(pk)
        if external and isinstance(blob, bytes) and blob[:1] == b"\x02":
            name = blob[1:].split(b"\x00")[0].decode("ascii", "replace")
            try:
                with open(os.path.join(folder, name), "rb") as f:
                    blob = f.read()
            except OSError as error:
                problems.append(f"{os.path.basename(store)} {table} p{pk}: external data file {name}: {error.strerror}")
                continue
        elif external and isinstance(blob, bytes) and blob[:1] == b"\x01":
            blob = blob[1:]
        if blob != value:
            problems.append(f"{os.path.basename(store)} {table} p{pk}: photo of {len(blob) if isinstance(blob, bytes) else blob!r} bytes, "
                            f"{len(value)} written")
    return problems


def partial_copies(directory: str) -> list[str]:
    return sorted(name for name in os.listdir(directory) if ".partial-" in name)


def run(case: Case) -> None:
    rng = case.rng
    journal = rng.choice(["wal", "delete"])
    store = example_copy(case, "store", journal)
    # Some cases carry photos, kept or moved between the table and files; their kills fall
    # late, when the backup's copy of the support folder is being made, half the time.
    variant = rng.choice(["none", "none", "none"] + list(PHOTO_STORAGE))
    bundle, photos = EXAMPLE_HISTORY, {}
    if variant != "none":
        made = photo_store(case, store, PHOTO_STORAGE[variant], rng.randint(12, 40))
        if made is None:
            return
        bundle, photos = made
    grow_categories(store, rng.choice([0, 2000, 20000, 60000] if variant == "none" else [0, 2000]))
    expected = migration_state(store, case.path("judge"))
    if isinstance(expected, str):
        raise Skip(f"the grown example store cannot be read: {expected}")
    argv = [case.harness.binary, "--no-rc", "--write", store, "-c", f"migrate --model {bundle}"]
    # Time one whole migration of a copy first, then kill the real one somewhere inside that.
    probe = case.path("probe", "BookStore.sqlite")
    copy_tree(case.path("store"), case.path("probe"))
    started = time.monotonic()
    timed = case.graphstore("--write", probe, "-c", f"migrate --model {bundle}")
    took = time.monotonic() - started
    if not case.check_run(timed, "a whole migration", quote(timed.argv), allow_nonzero=False):
        return
    # A store with files has them copied for the backup near the end; half of those cases are
    # killed as soon as that copy (.BookStore.sqlite_SUPPORT.partial-<UUID>) appears.
    at_copy = variant in ("kept", "off") and rng.random() < 0.5
    delay = rng.uniform(0, took * 1.1)
    photo_note = f", {len(photos)} photos {variant}" if photos else ""
    process = subprocess.Popen(argv, cwd=case.directory, env=case.env(), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    started = time.monotonic()
    if at_copy:
        while process.poll() is None and not partial_copies(case.path("store")) and time.monotonic() - started < case.timeout:
            time.sleep(0.0005)
        delay = time.monotonic() - started
    else:
        time.sleep(delay)
    kill_group(process)
    process.wait(timeout=case.timeout)
    case.describe(f"{journal} journal, {expected[1]['categories']} categories{photo_note}, migration takes {took * 1000:.0f} ms, "
                  f"killed after {delay * 1000:.0f} ms" + (" (at the folder copy)" if at_copy else ""))
    reproduce = f"{quote(argv)}  # kill -9 it {delay * 1000:.0f} ms after start"
    found = migration_state(store, case.path("judge"))
    if isinstance(found, str):
        case.fail("not whole", f"after the kill: {found}", "not whole: migrate: the store is damaged", reproduce)
        return
    version, counts = found
    cut = partial_copies(case.path("store"))
    case.describe(("a folder copy cut short, " if cut else "") + f"the store is the {version} one")
    if counts != expected[1]:
        case.fail("not whole", f"after the kill: {version} store holds {counts}, expected {expected[1]}",
                  "not whole: migrate: objects lost", reproduce)
    storage = PHOTO_STORAGE.get(variant, (False, False, False))
    for problem in photo_problems(store, "ZPUBLICATION" if version == "new" else "ZBOOK",
                                  storage[-1] if version == "new" else storage[0], photos)[:3]:
        case.fail("not whole", f"after the kill: {problem}", "not whole: migrate: a photo lost", reproduce)
    versions = case.graphstore(store, "-c", f".versions --model {bundle}")
    if case.check_run(versions, ".versions after the kill", quote(versions.argv), allow_nonzero=False):
        said = versions.stdout + versions.stderr
        wanted = "the store is BookStore 3" if version == "new" else "the store is BookStore\n"
        if wanted not in said + "\n":
            case.fail("not whole", f"after the kill: .versions does not say {wanted.strip()!r}", "not whole: migrate: wrong version", reproduce)
    again = case.graphstore("--write", store, "-c", f"migrate --model {bundle}")
    if case.check_run(again, "migrating again after the kill", quote(again.argv), allow_nonzero=False):
        final = migration_state(store, case.path("judge"))
        if isinstance(final, str) or final[0] != "new" or final[1] != expected[1]:
            case.fail("not whole", f"after migrating again: {final}", "not whole: migrate: second run", reproduce)
        backup = store + ".backup"
        problems = photo_problems(store, "ZPUBLICATION", storage[-1], photos)
        if os.path.exists(backup):
            problems += photo_problems(backup, "ZBOOK", storage[0], photos)
        for problem in problems[:3]:
            case.fail("not whole", f"after migrating again: {problem}", "not whole: migrate: a photo lost", reproduce)
    left = [name for name in os.listdir(case.path("store")) if "migrating" in name or ".partial-" in name]
    if left:
        case.fail("left behind", f"after migrating again: {left} beside the store", "left behind: migrate: scratch files", reproduce)


SCENARIO = Scenario("migrate", run, short=10, long=100, summary="kill -9 during a migration")
