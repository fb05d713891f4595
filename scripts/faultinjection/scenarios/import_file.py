"""import: `import ENTITY FILE` of a CSV or JSON file of books (each in a category of the store,
by its natural key) or of categories into the BookStore example, or of books and, in a second
file of the same import, the new categories they name, killed with SIGKILL at a
random moment: the store must pass integrity_check and hold none of the file's objects or
all of them, every other row as it was (the store exactly as before or exactly as a whole
import leaves it), never none after the import was reported done. A store left as before
is imported into again, which must finish it. Some files end with an object the model
refuses (a price below its minimum): a whole run then fails and keeps nothing."""

from __future__ import annotations

import csv
import json
import random

from ..bookstore import EXAMPLE_MODEL, example_copy
from ..case import Case
from ..files import copy_tree
from ..killing import Outcomes, differences, judge_kill, kill_somewhere, store_rows
from ..processes import quote
from ..scenario import Scenario

# The BookStore example's categories, which the imported books name by their natural key.
CATEGORIES = ["Fiction", "Biography"]


def import_records(rng: random.Random, entity: str, count: int, tag: str, refused: bool,
                   categories: list[str] = CATEGORIES) -> list[dict[str, object]]:
    """`count` objects of `entity` (books in `categories`), the last one below Book.price's
    minimum when `refused`."""
    if entity == "BookCategory":
        records: list[dict[str, object]] = [{"name": f"{tag} category {i}"} for i in range(count)]
    else:
        records = [{"title": f"{tag} book {i}", "price": rng.randint(15, 500), "category": rng.choice(categories)} for i in range(count)]
    if refused:
        records.append({"title": f"{tag} too cheap", "price": 3, "category": categories[0]})
    return records


def write_records(path: str, records: list[dict[str, object]]) -> None:
    """A JSON array of objects, or a CSV with a header of property names (by the extension)."""
    with open(path, "w", newline="") as f:
        if path.endswith(".json"):
            json.dump(records, f)
            return
        writer = csv.DictWriter(f, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)


def run(case: Case) -> None:
    rng = case.rng
    journal = rng.choice(["wal", "delete"])
    store = example_copy(case, "store", journal)
    entity = rng.choice(["Book", "Book", "BookCategory"])
    extension = rng.choice(["csv", "json"])
    count = rng.choice([100, 1000, 3000, 8000])
    refused = entity == "Book" and rng.random() < 0.2
    # Books naming new categories of a second file loaded after them, in one import.
    new_categories = [{"name": f"i{case.index} new category {i}"} for i in range(3)] if entity == "Book" and rng.random() < 0.5 else []
    records = import_records(rng, entity, count, f"i{case.index}", refused,
                             [str(c["name"]) for c in new_categories] or CATEGORIES)
    write_records(case.path(f"objects.{extension}"), records)
    second = ""
    if new_categories:
        write_records(case.path(f"categories.{extension}"), new_categories)
        second = f" BookCategory categories.{extension}"
    keys = rng.choice(["BookCategory=name", "Book=title,BookCategory=name"])
    command = f"import {entity} objects.{extension}{second} --key {keys}"
    records = records + new_categories
    before = store_rows(store, case.path("judge"))
    if isinstance(before, str):
        raise RuntimeError(f"the example store cannot be read: {before}")
    # The import run whole on a copy: the store after, and how long it takes.
    copy_tree(case.path("store"), case.path("probe"))
    arguments = ["--write", "--model", EXAMPLE_MODEL]
    probe = case.graphstore(*arguments, case.path("probe", "BookStore.sqlite"), "-c", command)
    if not case.check_run(probe, "import", quote(probe.argv), allow_nonzero=refused):
        return
    after = store_rows(case.path("probe", "BookStore.sqlite"), case.path("judge"))
    if isinstance(after, str):
        case.fail("not whole", f"after a whole import: {after}", "not whole: import: a whole import", quote(probe.argv))
        return
    if refused and (probe.returncode == 0 or after != before):
        case.fail("not whole", f"an import of a file with an object the model refuses: exit {probe.returncode}, "
                  f"the store {'unchanged' if after == before else 'changed: ' + differences(before, after)}",
                  "not whole: import: a refused file kept objects", quote(probe.argv))
        return
    argv = [case.harness.binary, "--no-rc", *arguments, store, "-c", command]
    killed = kill_somewhere(case, argv, store, probe.seconds, rng)
    imported = "imported " in killed.stdout
    reproduce = f"{quote(argv)}  # kill -9 it {killed.moment}"
    case.describe(f"{journal} journal, {len(records) - len(new_categories)} {entity} objects in {extension.upper()}"
                  + (f" and the {len(new_categories)} new categories they name in a second file" if new_categories else "")
                  + (" (the last refused)" if refused else "") + f", import takes {probe.seconds * 1000:.0f} ms, killed {killed.moment}")
    if killed.finished:
        case.check_run(killed.run, "import", reproduce)
    found = judge_kill(case, store, before, after, imported, reproduce, Outcomes(
        "import", f"holds none of the {len(records)} objects", f"holds all {len(records)} objects",
        "an import reported done is gone", "an import half done"))
    if found is None:
        return
    if found == before and not refused:
        again = case.graphstore(*arguments, store, "-c", command)
        if case.check_run(again, "import again after the kill", quote(again.argv), allow_nonzero=False):
            final = store_rows(store, case.path("judge"))
            if final != after:
                detail = final if isinstance(final, str) else differences(after, final)
                case.fail("not whole", f"after importing again: not the store a whole import makes ({detail})",
                          "not whole: import: the second run", quote(again.argv))
    case.check_tmp_clean("import")


SCENARIO = Scenario("import", run, short=3, long=60, summary="kill -9 during an import")
