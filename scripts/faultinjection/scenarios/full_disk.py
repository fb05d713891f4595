"""full-disk: a writer filling a small tmpfs (skipped where nothing can be mounted) or running
under a file-size limit; the error must be clean and the store whole."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from ..bookstore import EXAMPLE_STORE, calibrate, example_copy, example_state, judge_store, plan_batches, reopen_checks, writer_argv
from ..case import Case, Skip
from ..files import STORE_SUFFIXES, compare_snapshots, copy_store, copy_tree, mount_tmpfs, remove, snapshot_files, unmount
from ..processes import quote, run_process
from ..scenario import Scenario


def limited_argv(limit: int, argv: list[str]) -> list[str]:
    """argv run under RLIMIT_FSIZE with SIGXFSZ ignored (writes past the limit fail with EFBIG)."""
    code = ("import os,resource,signal,sys;signal.signal(signal.SIGXFSZ,signal.SIG_IGN);"
            "resource.setrlimit(resource.RLIMIT_FSIZE,(int(sys.argv[1]),int(sys.argv[1])));"
            "os.execv(sys.argv[2],sys.argv[2:])")
    return [sys.executable, "-c", code, str(limit)] + argv


def run(case: Case) -> None:
    rng = case.rng
    journal = rng.choice(["wal", "delete"])
    kind = "tmpfs" if case.index % 2 == 0 else "file-size limit"
    base = os.path.getsize(EXAMPLE_STORE)
    room = rng.choice([4096, 16384, 65536, 131072, 262144, 524288])
    text = rng.choice([200, 1000, 4000])
    mount = case.path("disk")
    directory = mount if kind == "tmpfs" else case.path("store")
    if kind == "tmpfs":
        why = mount_tmpfs(mount, base + room + 4096)
        if why:
            raise Skip(why)
    try:
        # The journal mode is set on the normal disk: switching to WAL needs room for a -shm.
        prepared = example_copy(case, "prepared", journal)
        start = example_state(prepared)
        store = os.path.join(directory, "BookStore.sqlite")
        copy_store(prepared, store, sidecars=False)  # all in the main file; a -shm would only take room
        rows_needed = 3 * (room + base) // max(text, 100)
        count = rng.randint(2, 6)
        batches = plan_batches(rng, start, count, max(2, rows_needed // count), tag=f"d{case.index}", text_size=text)
        states = [start] + [b.after for b in batches]
        script = []
        for i, batch in enumerate(batches):
            script += batch.lines + ["save", f".print @@saved {i + 1}"]
        with open(case.path("commands.graphstore"), "w") as f:
            f.write("\n".join(script) + "\n")
        argv = writer_argv(case.harness, store, bail=True)
        if kind == "file-size limit":
            argv = limited_argv(base + room, argv)
        case.describe(f"{kind}, {room // 1024} KiB free, {journal} journal, {len(batches)} saves of ~{text}-byte texts")
        run = run_process(argv, env=case.env(), cwd=case.directory, timeout=case.timeout * 3,
                          stdin=("\n".join(script) + "\n").encode())
        reproduce = f"{quote(argv)} < commands.graphstore" + (f"  # on a tmpfs of {base + room + 4096} bytes" if kind == "tmpfs" else "")
        acknowledged = len(re.findall(r"^@@saved", run.stdout, re.M))
        case.describe(f"exit {run.returncode}, {acknowledged} saves done: {run.first_error()[:100]}")
        if case.check_run(run, "writer on a full disk", reproduce):
            if run.returncode == 0 and acknowledged < len(batches):
                case.fail("unclean", f"writer exited 0 after {acknowledged} of {len(batches)} saves", "unclean: full disk exit 0", reproduce)
            if run.returncode != 0 and not re.search(r"full|space|large|disk|I/O|write", run.stderr, re.I):
                case.notes.append(f"full disk error does not say why: {run.first_error()}")
        # Read-only open while the disk is still full: the private copy (when there is a log)
        # goes to TMPDIR; once on the normal disk, once (tmpfs only) on the full one.
        full_tmp = os.path.join(directory, "tmp")
        if kind == "tmpfs":
            os.makedirs(full_tmp, exist_ok=True)
            before = snapshot_files(store, *[store + s for s in STORE_SUFFIXES[1:] if os.path.exists(store + s)])
            ro = case.graphstore(store, "-c", ".entities", tmpdir=full_tmp)
            case.check_run(ro, "read-only open with TMPDIR on the full disk", quote(ro.argv))
            case.check_tmp_clean("read-only open with TMPDIR on the full disk", full_tmp)
            after = snapshot_files(store, *[store + s for s in STORE_SUFFIXES[1:] if os.path.exists(store + s)])
            if compare_snapshots(before, after):
                case.fail("not whole", f"read-only open on the full disk changed {compare_snapshots(before, after)}",
                          "not whole: read-only open on a full disk", quote(ro.argv))
            remove(full_tmp)
        copy_tree(directory, case.path("as-left"), skip=("tmp",))
        index = judge_store(case, store, states, acknowledged, "after the full disk", reproduce)
        if index is not None:
            case.describe(f"the store holds state {index} of {len(batches)}")
            if kind == "tmpfs":
                subprocess.run(["mount", "-o", f"remount,size={base * 4 + room + (1 << 22)}", mount], capture_output=True)
            reopen_checks(case, store, states[index], "after the full disk")
    finally:
        if kind == "tmpfs":
            unmount(mount)


SCENARIO = Scenario("full-disk", run, short=4, long=24, summary="a writer on a full disk", prepare=calibrate)
