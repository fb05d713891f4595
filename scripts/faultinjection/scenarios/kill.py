"""kill: writers killed with SIGKILL at random points of their saves; the store must pass
integrity_check, be exactly the state before or after each save (never below a save that
reported success) and open again, read-only and for writing."""

from __future__ import annotations

import threading
import time

from ..bookstore import calibrate, example_copy, example_state, judge_store, plan_batches, reopen_checks, writer_argv
from ..case import Case
from ..files import copy_tree
from ..processes import Session, quote
from ..scenario import Scenario


def run(case: Case) -> None:
    rng = case.rng
    timing = case.harness.prepared(calibrate)
    journal = rng.choice(["wal", "delete"])
    store = example_copy(case, "store", journal)
    start = example_state(store)
    size = case.harness.args.kill_batch
    batches = plan_batches(rng, start, rng.randint(1, 4), rng.randint(1, size), tag=f"k{case.index}")
    states = [start] + [b.after for b in batches]
    mode = rng.choice(["in a save", "in a save", "in a save", "anywhere"])
    target = rng.randrange(len(batches))
    case.describe(f"{journal} journal, {len(batches)} saves of {[b.rows for b in batches]} changes, killed {mode}")
    script = []
    for i, batch in enumerate(batches):
        script += batch.lines + ["save", f".print @@saved {i + 1}"]
    with open(case.path("commands.graphstore"), "w") as f:
        f.write("\n".join(script) + "\n")
    argv = writer_argv(case.harness, store)
    session = Session(argv, env=case.env(), cwd=case.directory, name="writer")
    killed_at = None
    stalled = False  # a line the writer never answered
    if mode == "anywhere":
        estimate = timing.seconds_per_row * sum(b.rows for b in batches) + timing.startup_seconds
        delay = rng.uniform(0, estimate * 1.3)
        threading.Thread(target=lambda: [session.send(l) for l in script], daemon=True).start()
        time.sleep(delay)
        killed_at = f"{delay * 1000:.0f} ms after start"
    else:
        for i, batch in enumerate(batches):
            for line in batch.lines:
                session.send(line)
            if not session.sync(case.timeout):
                stalled = session.alive()
                break
            session.send("save")
            session.send(f".print @@saved {i + 1}")
            if i == target:
                delay = rng.uniform(0, timing.seconds_per_row * batch.rows * 1.5 + 0.002)
                time.sleep(delay)
                killed_at = f"{delay * 1000:.1f} ms into save {i + 1}"
                break
            if not session.wait_for(f"@@saved {i + 1}", case.timeout):
                stalled = session.alive()
                break
    exited_before = not session.alive()
    session.kill()
    run = session.finish(case.timeout)
    case.clear_after_kill("writer")
    acknowledged = max([int(m.split()[1]) for m in session.markers if m.startswith("@@saved")], default=0)
    case.describe(f"killed {killed_at}, {acknowledged} saves acknowledged")
    reproduce = (f"{quote(argv)} < commands.graphstore  # then kill -9 it {killed_at}")
    if exited_before:
        case.check_run(run, "writer", reproduce)
    if stalled:
        case.fail("hangs", f"writer: no answer within {case.timeout:g} s before the kill", "hang: kill scenario writer", reproduce)
    errors = [l for l in session.err if l.strip()]
    if errors and not exited_before:
        case.fail("unclean", f"writer: an error before the kill: {errors[0][:200]}", "unclean: writer error before kill", reproduce)
    copy_tree(case.path("store"), case.path("as-killed"))
    index = judge_store(case, store, states, acknowledged, "after the kill", reproduce)
    if index is not None:
        case.describe(f"the store holds state {index} of {len(batches)}")
        reopen_checks(case, store, states[index], "after the kill")


SCENARIO = Scenario("kill", run, short=12, long=200, summary="kill -9 during saves", prepare=calibrate)
