"""The BookStore example as the writers' scenarios use it: copies of its store, the state its
writers leave (`BookState`, worked out save by save by `plan_batches`), the judgement of a
store a killed writer left, and the calibration that times a writer and checks that
bookkeeping."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .case import Case
from .files import SQLITE_ERRORS, compare_snapshots, copy_store, integrity, integrity_of_copy, open_copy, remove, set_journal_mode, snapshot_files
from .processes import quote, run_process

if TYPE_CHECKING:
    from .runner import Harness

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE_STORE = os.path.join(REPO, "examples/BookStore/BookStore.sqlite")
EXAMPLE_MODEL = os.path.join(REPO, "examples/BookStore/BookStore.xcdatamodeld")
EXAMPLE_HISTORY = os.path.join(REPO, "examples/BookStore/History.xcdatamodeld")

# Above GraphStore's external-storage threshold (128 KiB), so each value goes to a file.
EXTERNAL_VALUE_SIZE = 140_000


class BookState:
    """What the BookStore example holds in the columns the writers touch.

    rows[table][pk] = (Z_ENT, Z_OPT, payload...); zmax[entity number]. Keys are handed out
    as GraphStore (and Core Data) do: per inheritance root from max(Z_MAX, max(Z_PK)) + 1,
    in insertion order, before the save's deletes run.
    """

    TABLES = {"ZBOOKCATEGORY": (2, ["ZNAME"]), "ZBOOK": (1, ["ZPRICE", "ZTITLE", "ZCATEGORY"])}

    def __init__(self, rows, zmax):
        self.rows = rows
        self.zmax = zmax

    @staticmethod
    def read(connection: sqlite3.Connection) -> "BookState":
        rows = {}
        for table, (_, columns) in BookState.TABLES.items():
            rows[table] = {
                r[0]: (r[1], r[2], *[float(v) if isinstance(v, (int, float)) and c == "ZPRICE" else v
                                     for c, v in zip(columns, r[3:])])
                for r in connection.execute(f"SELECT Z_PK, Z_ENT, Z_OPT, {', '.join(columns)} FROM {table}")
            }
        zmax = {r[0]: r[1] for r in connection.execute("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY")}
        return BookState(rows, zmax)

    def copy(self) -> "BookState":
        return BookState({t: dict(r) for t, r in self.rows.items()}, dict(self.zmax))

    def key(self):
        return (tuple((t, tuple(sorted(r.items()))) for t, r in sorted(self.rows.items())), tuple(sorted(self.zmax.items())))

    def differences(self, other: "BookState") -> str:
        parts = []
        for table in self.TABLES:
            mine, theirs = self.rows[table], other.rows[table]
            missing = sorted(set(mine) - set(theirs))
            extra = sorted(set(theirs) - set(mine))
            changed = sorted(pk for pk in set(mine) & set(theirs) if mine[pk] != theirs[pk])
            if missing or extra or changed:
                parts.append(f"{table}: {len(missing)} rows missing, {len(extra)} extra, {len(changed)} differ"
                             + (f" (p{changed[0]}: {theirs[changed[0]]} vs {mine[changed[0]]})" if changed else ""))
        if self.zmax != other.zmax:
            parts.append(f"Z_MAX {other.zmax} vs {self.zmax}")
        return "; ".join(parts) or "same"


@dataclass
class Batch:
    """One save of a writer: its command lines and the state after it."""

    lines: list[str]
    after: BookState
    rows: int


def plan_batches(rng: random.Random, start: BookState, count: int, size: int, tag: str, text_size: int = 0) -> list[Batch]:
    """Draws `count` saves of inserts, updates and deletes, and works out the state after each."""
    state = start.copy()
    batches = []
    ours = {"ZBOOKCATEGORY": [], "ZBOOK": []}  # rows this writer inserted (no relationships)
    for b in range(count):
        lines = []
        after = state.copy()
        padding = "x" * text_size
        inserts = []  # (table, payload)
        for i in range(rng.randint(1, size)):
            if rng.random() < 0.6:
                inserts.append(("ZBOOKCATEGORY", (f"{tag}b{b}c{i}{padding}",)))
            else:
                inserts.append(("ZBOOK", (float(rng.randint(15, 500)), f"{tag}b{b}t{i}{padding}", None)))
        deletes = []
        for table in ours:
            alive = [pk for pk in ours[table] if pk in state.rows[table]]
            deletes += [(table, pk) for pk in rng.sample(alive, min(len(alive), rng.randint(0, 3)))]
        updates = []
        for table in ours:
            candidates = [pk for pk in state.rows[table] if (table, pk) not in deletes]
            updates += [(table, pk) for pk in rng.sample(candidates, min(len(candidates), rng.randint(0, 4)))]
        # Keys: per root, from max(Z_MAX, max(Z_PK)) + 1, in insertion order, before deletes.
        next_key = {}
        for table, (entity, _) in BookState.TABLES.items():
            next_key[table] = max(state.zmax.get(entity, 0), max(state.rows[table], default=0)) + 1
        for table, payload in inserts:
            entity = BookState.TABLES[table][0]
            pk = next_key[table]
            next_key[table] += 1
            after.rows[table][pk] = (entity, 1, *payload)
            after.zmax[entity] = pk
            ours[table].append(pk)
            if table == "ZBOOKCATEGORY":
                lines.append(f'insert BookCategory name="{payload[0]}"')
            else:
                lines.append(f'insert Book price={int(payload[0])} title="{payload[1]}"')
        for table, pk in updates:
            entity, version, *payload = after.rows[table][pk]
            if table == "ZBOOKCATEGORY":
                payload[0] = f"{tag}b{b}u{pk}"
                lines.append(f'set BookCategory/p{pk} name="{payload[0]}"')
            else:
                payload[0] = float(rng.choice([p for p in range(15, 500) if p != payload[0]]))  # an equal value is no change
                lines.append(f"set Book/p{pk} price={int(payload[0])}")
            after.rows[table][pk] = (entity, version + 1, *payload)
        for table, pk in deletes:
            del after.rows[table][pk]
            lines.append(f"delete {'BookCategory' if table == 'ZBOOKCATEGORY' else 'Book'}/p{pk}")
        batches.append(Batch(lines, after, len(inserts) + len(updates) + len(deletes)))
        state = after
    return batches


def judge_store(case: Case, store: str, states: list[BookState], acknowledged: int, what: str, reproduce: str) -> int | None:
    """Checks a store written by the BookStore writer: integrity, all or nothing, durability.

    `states[0]` is the state before the first save, `states[i]` after save i; `acknowledged`
    saves were reported done. Returns the index of the state found, or None.
    """
    connection, _ = open_copy(store, case.path("judge"))
    try:
        problem = integrity(connection)
        if problem:
            case.fail("not whole", f"{what}: integrity_check: {problem}", f"not whole: {case.scenario}: integrity_check fails", reproduce)
            return None
        try:
            found = BookState.read(connection)
        except SQLITE_ERRORS as error:
            case.fail("not whole", f"{what}: cannot read the rows: {error}", f"not whole: {case.scenario}: unreadable", reproduce)
            return None
    finally:
        connection.close()
        remove(case.path("judge"))
    for entity, top in found.zmax.items():
        table = next((t for t, (e, _) in BookState.TABLES.items() if e == entity), None)
        if table and found.rows[table] and top < max(found.rows[table]):
            case.fail("not whole", f"{what}: Z_MAX {top} of entity {entity} is below max(Z_PK) {max(found.rows[table])}",
                      f"not whole: {case.scenario}: Z_MAX below max(Z_PK)", reproduce)
    key = found.key()
    matches = [i for i, s in enumerate(states) if s.key() == key]
    if not matches:
        nearest = min(range(len(states)), key=lambda i: len(states[i].differences(found)))
        case.fail("not whole", f"{what}: neither before nor after any save (against state {nearest}: {states[nearest].differences(found)})",
                  f"not whole: {case.scenario}: a save half done", reproduce)
        return None
    index = matches[-1]
    if index < acknowledged:
        case.fail("lost", f"{what}: {acknowledged} saves reported done, the store holds {index}",
                  f"lost: {case.scenario}: an acknowledged save is gone", reproduce)
    return index


def reopen_checks(case: Case, store: str, expected: BookState | None, what: str, model: str = EXAMPLE_MODEL,
                  tmpdir: str | None = None, write: bool = True) -> None:
    """The store opens again: read-only (not one byte changed, counts right), then for writing."""
    before = snapshot_files(os.path.dirname(store))
    run = case.graphstore("--mode", "csv", "--no-headers", store, "-c", ".entities", tmpdir=tmpdir)
    reproduce = quote(run.argv)
    if case.check_run(run, f"{what}: read-only open", reproduce, allow_nonzero=False) and expected is not None:
        counts = {}
        for line in run.stdout.splitlines():
            cells = line.split(",")
            if len(cells) >= 5 and cells[-1].isdigit():
                counts[cells[1]] = int(cells[-1])
        for table in BookState.TABLES:
            if counts.get(table) != len(expected.rows[table]):
                case.fail("not whole", f"{what}: graphstore counts {counts.get(table)} rows in {table}, SQLite {len(expected.rows[table])}",
                          f"not whole: {case.scenario}: graphstore and SQLite disagree", reproduce)
    changes = compare_snapshots(before, snapshot_files(os.path.dirname(store)))
    if changes:
        case.fail("not whole", f"{what}: the read-only open changed the store's files: {', '.join(changes)}",
                  f"not whole: read-only open after {case.scenario} changed {changes[0].split()[-1]} files", reproduce)
    case.check_tmp_clean(f"{what}: read-only open", tmpdir)
    if not write:
        return
    run = case.graphstore("--write", "--model", model, store, "-c", f'insert BookCategory name="{case.scenario}-after"', "-c", "save",
                          tmpdir=tmpdir)
    if case.check_run(run, f"{what}: writing again", quote(run.argv), allow_nonzero=False):
        problem = integrity_of_copy(store, case.path("judge"))
        if problem:
            case.fail("not whole", f"{what}: after writing again, integrity_check: {problem}", "not whole: write after recovery", quote(run.argv))


def example_copy(case: Case, directory: str, journal: str | None = None) -> str:
    store = case.path(directory, "BookStore.sqlite")
    copy_store(EXAMPLE_STORE, store, sidecars=False)
    if journal:
        set_journal_mode(store, journal)
    return store


def example_state(store: str) -> BookState:
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return BookState.read(connection)
    finally:
        connection.close()


def writer_argv(harness: "Harness", store: str, bail: bool = False) -> list[str]:
    return [harness.binary, "--no-rc", "--write", "--bail" if bail else "--no-bail", "--model", EXAMPLE_MODEL, store]


@dataclass
class WriterTiming:
    """How long the BookStore writer takes to start and to save one changed row."""

    startup_seconds: float
    seconds_per_row: float


def calibrate(harness: "Harness") -> WriterTiming:
    """Times a writer (so kills land inside saves) and checks the writers' bookkeeping.

    The BookStore writer runs un-killed; the store must then hold exactly the state the
    harness worked out. If not, the harness's model of a save is wrong and no kill or
    full-disk figure could be trusted: stop.
    """
    directory = os.path.join(harness.scratch, "calibration")
    store = os.path.join(directory, "BookStore.sqlite")
    copy_store(EXAMPLE_STORE, store, sidecars=False)
    start = example_state(store)
    batches = plan_batches(random.Random(harness.args.seed), start, 3, 400, tag="cal")
    script = []
    for batch in batches:
        script += batch.lines + ["save"]
    rows = sum(b.rows for b in batches)
    os.makedirs(os.path.join(directory, "tmp"), exist_ok=True)
    env = dict(os.environ, TMPDIR=os.path.join(directory, "tmp"), NO_COLOR="1", GRAPHSTORE_HISTORY="")
    empty = run_process(writer_argv(harness, store) + ["-c", ".quit"], env=env, cwd=directory, timeout=60)
    run = run_process(writer_argv(harness, store), env=env, cwd=directory, timeout=120, stdin=("\n".join(script) + "\n").encode())
    if run.returncode != 0:
        raise SystemExit(f"fault-injection: the calibration writer failed (exit {run.returncode}): {run.first_error()}")
    found = example_state(store)
    if found.key() != batches[-1].after.key():
        raise SystemExit("fault-injection: harness self-check failed: the BookStore writer's store is not the state "
                         f"worked out ({batches[-1].after.differences(found)}); the kill and full-disk judgements would be wrong")
    shutil.rmtree(directory, ignore_errors=True)
    return WriterTiming(startup_seconds=empty.seconds, seconds_per_row=max(1e-5, (run.seconds - empty.seconds) / rows))
