"""Running graphstore: one process to its end (`run_process`), or a session fed line by line
(`Session`), and reading what a crash or hang left (stacks, trap messages)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Callable

DOCUMENTED_EXITS = {0, 1, 2, 3, 4}
TRAP = re.compile(
    r"Fatal error|Swift runtime failure|Program crashed|Current stack trace|Stack dump|"
    r"Assertion failed|Precondition failed|Unexpectedly found nil|Segmentation fault|Illegal instruction"
)
SIGNAL_NAMES = {int(s): s.name for s in signal.Signals}
# Runs are quiet and quick (SWIFT_BACKTRACE=enable=no); a crash is run again with this, for where.
BACKTRACE = "enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,output-to=stderr"


@dataclass
class Run:
    """One finished graphstore process."""

    argv: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float
    stack: str = ""  # where a hung process was (gdb) or a crashed one (the Swift backtracer)
    rerun: Callable[[], "Run"] | None = None  # the same run again with the backtracer on

    @property
    def signal_name(self) -> str | None:
        if self.returncode is not None and self.returncode < 0:
            return SIGNAL_NAMES.get(-self.returncode, f"signal {-self.returncode}")
        return None

    def trap_line(self) -> str | None:
        for line in (self.stderr + "\n" + self.stdout).splitlines():
            if TRAP.search(line):
                return line.strip()[:300]
        return None

    def crash(self) -> str | None:
        """Why this run counts as a crash, or None."""
        if self.timed_out:
            return None
        trap = self.trap_line()
        if self.signal_name:
            return f"killed by {self.signal_name}" + (f": {trap}" if trap else "")
        if self.returncode is not None and self.returncode >= 128:
            return f"exit {self.returncode}" + (f": {trap}" if trap else "")
        if trap:
            return f"exit {self.returncode}: {trap}"
        return None

    def unclean(self) -> str | None:
        """An undocumented exit status, or a failure that said nothing."""
        if self.timed_out or self.crash():
            return None
        if self.returncode not in DOCUMENTED_EXITS:
            return f"exit {self.returncode}, not a documented status"
        if self.returncode != 0 and not self.stderr.strip():
            return f"exit {self.returncode} with nothing on standard error"
        return None

    def first_error(self) -> str:
        lines = [l for l in self.stderr.splitlines() if l.strip()]
        return lines[0][:200] if lines else ""


def gdb_stack(pid: int) -> str:
    """The hung process's stack, when gdb is installed (a few frames of graphstore's own code)."""
    gdb = shutil.which("gdb")
    if not gdb:
        return ""
    try:
        out = subprocess.run(
            [gdb, "-p", str(pid), "-batch", "-nx", "-ex", "bt 40"],
            capture_output=True, text=True, timeout=30, errors="replace",
        ).stdout
    except (subprocess.TimeoutExpired, OSError):
        return ""
    demangler = shutil.which("swift-demangle")
    if demangler:
        try:
            out = subprocess.run([demangler, "--simplified"], input=out, capture_output=True, text=True, timeout=30).stdout or out
        except (subprocess.TimeoutExpired, OSError):
            pass
    frames = [l for l in out.splitlines() if l.startswith("#")]
    ours = [l for l in frames if "/Sources/" in l]
    chosen = (ours or frames)[:6]
    return "\n".join(re.sub(r"\s+", " ", l)[:220] for l in chosen)


def kill_group(process: subprocess.Popen) -> None:
    """SIGKILL a process we started (and anything it started: it leads its own session)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_process(argv, *, env, cwd, timeout, stdin: bytes | None = None, want_stack=True) -> Run:
    start = time.monotonic()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, start_new_session=True,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    stack = ""
    try:
        out, err = process.communicate(stdin, timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
        if want_stack:
            stack = gdb_stack(process.pid)
        kill_group(process)
        out, err = process.communicate()
    traced = dict(env, SWIFT_BACKTRACE=BACKTRACE)
    return Run(
        argv=list(argv), returncode=None if timed_out else process.returncode,
        stdout=out.decode("utf-8", "replace"), stderr=err.decode("utf-8", "replace"),
        timed_out=timed_out, seconds=time.monotonic() - start, stack=stack,
        rerun=lambda: run_process(argv, env=traced, cwd=cwd, timeout=timeout, stdin=stdin, want_stack=False),
    )


class Session:
    """A graphstore process fed one line at a time, its output read as it comes.

    `sync()` sends `.print @@sync N` and waits for that line on standard output, so the
    next line is sent only once everything before it has run. Standard error lines carry
    `stdin:LINE:`, so each error is tied to the line that caused it.
    """

    def __init__(self, argv, *, env, cwd, name: str):
        self.name = name
        self.argv = list(argv)
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, start_new_session=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.sent: list[str] = []
        self.changed = threading.Condition()
        self.markers: set[str] = set()
        self.finished = False
        self.readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out, True), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err, False), daemon=True),
        ]
        for reader in self.readers:
            reader.start()
        self.next_marker = 0

    def _read(self, stream, lines, is_stdout):
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self.changed:
                lines.append(line)
                if is_stdout and line.startswith("@@"):
                    self.markers.add(line)
                self.changed.notify_all()
        with self.changed:
            if is_stdout:
                self.finished = True
            self.changed.notify_all()

    def send(self, line: str) -> int:
        """Sends one line; returns its line number (as graphstore counts them)."""
        self.sent.append(line)
        try:
            self.process.stdin.write((line + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):  # ValueError: finish() closed stdin meanwhile
            pass
        return len(self.sent)

    def wait_for(self, marker: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.changed:
            while marker not in self.markers:
                if self.finished:
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True

    def sync(self, timeout: float) -> bool:
        """Sends a marker and waits for it: everything sent before it has run."""
        self.next_marker += 1
        marker = f"@@sync {self.next_marker}"
        self.send(f".print {marker}")
        return self.wait_for(marker, timeout)

    def output_count(self) -> int:
        with self.changed:
            return len(self.out)

    def output_since(self, index: int) -> list[str]:
        with self.changed:
            return [l for l in self.out[index:] if not l.startswith("@@")]

    def errors_for(self, line_number: int) -> list[str]:
        prefix = f"stdin:{line_number}:"
        with self.changed:
            return [l for l in self.err if l.startswith(prefix)]

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        kill_group(self.process)

    def finish(self, timeout: float) -> Run:
        """Closes standard input and waits for the process to end (a hang past timeout)."""
        start = time.monotonic()
        try:
            self.process.stdin.close()
        except OSError:
            pass
        stack = ""
        timed_out = False
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            stack = gdb_stack(self.process.pid)
            self.kill()
            self.process.wait()
        for reader in self.readers:
            reader.join(5)
        with self.changed:
            return Run(self.argv, None if timed_out else self.process.returncode, "\n".join(self.out),
                       "\n".join(self.err), timed_out, time.monotonic() - start, stack)


def crash_signature(crash: str) -> str:
    """The trap's message without its numbers or its `because …` clause."""
    text = re.sub(r"0x[0-9a-f]+", "0x…", crash)
    text = re.sub(r"\.swift:\d+", ".swift", text)
    text = re.sub(r" because .*", "", text)
    text = re.sub(r"\b\d{3,}\b", "N", text)
    return text[:160]


def stack_signature(stack: str, depth: int = 1) -> str:
    """The innermost frames of graphstore's own code: `function (File.swift:line) ← caller (…)`."""
    if not stack:
        return "(no stack: install gdb to see where)"
    found = []
    for frame in stack.splitlines():
        match = re.search(r" in (.+?) \(.*?at \S*/Sources/\S*?([\w+]+\.swift):(\d+)", frame)
        if match:
            found.append(f"{re.sub(r'<.*?>|[(].*', '', match.group(1)).strip()[:80]} ({match.group(2)}:{match.group(3)})")
    return " ← ".join(found[:depth]) if found else stack.splitlines()[0][:120]


def quote(argv) -> str:
    return " ".join(shlex.quote(a) for a in argv)


def backtrace_frames(text: str) -> str:
    """Frames of graphstore's own code from the Swift runtime's backtrace, innermost first."""
    frames, others = [], []
    for line in text.splitlines():
        match = re.search(r"0x[0-9a-f]+ (.+?) \+ \d+ in graphstore at (\S*/Sources/\S+?):(\d+)(?::\d+)?\s*$", line)
        if match:
            frames.append(f"#{len(frames)} in {match.group(1)} () at {match.group(2)}:{match.group(3)}")
        elif not frames:
            # Outside graphstore (a trap inside Foundation, say): the library and function.
            match = re.search(r"^\s*\d+ .*?0x[0-9a-f]+ (?:specialized |@objc )*(\w[^(]*)\(.*? \+ \d+ in (\S+)", line)
            if match and "libswiftCore" not in match.group(2):
                others.append(f"{match.group(1)} in {match.group(2)}")
    return "\n".join(frames[:6]) or "\n".join(others[:1])
