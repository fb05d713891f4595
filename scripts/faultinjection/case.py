"""A case: one run of a scenario, with its own random numbers, scratch directory and the
problems it found, each counted under one of FIGURES."""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .files import remove
from .processes import BACKTRACE, Run, backtrace_frames, crash_signature, run_process, stack_signature

if TYPE_CHECKING:
    from .runner import Harness

# The figures that must be zero, in the order the summary prints them.
FIGURES = ["crashes", "hangs", "not whole", "lost", "left behind", "unclean"]
FIGURE_HELP = {
    "crashes": "killed by a signal, exit >= 128, or a Swift runtime trap message",
    "hangs": "did not finish within the timeout",
    "not whole": "a store's files changed by a read-only run, or a store that fails integrity_check "
    "or is neither the state before nor after a save",
    "lost": "a change reported saved that is not in the store (two writers, or a save acknowledged then gone)",
    "left behind": "a graphstore-* private copy (or any file) left in TMPDIR",
    "unclean": "an exit status graphstore does not document, or an error with no message",
}


class Skip(Exception):
    """This case cannot run here (the reason is printed and counted as skipped)."""


class NotApplicable(Exception):
    """A mutation that does not fit this input; another is drawn."""


@dataclass
class Problem:
    figure: str
    detail: str
    signature: str  # what makes two problems the same finding
    reproduce: str = ""


@dataclass
class Case:
    """One run of a scenario: its random numbers, its scratch directory, what went wrong."""

    harness: "Harness"
    scenario: str
    index: int
    directory: str
    rng: random.Random
    description: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str | None = None
    tallies: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return f"{self.scenario}#{self.index}"

    @property
    def tmp(self) -> str:
        return os.path.join(self.directory, "tmp")

    @property
    def timeout(self) -> float:
        return self.harness.args.timeout

    def path(self, *parts) -> str:
        return os.path.join(self.directory, *parts)

    def env(self, tmpdir: str | None = None) -> dict[str, str]:
        env = dict(os.environ)
        env.update(TMPDIR=tmpdir or self.tmp, HOME=self.path("home"), NO_COLOR="1", GRAPHSTORE_HISTORY="",
                   SWIFT_BACKTRACE="enable=no")
        env.pop("EDITRC", None)
        return env

    def describe(self, text: str) -> None:
        self.description.append(text)

    def tally(self, key: str) -> None:
        self.tallies[key] = self.tallies.get(key, 0) + 1

    def fail(self, figure: str, detail: str, signature: str | None = None, reproduce: str = "") -> None:
        assert figure in FIGURES, figure
        # Paths relative to the case's directory (kept by --keep), the binary as `graphstore`.
        reproduce = reproduce.replace(self.directory + "/", "").replace(self.harness.binary, "graphstore")
        detail = detail.replace(self.directory + "/", "")
        self.problems.append(Problem(figure, detail, signature or f"{self.scenario}: {figure}: {detail[:80]}", reproduce))

    def graphstore(self, *arguments, stdin: bytes | None = None, timeout: float | None = None,
                   tmpdir: str | None = None, cwd: str | None = None, want_stack: bool = True, backtrace: bool = False) -> Run:
        argv = [self.harness.binary, "--no-rc", *arguments]
        env = self.env(tmpdir)
        if backtrace:
            env["SWIFT_BACKTRACE"] = BACKTRACE
        return run_process(argv, env=env, cwd=cwd or self.directory,
                           timeout=timeout or self.timeout, stdin=stdin, want_stack=want_stack)

    def check_run(self, run: Run, what: str, reproduce: str = "", allow_nonzero: bool = True) -> bool:
        """Counts a crash, hang or unclean exit of `run`; true when it had none."""
        crash = run.crash()
        signature_what = what.split(":")[0]
        if run.timed_out:
            where = f" at {run.stack.splitlines()[0]}" if run.stack else ""
            self.fail("hangs", f"{what}: no answer within {self.timeout:g} s{where}",
                      f"hang: {signature_what} in {stack_signature(run.stack)}", reproduce)
            return False
        if crash:
            if not run.stack and run.rerun:
                run.stack = backtrace_frames(run.rerun().stderr)
            where = f" at {stack_signature(run.stack, depth=2)}" if run.stack else ""
            self.fail("crashes", f"{what}: {crash}{where}", f"crash: {crash_signature(crash)}{where}", reproduce)
            return False
        unclean = run.unclean()
        if unclean or (not allow_nonzero and run.returncode != 0):
            self.fail("unclean", f"{what}: {unclean or 'exit ' + str(run.returncode)}: {run.first_error()}",
                      f"unclean: {signature_what}: {unclean or run.returncode}", reproduce)
            return False
        return True

    def clear_after_kill(self, what: str, tmpdir: str | None = None) -> None:
        """Removes the temporary files SQLite itself made for a process just killed, so that
        the next check blames a run only for what that run left. SQLite creates its spilled
        statement and savepoint journals (`etilqs_*`, a save's savepoint beyond 64 KiB)
        and unlinks them at once: a SIGKILL between the two leaves one behind, as it would
        for any SQLite program. Noted, not counted; anything else stays for the next check."""
        tmpdir = tmpdir or self.tmp
        left = sorted(os.listdir(tmpdir)) if os.path.isdir(tmpdir) else []
        sqlite_files = [name for name in left if name.startswith("etilqs_")]
        if sqlite_files:
            self.notes.append(f"{what}: the killed process left SQLite's {', '.join(sqlite_files[:3])} in TMPDIR")
            for name in sqlite_files:
                remove(os.path.join(tmpdir, name))

    def check_tmp_clean(self, what: str, tmpdir: str | None = None, after_failure: bool = False) -> None:
        """Counts files a run left in TMPDIR (a crashed or hung run cannot clean up: noted only)."""
        tmpdir = tmpdir or self.tmp
        left = sorted(os.listdir(tmpdir)) if os.path.isdir(tmpdir) else []
        if left:
            names = re.sub(r"[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}", "UUID", left[0])
            if after_failure:
                self.notes.append(f"{what}: left {', '.join(left[:3])} in TMPDIR (after a crash or hang)")
            else:
                self.fail("left behind", f"{what}: left {', '.join(left[:3])} in TMPDIR", f"left behind: {names} after {what.split(':')[0]}")
            for name in left:
                remove(os.path.join(tmpdir, name))
