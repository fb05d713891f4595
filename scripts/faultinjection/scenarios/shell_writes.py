"""shell-writes: read-only sessions asked to write files onto the store (.output, .once,
.journal, .read, .open): the store must stay byte for byte as it was."""

from __future__ import annotations

import os

from ..case import Case
from ..files import copy_store, copy_tree
from ..readonly import run_read_only
from ..scenario import Scenario
from ..sources import store_sources


def run(case: Case) -> None:
    rng = case.rng
    sources = case.harness.prepared(store_sources)
    with_log = [s for s in sources if os.path.exists(s.path + "-wal") and os.path.getsize(s.path + "-wal") > 0]
    source = rng.choice(with_log) if with_log and rng.random() < 0.3 else sources[0]
    store = case.path("store", os.path.basename(source.path))
    copy_store(source.path, store)
    name = os.path.basename(store)
    target_kind = rng.choice(["store", "store", "-wal", "-shm", "-journal", "link", "./store", "absolute"])
    if target_kind == "link":
        os.makedirs(case.path("other"), exist_ok=True)
        os.symlink(store, case.path("other", "alias"))
        target = "../other/alias"
    elif target_kind == "absolute":
        target = store
    elif target_kind == "./store":
        target = "./" + name
    else:
        target = name + ("" if target_kind == "store" else target_kind)
    entity = next((n for _, n, _ in source.entities if isinstance(n, str)), "Book")
    command = rng.choice([
        [f".output {target}", ".entities", ".output"],
        [f".once {target}", f"count {entity}"],
        [f"\\o {target}", ".schema"],
        [f".journal {target}"],
        [f".read {target}"],
        [f".open {target}", ".entities"],
        [f".output {target}", f"fetch {entity}", ".output", f".read {target}"],
    ])
    case.describe(f"{source.label}: {' | '.join(command)}")
    copy_tree(case.path("store"), case.path("input"))
    roots = [case.path("store")] + ([case.path("other")] if os.path.isdir(case.path("other")) else [])
    run_read_only(case, name, None, [".echo on"] + command, "read-only session", roots, cwd=case.path("store"))


SCENARIO = Scenario("shell-writes", run, short=12, long=60, summary="read-only sessions writing onto the store", prepare=store_sources)
