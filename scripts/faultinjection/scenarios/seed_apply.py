"""seed-apply: `seed apply UPDATE` of a seed update killed with SIGKILL. Two seeds of the
BookStore model are built from CSV (`--create`, `import`), the second a later release of the
first (books dropped, repriced, moved to other categories, new ones, a category gone), and
`diff --script` writes the update between them. A user's store (the first seed, sometimes
with a book of the user's own) is updated and killed at a random moment: it must pass
integrity_check and hold exactly the rows of the store before or of the store after (every
table, the seed version in the metadata included), never the old rows after the update was
reported applied; a second `seed apply` must finish it, the store then fit to ship (`verify`)
and nothing left in TMPDIR."""

from __future__ import annotations

import csv
import os
import random

from ..bookstore import EXAMPLE_MODEL
from ..case import Case
from ..files import copy_store, copy_tree, set_journal_mode
from ..killing import Outcomes, differences, judge_kill, kill_somewhere, store_rows
from ..processes import quote
from ..scenario import Scenario

KEYS = "--key Book=title,BookCategory=name"


def write_seed_files(directory: str, categories: list[str], books: dict[str, tuple[int, str]]) -> None:
    """categories.csv and books.csv of a seed, as `import` reads them."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "categories.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["name"])
        writer.writerows([name] for name in categories)
    with open(os.path.join(directory, "books.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["title", "price", "category"])
        writer.writerows([title, price, category] for title, (price, category) in books.items())


def next_release(rng: random.Random, categories: list[str], books: dict[str, tuple[int, str]], tag: str):
    """The seed's next release: some categories gone and new ones, books dropped, repriced,
    moved, and new books."""
    kept = [c for c in categories if rng.random() > 0.1] or categories[:1]
    new_categories = kept + [f"{tag} new category {i}" for i in range(rng.randint(0, 5))]
    new_books = {}
    for title, (price, category) in books.items():
        change = rng.random()
        if change < 0.1:
            continue
        if change < 0.3:
            price = rng.randint(15, 90)
        if category not in new_categories or change > 0.9:
            category = rng.choice(new_categories)
        new_books[title] = (price, category)
    for i in range(rng.randint(1, max(1, len(books) // 4))):
        new_books[f"{tag} new book {i}"] = (rng.randint(15, 90), rng.choice(new_categories))
    return new_categories, new_books


def build_seed(case: Case, name: str) -> bool:
    """seed NAME.sqlite from the CSV files in NAME/; false when graphstore failed (counted)."""
    run = case.graphstore("--write", "--model", EXAMPLE_MODEL, "--create", f"{name}.sqlite",
                          "-c", f"import BookCategory {name}/categories.csv", "-c", f"import Book {name}/books.csv {KEYS}")
    return case.check_run(run, f"building seed {name}", quote(run.argv), allow_nonzero=False)


def run(case: Case) -> None:
    rng = case.rng
    journal = rng.choice(["wal", "delete"])
    tag = f"s{case.index}"
    categories = [f"{tag} category {i}" for i in range(rng.randint(2, 30))]
    books = {f"{tag} book {i}": (rng.randint(15, 90), rng.choice(categories)) for i in range(rng.choice([50, 300, 1000, 2000]))}
    new_categories, new_books = next_release(rng, categories, books, tag)
    write_seed_files(case.path("seed-1"), categories, books)
    write_seed_files(case.path("seed-2"), new_categories, new_books)
    if not (build_seed(case, "seed-1") and build_seed(case, "seed-2")):
        return
    diff = case.graphstore("diff", "--model", EXAMPLE_MODEL, "seed-1.sqlite", "seed-2.sqlite", *KEYS.split(), "--script", "update.graphstore")
    if not case.check_run(diff, "diff --script", quote(diff.argv)) or not os.path.isfile(case.path("update.graphstore")):
        return
    with open(case.path("update.graphstore")) as f:
        steps = sum(1 for line in f if line.strip() and not line.startswith("#"))
    # The user's store: the first seed, in the journal mode drawn, sometimes with a book of its own.
    store = case.path("store", "User.sqlite")
    copy_store(case.path("seed-1.sqlite"), store)
    set_journal_mode(store, journal)
    own = rng.random() < 0.5
    if own:
        mine = case.graphstore("--write", "--model", EXAMPLE_MODEL, store, "-c", f'insert Book title="{tag} my own book" price=30', "-c", "save")
        if not case.check_run(mine, "the user's own book", quote(mine.argv), allow_nonzero=False):
            return
    before = store_rows(store, case.path("judge"))
    if isinstance(before, str):
        case.fail("not whole", f"the user's store before the update: {before}", "not whole: seed-apply: the store made", "")
        return
    # The update applied whole to a copy: the store after, and how long it takes.
    copy_tree(case.path("store"), case.path("probe"))
    apply = ["--write", "--model", EXAMPLE_MODEL]
    probe = case.graphstore(*apply, case.path("probe", "User.sqlite"), "-c", "seed apply update.graphstore")
    if not case.check_run(probe, "seed apply", quote(probe.argv), allow_nonzero=False):
        return
    after = store_rows(case.path("probe", "User.sqlite"), case.path("judge"))
    if isinstance(after, str):
        case.fail("not whole", f"after a whole seed apply: {after}", "not whole: seed-apply: a whole apply", quote(probe.argv))
        return
    argv = [case.harness.binary, "--no-rc", *apply, store, "-c", "seed apply update.graphstore"]
    killed = kill_somewhere(case, argv, store, probe.seconds, rng)
    applied = "update.graphstore:" in killed.stdout
    reproduce = f"{quote(argv)}  # kill -9 it {killed.moment}"
    case.describe(f"{journal} journal, {len(books)} books to {len(new_books)}, {steps} steps"
                  + (", the user's own book" if own else "") + f", apply takes {probe.seconds * 1000:.0f} ms, killed {killed.moment}")
    if killed.finished:
        case.check_run(killed.run, "seed apply", reproduce)
    if judge_kill(case, store, before, after, applied, reproduce, Outcomes(
            "seed-apply", "is the old one", "is the new one", "an applied update is gone", "an update half applied")) is None:
        return
    again = case.graphstore(*apply, store, "-c", "seed apply update.graphstore")
    if case.check_run(again, "seed apply again after the kill", quote(again.argv), allow_nonzero=False):
        final = store_rows(store, case.path("judge"))
        if final != after:
            detail = final if isinstance(final, str) else differences(after, final)
            case.fail("not whole", f"after applying again: not the store a whole apply makes ({detail})",
                      "not whole: seed-apply: the second run", quote(again.argv))
        verify = case.graphstore("verify", "--model", EXAMPLE_MODEL, store)
        if case.check_run(verify, "verify after applying again", quote(verify.argv)) and verify.returncode != 0:
            case.fail("not whole", f"after applying again, verify: {verify.first_error() or verify.stdout.strip()[:200]}",
                      "not whole: seed-apply: verify fails", quote(verify.argv))
    case.check_tmp_clean("seed apply")


SCENARIO = Scenario("seed-apply", run, short=3, long=60, summary="kill -9 during a seed update")
