"""For the scenarios that kill one command with SIGKILL and then ask "all or nothing?": the
command timed whole on a copy, the real one killed at a random moment or just after it
starts to write, and every row a store holds, to compare the store it left with the store
before and the store after."""

from __future__ import annotations

import os
import plistlib
import random
import subprocess
import time
from dataclasses import dataclass

from .case import Case
from .files import SQLITE_ERRORS, integrity, open_copy, remove
from .processes import Run, kill_group

# Tables whose rows say nothing about the objects (SQLite's own statistics).
SKIPPED_TABLES = ("sqlite_stat1", "sqlite_stat4", "sqlite_sequence")


def store_rows(store: str, workdir: str) -> dict[str, list] | str:
    """Every row of every table of a copy of the store (its log included, so a hot journal a
    kill left is rolled back as any reader would), Z_METADATA's property list decoded; or
    what is wrong with the store: integrity_check's complaint, or why it cannot be read."""
    connection, _ = open_copy(store, workdir)
    try:
        problem = integrity(connection)
        if problem:
            return f"integrity_check: {problem}"
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                  if name not in SKIPPED_TABLES]
        rows = {}
        for table in tables:
            found = connection.execute(f'SELECT * FROM "{table}"').fetchall()
            if table == "Z_METADATA":
                found = [tuple(decoded_plist(value) for value in row) for row in found]
            rows[table] = sorted(found, key=repr)
        return rows
    except SQLITE_ERRORS as error:
        return f"unreadable: {error}"
    finally:
        connection.close()
        remove(workdir)


def decoded_plist(value):
    """A property list's contents (the same metadata may be written with its keys in another
    order), anything else as it is."""
    if isinstance(value, bytes) and value.startswith(b"bplist"):
        try:
            return repr(canonical(plistlib.loads(value)))
        except Exception:
            return value
    return value


def canonical(value):
    """A decoded property list with every dictionary's keys in one order."""
    if isinstance(value, dict):
        return tuple(sorted((repr(key), canonical(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(canonical(item) for item in value)
    return value


def differences(expected: dict[str, list], found: dict[str, list]) -> str:
    """Which tables differ and how many rows each side has alone, e.g. `ZBOOK: 3 rows missing, 2 extra`."""
    parts = []
    for table in sorted(set(expected) | set(found)):
        mine, theirs = expected.get(table), found.get(table)
        if mine is None or theirs is None:
            parts.append(f"{table} {'missing' if theirs is None else 'extra'}")
        elif mine != theirs:
            missing = len(set(mine) - set(theirs))
            extra = len(set(theirs) - set(mine))
            parts.append(f"{table}: {missing} rows missing, {extra} extra")
    return "; ".join(parts) or "same"


@dataclass
class Killed:
    """A command killed with SIGKILL (or that ended first) and what it printed."""

    moment: str  # when it was killed, in words
    finished: bool  # it ended by itself before the kill
    run: Run

    @property
    def stdout(self) -> str:
        return self.run.stdout


def writing(store: str, wal_size: int) -> bool:
    """Whether a writer has begun to write the store: a rollback journal beside it, or a -wal
    grown past the size it had when the writer started."""
    try:
        return os.path.exists(store + "-journal") or os.path.getsize(store + "-wal") > wal_size
    except OSError:
        return False


def kill_somewhere(case: Case, argv: list[str], store: str, took: float, rng: random.Random) -> Killed:
    """Runs `argv` and kills it with SIGKILL: half the time at a moment drawn between its start
    and a little past the `took` seconds a whole run took, half the time soon after its first
    write to `store` (within 15 ms and a tenth of `took`: most of a command is reading and
    working out, and a kill during its commit, or the checkpoint as the session ends, is the
    one that tests all or nothing)."""
    at_write = rng.random() < 0.5
    delay = rng.uniform(0, took * 1.1) if not at_write else rng.uniform(0, 0.015 + took / 10)
    wal_size = os.path.getsize(store + "-wal") if os.path.exists(store + "-wal") else 0
    out_path, err_path = case.path("killed.stdout"), case.path("killed.stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=case.directory, env=case.env(), stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=err, start_new_session=True)
        if at_write:
            while process.poll() is None and not writing(store, wal_size) and time.monotonic() - started < case.timeout:
                time.sleep(0.0002)
            began = time.monotonic() - started
            time.sleep(delay)
            moment = f"{delay * 1000:.1f} ms after it began to write ({began * 1000:.0f} ms after start)"
        else:
            time.sleep(delay)
            moment = f"{delay * 1000:.0f} ms after start"
        finished = process.poll() is not None
        kill_group(process)
        process.wait(timeout=case.timeout)
        seconds = time.monotonic() - started
    case.clear_after_kill("the killed command")
    with open(out_path, encoding="utf-8", errors="replace") as f:
        stdout = f.read()
    with open(err_path, encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    remove(out_path)
    remove(err_path)
    run = Run(list(argv), process.returncode, stdout, stderr, False, seconds)
    return Killed(moment + (" (it had finished)" if finished else ""), finished, run)


@dataclass
class Outcomes:
    """How a scenario names the two whole outcomes of a killed command and its two failures."""
    scenario: str       # "import", "seed-apply"
    before: str         # what a store left as it was holds, for the report
    after: str          # what a store wholly changed holds
    lost: str           # the failure when the command said it was done and the store is as before
    half: str           # the failure when the store is neither


def judge_kill(case: Case, store: str, before: dict, after: dict, reported: bool, reproduce: str, says: Outcomes) -> dict | None:
    """After a kill: the store must hold `before` (and then the command must not have reported
    itself done) or `after`; anything else, or a damaged store, fails the case. The rows found
    when the store is either (whole, if perhaps lost), None when it is damaged or half changed."""
    found = store_rows(store, case.path("judge"))
    if isinstance(found, str):
        case.fail("not whole", f"after the kill: {found}", f"not whole: {says.scenario}: the store is damaged", reproduce)
        return None
    if found == before:
        case.describe(f"the store {says.before}" + (" (reported done)" if reported else ""))
        if reported:
            case.fail("lost", f"{says.scenario} reported done, but the store {says.before}", f"lost: {says.scenario}: {says.lost}", reproduce)
        return found
    if found == after:
        case.describe(f"the store {says.after}")
        return found
    case.fail("not whole", f"after the kill: neither before nor after (against before: {differences(before, found)}; "
              f"against after: {differences(after, found)})", f"not whole: {says.scenario}: {says.half}", reproduce)
    return None

