"""race: two `--write` processes read one object (fetch or show), change it and save; both
succeeding while one change is gone is an update lost. Lock-step interleavings (each line
waits for the other process's answer) and loose ones (random delays, the processes run
freely)."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from dataclasses import dataclass

from ..bookstore import EXAMPLE_MODEL, example_copy, example_state
from ..case import Case
from ..files import integrity, open_copy, remove
from ..processes import Session, quote
from ..scenario import Scenario

RACE_OBJECTS = [("BookCategory", 1, "name"), ("BookCategory", 2, "name")]


def read_command(how: str, entity: str, pk: int, seed_text: str) -> str:
    if how == "fetch":
        return f"fetch {entity}"
    if how == "fetch where":
        return f"fetch {entity} where name BEGINSWITH '{seed_text[:3]}'"
    return f"show {entity}/{pk}"


def parse_read(how: str, lines: list[str], entity: str, pk: int) -> str | None:
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if how == "show":
            if row.get("property") == "name":
                return row.get("value")
        elif row.get("object") == f"{entity} p{pk}":
            return row.get("name")
    return None


@dataclass
class Writer:
    name: str
    read_how: str
    deletes: bool = False
    read_value: str | None = None
    read_failed: bool = False
    wrote: str | None = None
    change_line: int = 0
    save_line: int = 0
    outcome: str = "not run"  # saved, conflict, busy, error, died, hang


def classify_save(session: Session, line: int) -> str:
    errors = session.errors_for(line)
    if not errors:
        return "saved"
    text = " ".join(errors)
    if "133020" in text or "changed by someone else" in text:
        return "conflict"
    if re.search(r"locked|busy", text, re.I):
        return "busy"
    return "error: " + text[:160]


def lockstep_text(order: list[str], steps: dict[str, list[str]]) -> str:
    """`Ar Br Bc Bs Ac As`: who does what, in order (read, change, save)."""
    position = {w: 0 for w in steps}
    words = []
    for w in order:
        words.append(w + steps[w][position[w]][0])
        position[w] += 1
    return " ".join(words)


def run(case: Case) -> None:
    rng = case.rng
    journal = rng.choice(["wal", "delete"])
    store = example_copy(case, "store", journal)
    entity, pk, _ = rng.choice(RACE_OBJECTS)
    original = example_state(store).rows["ZBOOKCATEGORY"][pk][2]
    lockstep = rng.random() < 0.7
    a = Writer("A", rng.choice(["fetch", "fetch", "fetch where", "show"]))
    b = Writer("B", rng.choice(["fetch", "fetch", "fetch where", "show"]), deletes=rng.random() < 0.15)
    writers = {"A": a, "B": b}
    steps = {w: ["read", "change", "save"] for w in writers}
    for w in writers:  # sometimes a second read before the change
        if rng.random() < 0.25:
            steps[w].insert(1, "read")
    order = [w for w in writers for _ in steps[w]]
    rng.shuffle(order)
    case.describe(f"{journal} journal, {entity}/p{pk}, A {a.read_how}, B {b.read_how}{' and deletes' if b.deletes else ''}, "
                  + ("lock-step " + lockstep_text(order, steps) if lockstep else "loose (random delays)"))
    sessions = {}
    for w in writers:
        argv = [case.harness.binary, "--no-rc", "--write", "--no-bail", "--mode", "jsonl", "--model", EXAMPLE_MODEL, store]
        sessions[w] = Session(argv, env=case.env(), cwd=case.directory, name=w)
    transcript: dict[str, list[str]] = {w: [] for w in writers}
    interleaving: list[str] = []
    interleaving_lock = threading.Lock()

    def step(w: str, what: str, wait: bool) -> bool:
        writer, session = writers[w], sessions[w]
        if what == "read":
            line = read_command(writer.read_how, entity, pk, original)
            before = session.output_count()
            session.send(line)
            transcript[w].append(line)
            with interleaving_lock:
                interleaving.append(f"{w}: {line}")
            if not session.sync(case.timeout):
                return False
            value = parse_read(writer.read_how, session.output_since(before), entity, pk)
            if value is None:
                writer.read_failed = True  # nothing to base a change on: this writer stops here
                return False
            writer.read_value = value
            return True
        if what == "change":
            if writer.deletes:
                line = f"delete {entity}/p{pk}"
            else:
                writer.wrote = f"{writer.read_value}+{w}"
                line = f'set {entity}/p{pk} name="{writer.wrote}"'
        else:
            line = "save"
        number = session.send(line)
        transcript[w].append(line)
        with interleaving_lock:
            interleaving.append(f"{w}: {line}")
        if what == "save":
            writer.save_line = number
        else:
            writer.change_line = number
        if wait:
            return session.sync(case.timeout)
        return True

    stopped = set()  # writers that went no further: a read found nothing, or no answer came
    if lockstep:
        position = {w: 0 for w in writers}
        for w in order:
            if w in stopped:
                continue
            if not step(w, steps[w][position[w]], wait=True):
                stopped.add(w)
            position[w] += 1
    else:
        def drive(w: str, seed: int):
            local = random.Random(seed)
            for what in steps[w]:
                time.sleep(local.uniform(0, 0.03))
                if not step(w, what, wait=False):
                    stopped.add(w)
                    return
            if not sessions[w].sync(case.timeout):
                stopped.add(w)
        threads = [threading.Thread(target=drive, args=(w, rng.randrange(1 << 30))) for w in writers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    with open(case.path("interleaving.txt"), "w") as f:
        f.write("\n".join(interleaving) + "\n")
    for w, session in sessions.items():
        with open(case.path(f"writer-{w}.graphstore"), "w") as f:
            f.write("\n".join(transcript[w]) + "\n")
    runs = {w: s.finish(case.timeout) for w, s in sessions.items()}
    reproduce = (f"two writers `{quote(sessions['A'].argv)}`, fed the lines of interleaving.txt "
                 + ("in that order, each line after the previous one's output" if lockstep else "freely (random delays)"))
    clean = True
    for w, run in runs.items():
        if w in stopped and not writers[w].read_failed and not run.timed_out and run.crash() is None:
            run.timed_out = True  # a sync that never came back
        clean &= case.check_run(run, f"writer {w}", reproduce)
        refused = sessions[w].errors_for(writers[w].change_line) if writers[w].change_line else []
        if writers[w].read_failed:
            writers[w].outcome = "stopped: its read found no object"
        elif refused:
            writers[w].outcome = "change refused: " + refused[0][:120]  # the save then has nothing to save
        elif writers[w].save_line:
            writers[w].outcome = classify_save(sessions[w], writers[w].save_line)
    connection, _ = open_copy(store, case.path("judge"))
    try:
        problem = integrity(connection)
        row = connection.execute("SELECT ZNAME FROM ZBOOKCATEGORY WHERE Z_PK = ?", (pk,)).fetchone()
    finally:
        connection.close()
        remove(case.path("judge"))
    if problem:
        case.fail("not whole", f"integrity_check: {problem}", "not whole: race: integrity_check fails", reproduce)
    final = None if row is None else row[0]
    outcomes = f"A {a.outcome} (read {a.read_value!r}), B {b.outcome} (read {b.read_value!r}), final {final!r}"
    case.describe(outcomes)
    if not clean:
        return
    saved = [w for w in writers.values() if w.outcome == "saved"]
    for w in writers.values():
        if w.outcome.startswith("error"):
            case.notes.append(f"writer {w.name}: {w.outcome}")
    lost = []  # (what is gone, the writer that overwrote or deleted it)
    for w in saved:
        other = writers["B" if w.name == "A" else "A"]
        if w.deletes:
            if final is not None:
                lost.append((f"{w.name}'s delete", other))
        elif final is None:
            saw_it = other.read_value is not None and f"+{w.name}" in other.read_value
            if not (other in saved and other.deletes and saw_it):
                lost.append((f"{w.name}'s change (deleted by {other.name}, who never saw it)", other))
        elif f"+{w.name}" not in final:
            lost.append((f"{w.name}'s change", other))
    if lost:
        case.tally("lost")
        gone, culprit = lost[0]
        family = "show" if culprit.read_how == "show" else "fetch"
        case.fail("lost", f"both saves reported success, {', '.join(g for g, _ in lost)} is gone: {outcomes}",
                  f"lost: a change {'deleted' if culprit.deletes else 'overwritten'} by a writer that read the object through {family}",
                  reproduce)
    elif len(saved) == 2:
        case.tally("serialised")
    elif any(w.outcome.startswith(("change refused", "stopped")) for w in writers.values()):
        case.tally("serialised (deleted before the other's change)")
    elif any(w.outcome == "conflict" for w in writers.values()):
        case.tally("conflict reported")
    elif any(w.outcome == "busy" for w in writers.values()):
        case.tally("busy (database locked)")
    else:
        case.tally("other: " + ", ".join(sorted({w.outcome.split(":")[0] for w in writers.values()})))
        for w in writers.values():
            if w.outcome.startswith("change refused"):
                case.notes.append(f"writer {w.name}: {w.outcome}")


SCENARIO = Scenario("race", run, short=16, long=100, summary="two writers on one object")
