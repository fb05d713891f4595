"""external-kill: writers killed with SIGKILL while saving values kept outside the database
(above 128 KiB, in .<store>_SUPPORT/_EXTERNAL_DATA): every reference a row holds must name a
whole file of a value that was written (an orphan file is allowed, a dangling or partial one
is not), and the store opens again."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time

from ..bookstore import EXAMPLE_MODEL, EXTERNAL_VALUE_SIZE, calibrate, example_copy
from ..case import Case
from ..files import integrity, open_copy
from ..processes import Session, quote
from ..scenario import Scenario


def external_store(case: Case, journal: str) -> tuple[str, str]:
    """The example store with a Book.photo column, and a model whose photo allows external storage."""
    store = example_copy(case, "store", journal)
    connection = sqlite3.connect(store)
    try:
        connection.execute("ALTER TABLE ZBOOK ADD COLUMN ZPHOTO BLOB")
        connection.commit()
    finally:
        connection.close()
    bundle = EXAMPLE_MODEL
    version = sorted(n for n in os.listdir(bundle) if n.endswith(".xcdatamodel"))[0]
    with open(os.path.join(bundle, version, "contents")) as f:
        contents = f.read()
    photo = '<attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>'
    contents = re.sub(r'(<entity name="Book"[^>]*>)', lambda m: m.group(1) + "\n        " + photo, contents, count=1)
    model = case.path("Photo.xcdatamodel")
    os.makedirs(model, exist_ok=True)
    with open(os.path.join(model, "contents"), "w") as f:
        f.write(contents)
    return store, model


def run(case: Case) -> None:
    rng = case.rng
    timing = case.harness.prepared(calibrate)
    journal = rng.choice(["wal", "delete"])
    store, model = external_store(case, journal)
    saves = rng.randint(2, 5)
    # Each save gives books 2 and 3 (prices within the model's rules) new values of one
    # repeated byte, so a file's content tells which value it is and whether it is whole.
    values: set[bytes] = set()
    script = []
    for i in range(saves):
        for pk in (2, 3):
            byte = rng.randrange(1, 256)
            values.add(bytes([byte]) * EXTERNAL_VALUE_SIZE)
            script.append(f"set Book/{pk} photo=0x" + f"{byte:02x}" * EXTERNAL_VALUE_SIZE + (" price=20" if pk == 3 else ""))
        if rng.random() < 0.3:
            script.append(f"set Book/{rng.choice((2, 3))} photo=nil")
        script += ["save", f".print @@saved {i + 1}"]
    with open(case.path("commands.graphstore"), "w") as f:
        f.write("\n".join(script) + "\n")
    argv = [case.harness.binary, "--no-rc", "--write", "--no-bail", "--model", model, store]
    session = Session(argv, env=case.env(), cwd=case.directory, name="writer")
    threading.Thread(target=lambda: [session.send(l) for l in script], daemon=True).start()
    # A save of two values takes about half a second in a debug build (the hex is parsed):
    # the kill falls anywhere from start-up to past the last save.
    delay = rng.uniform(0, timing.startup_seconds + 0.7 * saves)
    time.sleep(delay)
    session.kill()
    session.finish(case.timeout)
    case.clear_after_kill("writer")
    acknowledged = max([int(m.split()[1]) for m in session.markers if m.startswith("@@saved")], default=0)
    case.describe(f"{journal} journal, {saves} saves, killed {delay * 1000:.0f} ms after start, {acknowledged} acknowledged")
    reproduce = f"{quote(argv)} < commands.graphstore  # then kill -9 it {delay * 1000:.0f} ms after start"
    folder = os.path.join(os.path.dirname(store), ".BookStore_SUPPORT", "_EXTERNAL_DATA")
    # A copy, log included: a hot journal left by the kill is rolled back there, as any
    # reader would, and the store itself stays as the kill left it.
    connection, _ = open_copy(store, case.path("judge"))
    try:
        if integrity(connection):
            case.fail("not whole", "integrity_check fails after the kill", "not whole: external-kill integrity", reproduce)
        rows = connection.execute("SELECT Z_PK, ZPHOTO FROM ZBOOK WHERE ZPHOTO IS NOT NULL").fetchall()
    finally:
        connection.close()
    for pk, blob in rows:
        if not isinstance(blob, bytes) or blob[:1] != b"\x02":
            continue
        name = blob[1:].split(b"\x00")[0].decode("ascii", "replace")
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            case.fail("not whole", f"Book p{pk} references external data file {name}, which is missing", "not whole: dangling external reference", reproduce)
            continue
        with open(path, "rb") as f:
            content = f.read()
        if content not in values:
            case.fail("not whole", f"Book p{pk}: external data file {name} holds {len(content)} bytes, not a value written whole",
                      "not whole: partial external file", reproduce)
    if acknowledged == saves:
        run = case.graphstore("--model", model, "--mode", "csv", store, "-c", "fetch Book", "-c", "validate")
        case.check_run(run, "read after the kill", reproduce)


SCENARIO = Scenario("external-kill", run, short=8, long=100, summary="kill -9 while saving external data", prepare=calibrate)
