"""A read-only session run against a damaged store or model, and what it must leave: no
crash, no hang, not one byte of the store's files changed, nothing in TMPDIR."""

from __future__ import annotations

import os
import random
import re
import shlex

from .case import Case
from .files import compare_snapshots, snapshot_files
from .processes import Run, backtrace_frames, quote

READ_COMMANDS = [".entities", ".schema", ".rows {e}", "fetch {e}", "count {e}", "validate", ".model", "show {e}/1",
                 ".schema {e}", "fetch {e} limit 3 offset 1", "validate {e}"]


def read_only_commands(rng: random.Random, entities: list[str]) -> list[str]:
    entity_names = entities or ["Book"]
    chosen = [".entities", ".schema", ".model", "validate"]
    for entity in rng.sample(entity_names, min(len(entity_names), 2)):
        chosen += [c.format(e=entity) for c in [".rows {e}", "fetch {e}", "count {e}", "show {e}/1"]]
    rng.shuffle(chosen)
    return [".echo on"] + chosen


def run_read_only(case: Case, store_arg: str, model: str | None, commands: list[str], what: str,
                  roots: list[str], cwd: str | None = None) -> Run:
    """A read-only session: no crash or hang, the files under `roots` unchanged, TMPDIR left empty.

    A crash or hang is run again with the last command echoed before it alone (with the
    Swift backtracer on, for where it crashed), which is the reproduction printed.
    """
    cwd = cwd or case.directory

    def local(path: str) -> str:
        if not path.startswith(case.directory + "/"):
            return path
        relative = os.path.relpath(path, cwd)
        return "./" + relative if relative.startswith("-") else relative

    before = snapshot_files(*roots)
    arguments = ["--no-bail"] + (["--model", local(model)] if model else []) + [local(store_arg)]
    script = "\n".join(commands) + "\n"
    with open(case.path("commands.graphstore"), "w") as f:
        f.write(script)
    run = case.graphstore(*arguments, stdin=script.encode(), cwd=cwd)
    echoed = [l for l in run.stdout.splitlines() if l in commands]
    last = echoed[-1] if echoed else None
    prefix = "" if cwd == case.directory else f"cd {shlex.quote(os.path.relpath(cwd, case.directory))} && "
    reproduce = f"{prefix}{quote(['graphstore', '--no-rc', *arguments])} < {os.path.relpath(case.path('commands.graphstore'), cwd)}"
    failed = run.timed_out or run.crash()
    culprit = None
    if failed:
        # With nothing echoed, opening alone (`-c .quit`), then the first command. Else the
        # command after the last one echoed (whose echo may have died in the output buffer
        # with the process), then the last one echoed.
        if last:
            candidates = commands[commands.index(last) + 1:][:1] + [last]
        else:
            candidates = [".quit"] + commands[1:2]
        for candidate in candidates:
            alone_arguments = [*arguments, "-c", candidate]
            alone = case.graphstore(*alone_arguments, cwd=cwd, want_stack=not run.stack, backtrace=True)
            if alone.timed_out == run.timed_out and bool(alone.crash()) == bool(run.crash()):
                culprit = candidate
                reproduce = f"{prefix}{quote(['graphstore', '--no-rc', *alone_arguments])}"
                run.stack = run.stack or alone.stack or backtrace_frames(alone.stderr)
                break
    if culprit == ".quit":
        doing = " while opening the store"
    elif culprit:
        doing = f" running {culprit!r}"
    else:
        doing = f" after {last!r} (no single command repeats it)" if failed else ""
    last = culprit if culprit and culprit != ".quit" else None
    case.check_run(run, f"{(last or 'open').split()[0] if failed else 'session'}: {what}{doing}", reproduce)
    changes = compare_snapshots(before, snapshot_files(*roots))
    if changes:
        kinds = sorted({re.sub(r"^.*?(-wal|-shm|-journal)?$", lambda m: m.group(1) or "main file", c.split()[0]) for c in changes})
        case.fail("not whole", f"{what}: read-only run changed {', '.join(changes[:4])}",
                  f"not whole: a read-only run changed the store's {'/'.join(kinds)} ({'/'.join(sorted({c.split()[-1] for c in changes}))})",
                  reproduce)
    case.check_tmp_clean(what, after_failure=bool(failed))
    return run
