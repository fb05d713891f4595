"""Fault injection for graphstore: nothing lost, nothing hangs.

Hammers the built `graphstore` binary and counts what goes wrong, in scenarios: one module
each in `scenarios/` (its docstring says what it does and what it checks), run by
`scripts/fault-injection` (`--help` lists them, `--only` picks some):

  kill, race, full-disk, external-kill   writers killed with SIGKILL in their saves, two
                 writers on one object, a writer on a full disk, a writer killed while
                 saving values kept outside the database
  migrate, seed-apply, import, history   a migration, a seed update, an import killed with
                 SIGKILL at random moments; a save's persistent history with its save
  mutated-store, mutated-model, shell-writes   damaged stores and models opened with a
                 handful of commands, read-only sessions told to write onto their store

Every case draws its own random numbers from the seed, the scenario and the case number, so
one case can be run again alone: `--seed S --only SCENARIO --case N` (timing-dependent
cases, those that kill or race, repeat their inputs, not always their timing). `--keep DIR`
keeps the inputs and outputs of failing cases.

A scenario is a module of `scenarios/` that declares `SCENARIO = Scenario(name, run, short=N,
long=M, summary=..., prepare=...)`: `run(case)` does one case, calling `case.fail(FIGURE,
detail)` for what went wrong (`case.py`), raising `Skip(reason)` when it cannot run here;
`prepare(harness)`, when given, makes what its cases share once (`harness.prepared(prepare)`
gives it to them). The runner (`runner.py`) finds every module there, so a new scenario is a
new file. Shared parts: `processes.py` (running graphstore, sessions, crash and hang
signatures), `files.py` (copies, snapshots, integrity_check, tmpfs), `bookstore.py` (the
BookStore example, the state its writers leave, the calibration), `sources.py` (the corpus's
stores and models), `mutations.py`, `readonly.py` (a read-only session and its checks) and
`killing.py` (a process killed at a random moment or as it starts to write, and the rows a
store holds, to compare the store it left with the one before and after).

Standard library only (Python 3.11). Exit status 0 when every figure that must be zero is
zero, 1 when not, 2 when the harness itself could not run.
"""
