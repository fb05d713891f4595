"""history: persistent history written with each save, killed with SIGKILL in a save. A copy
of a corpus store that has Core Data's persistent history (ResourcesManager: tables
ATRANSACTION, ACHANGE and ATRANSACTIONSTRING, entities 16002, 16001 and 16003 in
Z_PRIMARYKEY) gets a few saves of new Items and is killed during one of them. The history
rows must be in the same transaction as the save they record: after the kill the store
passes integrity_check, holds a prefix of the saves, each whole (never fewer than were
reported done), and exactly one new ATRANSACTION row for each save it holds, whose ACHANGE
rows are that save's inserts (ZCHANGETYPE 0, ZENTITY the Item entity, ZENTITYPK each new
Item's key) and nothing else; Z_MAX of CHANGE and TRANSACTION is no lower than their rows'
keys; and the store takes one more save.

Until graphstore writes persistent history, every case is skipped with the reason printed at
the start (`skipped history: graphstore writes no persistent history`): whether it does is
tried once, by one save into a copy of the store (does ATRANSACTION grow?). With
GRAPHSTORE_REQUIRE_HISTORY=1 the cases fail instead; without the corpus they are skipped, and
fail with GRAPHSTORE_REQUIRE_CORPUS=1."""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..case import Case, Skip
from ..files import SQLITE_ERRORS, copy_store, integrity, open_copy, remove, set_journal_mode
from ..processes import Session, quote, run_process
from ..scenario import Scenario
from ..sources import corpus_dir

if TYPE_CHECKING:
    from ..runner import Harness

# A store Core Data wrote with persistent history tracking on (relative to the corpus).
HISTORY_STORE = "stores/sergd2005__ResourcesManager/default.store"
INSERTED = 0  # ACHANGE.ZCHANGETYPE of an insert (NSPersistentHistoryChangeType.insert)


@dataclass
class Support:
    """Whether the cases can run: the store to copy, or why not and whether that fails them."""

    store: str | None
    reason: str = ""
    required_by: str = ""  # the environment variable that makes a skip a failure, when it is set


def history_support(harness: "Harness") -> Support:
    """Tried once: the corpus's store with history, and one save into a copy of it."""
    corpus = corpus_dir(harness)
    source = os.path.join(corpus, HISTORY_STORE) if corpus else None
    if not source or not os.path.isfile(source):
        support = Support(None, f"the corpus store with persistent history ({HISTORY_STORE}) is absent", required("GRAPHSTORE_REQUIRE_CORPUS"))
    else:
        support = Support(source, saving_writes_history(harness, source), required("GRAPHSTORE_REQUIRE_HISTORY"))
    if support.reason and not support.required_by:
        print(f"skipped history: {support.reason}", flush=True)
    return support


def required(variable: str) -> str:
    """`variable=1` when it is set so, else empty."""
    return f"{variable}=1" if os.environ.get(variable) == "1" else ""


def saving_writes_history(harness: "Harness", source: str) -> str:
    """Empty when a save into a copy of `source` adds an ATRANSACTION row, else why not."""
    directory = os.path.join(harness.scratch, "history-support")
    store = os.path.join(directory, "default.store")
    copy_store(source, store)
    os.makedirs(os.path.join(directory, "tmp"), exist_ok=True)
    env = dict(os.environ, TMPDIR=os.path.join(directory, "tmp"), NO_COLOR="1", GRAPHSTORE_HISTORY="", SWIFT_BACKTRACE="enable=no")
    try:
        before = transaction_count(store)
        run = run_process([harness.binary, "--no-rc", "--write", store, "-c", 'insert Item name="history support"', "-c", "save"],
                          env=env, cwd=directory, timeout=harness.args.timeout)
        if run.returncode != 0:
            return f"a save into a copy of {HISTORY_STORE} failed (exit {run.returncode}): {run.first_error()}"
        if transaction_count(store) <= before:
            return "graphstore writes no persistent history"
        return ""
    finally:
        remove(directory)


def transaction_count(store: str) -> int:
    connection = sqlite3.connect(store)
    try:
        return connection.execute("SELECT COUNT(*) FROM ATRANSACTION").fetchone()[0]
    finally:
        connection.close()


@dataclass
class HistoryState:
    """What the judgement reads from a store: our Items and the history rows after `since`."""

    items: dict[str, int]  # name -> Z_PK, for the Items the writer inserted
    transactions: list[int]  # ATRANSACTION keys above the first store's, in order
    changes: dict[int, set[tuple[int, int, int]]]  # transaction -> {(ZENTITY, ZENTITYPK, ZCHANGETYPE)}
    zmax: dict[str, int]  # Z_PRIMARYKEY.Z_MAX of CHANGE and TRANSACTION
    top: dict[str, int]  # the largest Z_PK of ACHANGE and ATRANSACTION


def read_history(connection: sqlite3.Connection, tag: str, since: int) -> HistoryState:
    items = dict(connection.execute("SELECT ZNAME, Z_PK FROM ZITEM WHERE ZNAME LIKE ?", (f"{tag}-%",)).fetchall())
    transactions = [pk for (pk,) in connection.execute("SELECT Z_PK FROM ATRANSACTION WHERE Z_PK > ? ORDER BY Z_PK", (since,))]
    changes: dict[int, set[tuple[int, int, int]]] = {t: set() for t in transactions}
    for transaction, entity, key, kind in connection.execute(
            "SELECT ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE FROM ACHANGE WHERE ZTRANSACTIONID > ?", (since,)):
        changes.setdefault(transaction, set()).add((entity, key, kind))
    zmax = dict(connection.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('CHANGE', 'TRANSACTION')").fetchall())
    top = {"CHANGE": connection.execute("SELECT MAX(Z_PK) FROM ACHANGE").fetchone()[0] or 0,
           "TRANSACTION": connection.execute("SELECT MAX(Z_PK) FROM ATRANSACTION").fetchone()[0] or 0}
    return HistoryState(items, transactions, changes, zmax, top)


def history_problems(state: HistoryState, saves: list[list[str]], item_entity: int, acknowledged: int) -> list[tuple[str, str, str]]:
    """(figure, detail, signature) for each way the store breaks "a save and its history, all
    or nothing"; `saves[i]` are the names of the Items save i + 1 inserted."""
    problems = []
    held = [sum(1 for name in names if name in state.items) for names in saves]
    for number, (count, names) in enumerate(zip(held, saves), 1):
        if 0 < count < len(names):
            problems.append(("not whole", f"save {number} is half there: {count} of its {len(names)} Items", "not whole: history: a save half done"))
    done = [i for i, count in enumerate(held) if count]
    saved = len(done)
    if done != list(range(saved)):
        problems.append(("not whole", f"the store holds saves {[i + 1 for i in done]}, not the first ones", "not whole: history: saves out of order"))
    if saved < acknowledged:
        problems.append(("lost", f"{acknowledged} saves reported done, the store holds {saved}", "lost: history: an acknowledged save is gone"))
    if len(state.transactions) != saved:
        problems.append(("not whole", f"{len(state.transactions)} new ATRANSACTION rows for the {saved} saves the store holds",
                         "not whole: history: transactions and saves differ"))
    for number, transaction in enumerate(state.transactions[:saved], 1):
        expected = {(item_entity, state.items[name], INSERTED) for name in saves[number - 1] if name in state.items}
        if state.changes.get(transaction, set()) != expected:
            found = state.changes.get(transaction, set())
            problems.append(("not whole", f"ATRANSACTION {transaction} (save {number}) has {len(found)} ACHANGE rows, "
                             f"{len(found - expected)} not of its save, {len(expected - found)} of its inserts missing",
                             "not whole: history: a transaction's changes are not its save's"))
    strays = sorted(set(state.changes) - set(state.transactions))
    if strays:
        problems.append(("not whole", f"ACHANGE rows of transactions that are not in ATRANSACTION: {strays[:5]}",
                         "not whole: history: changes without their transaction"))
    for name in ("CHANGE", "TRANSACTION"):
        if state.zmax.get(name, 0) < state.top[name]:
            problems.append(("not whole", f"Z_MAX {state.zmax.get(name)} of {name} is below the largest key {state.top[name]}",
                             "not whole: history: Z_MAX below max(Z_PK)"))
    return problems


def run(case: Case) -> None:
    support = case.harness.prepared(history_support)
    if support.reason:
        if support.required_by:
            case.fail("lost", f"{support.reason}, and {support.required_by} requires it", f"lost: history: {support.reason}")
            return
        raise Skip(support.reason)
    rng = case.rng
    journal = rng.choice(["wal", "delete"])
    store = case.path("store", "default.store")
    copy_store(support.store, store)
    set_journal_mode(store, journal)
    tag = f"h{case.index}"
    connection = sqlite3.connect(store)
    try:
        since = connection.execute("SELECT MAX(Z_PK) FROM ATRANSACTION").fetchone()[0] or 0
        transactions = connection.execute("SELECT COUNT(*) FROM ATRANSACTION").fetchone()[0]
        item_entity = connection.execute("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'").fetchone()[0]
    finally:
        connection.close()
    saves = [[f"{tag}-{s}-{i}" for i in range(rng.randint(1, 40))] for s in range(rng.randint(1, 5))]
    target = rng.randrange(len(saves))
    delay = rng.uniform(0, 0.03)
    argv = [case.harness.binary, "--no-rc", "--write", "--no-bail", store]
    session = Session(argv, env=case.env(), cwd=case.directory, name="writer")
    for number, names in enumerate(saves, 1):
        for name in names:
            session.send(f'insert Item name="{name}"')
        if not session.sync(case.timeout):
            break
        session.send("save")
        session.send(f".print @@saved {number}")
        if number - 1 == target:
            time.sleep(delay)
            break
        if not session.wait_for(f"@@saved {number}", case.timeout):
            break
    session.kill()
    session.finish(case.timeout)
    case.clear_after_kill("writer")
    acknowledged = max([int(m.split()[1]) for m in session.markers if m.startswith("@@saved")], default=0)
    reproduce = f"{quote(argv)}, fed the inserts and saves of the case  # kill -9 it {delay * 1000:.1f} ms into save {target + 1}"
    case.describe(f"{journal} journal, {len(saves)} saves of {[len(s) for s in saves]} Items, killed {delay * 1000:.1f} ms into "
                  f"save {target + 1}, {acknowledged} acknowledged")
    connection, _ = open_copy(store, case.path("judge"))
    try:
        problem = integrity(connection)
        state = None if problem else read_history(connection, tag, since)
    except SQLITE_ERRORS as error:
        problem = f"unreadable: {error}"
    finally:
        connection.close()
        remove(case.path("judge"))
    if problem:
        case.fail("not whole", f"after the kill: {problem}", "not whole: history: the store is damaged", reproduce)
        return
    for figure, detail, signature in history_problems(state, saves, item_entity, acknowledged):
        case.fail(figure, f"after the kill: {detail}", signature, reproduce)
    again = case.graphstore("--write", store, "-c", f'insert Item name="{tag}-after"', "-c", "save")
    if case.check_run(again, "a save after the kill", quote(again.argv), allow_nonzero=False) and transaction_count(store) <= transactions + len(state.transactions):
        case.fail("not whole", "a save after the kill wrote no ATRANSACTION row", "not whole: history: no history after the kill", quote(again.argv))
    case.check_tmp_clean("history")


SCENARIO = Scenario("history", run, short=3, long=60, summary="kill -9 in saves that write persistent history", prepare=history_support)
