"""The runner: finds the scenarios, draws each case's random numbers from the seed, runs the
cases on a pool of threads, keeps failing cases' files, and prints the table of figures and
each finding with the command line that repeats it. `main` is the command line."""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import os
import pkgutil
import random
import shlex
import shutil
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

from . import __doc__ as OVERVIEW
from . import scenarios as scenario_package
from .bookstore import REPO
from .case import FIGURE_HELP, FIGURES, Case, Problem, Skip
from .files import copy_tree, remove, unmount
from .processes import quote
from .scenario import Scenario
from .sources import corpus_dir

# Seconds a graphstore run may take before it counts as a hang, in each kind of run.
TIMEOUT = {"short": 6.0, "long": 20.0}

Shared = TypeVar("Shared")


def discover_scenarios() -> list[Scenario]:
    """Every module of the `scenarios` package, each declaring SCENARIO, by name."""
    found = []
    for module in pkgutil.iter_modules(scenario_package.__path__):
        loaded = importlib.import_module(f"{scenario_package.__name__}.{module.name}")
        scenario = getattr(loaded, "SCENARIO", None)
        if not isinstance(scenario, Scenario):
            raise SystemExit(f"fault-injection: scenarios/{module.name}.py declares no SCENARIO = Scenario(...)")
        found.append(scenario)
    names = [s.name for s in found]
    if len(set(names)) != len(names):
        raise SystemExit(f"fault-injection: two scenario modules declare one name: {sorted(names)}")
    return sorted(found, key=lambda s: s.name)


class Harness:
    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.lock = threading.Lock()
        self.cases: list[Case] = []
        self.scratch = tempfile.mkdtemp(prefix="fault-injection-")
        self.shared: dict[Callable, object] = {}
        self.shared_lock = threading.Lock()
        self.done = 0
        self.total = 0
        self.running: dict[str, float] = {}  # case name -> when it started

    def prepared(self, make: Callable[["Harness"], Shared]) -> Shared:
        """What `make(harness)` returns, made once for the whole run (a scenario's `prepare`:
        the calibration, the corpus's stores and models) and shared by every case."""
        with self.shared_lock:
            if make not in self.shared:
                self.shared[make] = make(self)
            return self.shared[make]

    def watch(self) -> None:
        """Stops the whole run if a case is stuck in the harness itself (every graphstore run has
        its own timeout, so only a harness defect can get here): a stuck CI job helps nobody."""
        limit = 20 * self.args.timeout + 120
        while True:
            time.sleep(5)
            with self.lock:
                stuck = [(name, time.monotonic() - t) for name, t in self.running.items() if time.monotonic() - t > limit]
            if stuck:
                print(f"fault-injection: harness stuck in {stuck[0][0]} for {stuck[0][1]:.0f} s; its threads:", file=sys.stderr, flush=True)
                faulthandler.dump_traceback(all_threads=True)
                self.clean_up()
                os._exit(2)

    def clean_up(self) -> None:
        """Unmounts what the full-disk cases mounted, then removes the scratch directory."""
        try:
            with open("/proc/mounts") as f:
                mounts = [line.split()[1] for line in f]
        except OSError:
            mounts = []
        for mount in mounts:
            if mount.startswith(self.scratch + "/"):
                unmount(mount)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def case_rng(self, scenario: str, index: int) -> random.Random:
        return random.Random(f"{self.args.seed}:{scenario}:{index}")

    def run_case(self, scenario: Scenario, index: int) -> Case:
        directory = os.path.join(self.scratch, f"{scenario.name}-{index}")
        os.makedirs(os.path.join(directory, "tmp"))
        os.makedirs(os.path.join(directory, "home"))
        case = Case(self, scenario.name, index, directory, self.case_rng(scenario.name, index))
        started = time.monotonic()
        with self.lock:
            self.running[case.name] = started
        try:
            scenario.run(case)
        except Skip as reason:
            case.skipped = str(reason)
        except Exception as error:
            where = traceback.extract_tb(error.__traceback__)[-1]
            case.problems.append(Problem("unclean", f"harness error: {type(error).__name__}: {error} "
                                         f"({os.path.basename(where.filename)} line {where.lineno}, {where.name})",
                                         "harness error", ""))
            case.notes.append(traceback.format_exc())
        case.seconds = time.monotonic() - started
        with self.lock:
            self.running.pop(case.name, None)
        self.finish_case(case)
        return case

    def finish_case(self, case: Case) -> None:
        if case.problems and self.args.keep:
            kept = os.path.join(self.args.keep, f"{case.scenario}-{case.index}")
            remove(kept)
            copy_tree(case.directory, kept, skip=("tmp", "home", "disk"))
            with open(os.path.join(kept, "CASE.txt"), "w") as f:
                f.write(self.case_report(case, kept) + "\n")
        for mount in [os.path.join(case.directory, "disk")]:
            if os.path.ismount(mount):
                unmount(mount)
        shutil.rmtree(case.directory, ignore_errors=True)
        with self.lock:
            self.cases.append(case)
            self.done += 1
            if case.problems:
                first = case.problems[0]
                print(f"  FAIL {case.name}: {first.figure}: {first.detail[:160]}", flush=True)
            elif self.args.verbose:
                print(f"  ok   {case.name} ({case.seconds:.1f} s): {' / '.join(case.description)[:160]}", flush=True)
            if self.done % 100 == 0:
                print(f"  … {self.done}/{self.total} cases", flush=True)

    def case_report(self, case: Case, kept: str | None = None) -> str:
        lines = [f"{case.name} (seed {self.args.seed}): {' / '.join(case.description)}"]
        for problem in case.problems:
            lines.append(f"  {problem.figure}: {problem.detail}")
            if problem.reproduce:
                lines.append(f"    reproduce{' (in ' + kept + ')' if kept else ''}: {problem.reproduce}")
        lines.append(f"  run again: {self.rerun(case)}")
        return "\n".join(lines)

    def rerun(self, case: Case) -> str:
        return (f"scripts/fault-injection --seed {self.args.seed} --only {case.scenario} --case {case.index} "
                f"--binary {shlex.quote(self.args.binary)} --keep fault-injection-out")


def parse_arguments(scenarios: list[Scenario], argv=None):
    parser = argparse.ArgumentParser(
        prog="fault-injection", description=OVERVIEW.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Figures that must be zero:\n" + "\n".join(f"  {k:12} {v}" for k, v in FIGURE_HELP.items()),
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--short", action="store_true", help="the CI run (the default): well under 2 minutes on 2 cores")
    size.add_argument("--long", action="store_true", help="the run by hand: 1,000 damaged stores, 200 kills, 100 races, ...")
    parser.add_argument("--seed", type=int, help="the seed (default: a fresh one, printed)")
    parser.add_argument("--binary", default=os.path.join(REPO, ".build/debug/graphstore"), help="graphstore to test (default: the debug build)")
    parser.add_argument("--corpus", default=os.path.normpath(os.path.join(REPO, "../shared/corpus")), help="corpus of real stores and models (used when present)")
    parser.add_argument("--only", help="comma-separated scenarios to run: " + ", ".join(s.name for s in scenarios))
    parser.add_argument("--case", type=int, help="run only this case number (with one scenario in --only)")
    parser.add_argument("--keep", metavar="DIR", help="keep each failing case's inputs and outputs in DIR")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="cases run at once (default: the number of cores)")
    parser.add_argument("--timeout", type=float, help="seconds a graphstore run may take before it counts as a hang")
    parser.add_argument("--kill-batch", type=int, help="the most changes in one save of the kill scenario")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every case, not only failures")
    for scenario in scenarios:
        parser.add_argument(f"--{scenario.name}", dest=scenario.count_option, type=int, metavar="N",
                            help=f"cases of {scenario.name} ({scenario.summary}; {scenario.short} short, {scenario.long} long)")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.seed is not None:  # `--seed N` is said again first; drop N from what follows
        given = args.argv
        args.argv = [a for i, a in enumerate(given) if not (i > 0 and given[i - 1] == "--seed")]
    for scenario in scenarios:
        if getattr(args, scenario.count_option) is None:
            setattr(args, scenario.count_option, scenario.long if args.long else scenario.short)
    args.timeout = args.timeout or TIMEOUT["long" if args.long else "short"]
    args.kill_batch = args.kill_batch or (3000 if args.long else 600)
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "big")
    if args.keep:
        args.keep = os.path.abspath(args.keep)
    return args


def print_summary(harness: Harness, scenarios: list[Scenario], seconds: float) -> int:
    args = harness.args
    columns = ["runs", "passed"] + FIGURES + ["skipped"]
    rows = []
    totals = {c: 0 for c in columns}
    for scenario in scenarios:
        cases = [c for c in harness.cases if c.scenario == scenario.name]
        row = {c: 0 for c in columns}
        row["runs"] = len(cases)
        for case in cases:
            if case.skipped:
                row["skipped"] += 1
            elif not case.problems:
                row["passed"] += 1
            for figure in {p.figure for p in case.problems}:
                row[figure] += 1
        rows.append((scenario.name, row))
        for c in columns:
            totals[c] += row[c]
    rows.append(("total", totals))
    width = max(len(n) for n, _ in rows)
    print()
    print(f"fault-injection: seed {args.seed}, {'long' if args.long else 'short'} run, {seconds:.0f} s, binary {args.binary}")
    print(f"{'scenario':{width}}  " + "  ".join(f"{c:>11}" for c in columns))
    for name, row in rows:
        if name == "total":
            print("-" * (width + 13 * len(columns)))
        print(f"{name:{width}}  " + "  ".join(f"{row[c]:>11}" for c in columns))
    print("(a case counts once under each figure it shows; figures other than runs, passed and skipped must be zero)")
    skipped = [c for c in harness.cases if c.skipped]
    for reason in sorted({c.skipped for c in skipped}):
        names = [c.name for c in skipped if c.skipped == reason]
        print(f"skipped {len(names)} ({', '.join(names[:4])}{'…' if len(names) > 4 else ''}): {reason}")
    race = {}
    for case in harness.cases:
        for key, value in case.tallies.items():
            race[key] = race.get(key, 0) + value
    if race:
        print("race outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(race.items())))
    failing = sorted((c for c in harness.cases if c.problems), key=lambda c: (c.scenario, c.index))
    if failing:
        findings: dict[str, list[tuple[Case, Problem]]] = {}
        for case in failing:
            for problem in case.problems:
                findings.setdefault(problem.signature, []).append((case, problem))
        print(f"\n{len(findings)} distinct findings in {len(failing)} failing cases:")
        for number, (signature, hits) in enumerate(sorted(findings.items(), key=lambda kv: (-len(kv[1]), kv[0])), 1):
            case, problem = hits[0]
            print(f"\n[{number}] {signature}  ({len(hits)} cases: {', '.join(c.name for c, _ in hits[:6])}{'…' if len(hits) > 6 else ''})")
            print(f"    e.g. {case.name}: {' / '.join(case.description)[:300]}")
            print(f"    {problem.detail[:400]}")
            if problem.reproduce:
                print(f"    reproduce: {problem.reproduce[:400]}")
            print(f"    run again: {harness.rerun(case)}")
            if args.keep:
                print(f"    kept in: {os.path.join(args.keep, f'{case.scenario}-{case.index}')}")
    notes = [(c, n) for c in harness.cases for n in c.notes if not n.startswith("Traceback")]
    if notes and args.verbose:
        print("\nnotes:")
        for case, note in notes[:40]:
            print(f"  {case.name}: {note[:200]}")
    failed = len(failing)
    passed = sum(1 for c in harness.cases if not c.problems and not c.skipped)
    print()
    if failed:
        given = [a for a in args.argv if a != "--seed" and not a.startswith("--seed=")] if args.argv else []
        again = quote(["scripts/fault-injection", "--seed", str(args.seed), *given])
        print(f"to run these cases again: {again} (--keep DIR keeps their inputs)")
    # The closing line, in the form CI reads: `N passed, N failed, N skipped`.
    print(f"fault-injection: {passed} passed, {failed} failed, {len(skipped)} skipped")
    return 1 if failed else 0


def main(argv=None) -> int:
    scenarios = discover_scenarios()
    args = parse_arguments(scenarios, argv)
    if not os.access(args.binary, os.X_OK):
        print(f"fault-injection: no graphstore binary at {args.binary} (build it with `swift build`)", file=sys.stderr)
        return 2
    chosen = scenarios
    if args.only:
        names = [n.strip() for n in args.only.split(",")]
        unknown = [n for n in names if n not in {s.name for s in scenarios}]
        if unknown:
            print(f"fault-injection: unknown scenario {unknown[0]}; scenarios: {', '.join(s.name for s in scenarios)}", file=sys.stderr)
            return 2
        chosen = [s for s in scenarios if s.name in names]
    if args.case is not None and len(chosen) != 1:
        print("fault-injection: --case needs exactly one scenario in --only", file=sys.stderr)
        return 2
    harness = Harness(args)
    started = time.monotonic()
    print(f"fault-injection: seed {args.seed} ({'long' if args.long else 'short'}); binary {args.binary}; "
          f"corpus {'at ' + args.corpus if corpus_dir(harness) else 'absent'}", flush=True)
    try:
        for scenario in chosen:
            if scenario.prepare:
                harness.prepared(scenario.prepare)
        work = []
        for scenario in chosen:
            count = getattr(args, scenario.count_option)
            indices = [args.case] if args.case is not None else range(count)
            work += [(scenario, i) for i in indices]
        # Interleave scenarios so that a slow one does not run alone at the end.
        random.Random(args.seed).shuffle(work)
        harness.total = len(work)
        print(f"{len(work)} cases: " + ", ".join(f"{s.name} {sum(1 for w in work if w[0] is s)}" for s in chosen), flush=True)
        threading.Thread(target=harness.watch, daemon=True).start()
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for future in [pool.submit(harness.run_case, s, i) for s, i in work]:
                future.result()
    finally:
        harness.clean_up()
    return print_summary(harness, chosen, time.monotonic() - started)
