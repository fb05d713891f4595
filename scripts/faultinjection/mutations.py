"""Damage shared by the scenarios that damage stores and models: bit flips, values that do
not belong in an integer column, property lists with a value retyped, archives whose object
references are bent."""

from __future__ import annotations

import plistlib
import random

from .case import NotApplicable


def mutate_bytes(rng: random.Random, data: bytearray, where: str) -> str:
    if not data:
        raise NotApplicable
    if where == "header":
        span = (0, min(100, len(data)))
    elif where == "page":
        page = 4096
        first = rng.randrange(max(1, len(data) // page)) * page
        span = (first, min(len(data), first + page))
    else:
        span = (0, len(data))
    flips = rng.choice([1, 1, 2, 4, 16, 64])
    for _ in range(flips):
        position = rng.randrange(*span)
        data[position] ^= 1 << rng.randrange(8)
    return f"{flips} bit flips in the {where}"


# Values that do not belong in an integer column.
ODD_VALUES = [
    ("REAL 1e300", 1e300), ("REAL 9.3e18 (beyond Int64)", 9.3e18), ("REAL -9.3e18", -9.3e18), ("REAL 2.5", 2.5),
    ("REAL inf", float("inf")), ("REAL -inf", float("-inf")), ("NaN (stored as NULL)", float("nan")),
    ("text 'abc'", "abc"), ("text '12'", "12"), ("text ''", ""), ("blob", b"\x00\xff\x10"), ("NULL", None),
    ("-1", -1), ("0", 0), ("Int64.max", 2**63 - 1), ("Int64.min", -(2**63)), ("Int32.max+1", 2**31),
]


def retype_plist(rng: random.Random, value):
    """The plist with one value somewhere replaced by one of another type."""
    odd = rng.choice([1, -1, 2**63 - 1, 1.5e300, "text", b"\x00", [], {}, True, {"nested": [1, {"x": "y"}]}])
    containers = []

    def walk(v):
        if isinstance(v, dict):
            containers.extend((v, k) for k in v)
            for item in v.values():
                walk(item)
        elif isinstance(v, list):
            containers.extend((v, i) for i in range(len(v)))
            for item in v:
                walk(item)

    walk(value)
    if not containers:
        return odd
    container, key = rng.choice(containers)
    container[key] = odd
    return value


def bend_uids(rng: random.Random, archive):
    """A keyed archive with some object references (UIDs) pointing at themselves, at 0, or past the end."""
    objects = archive.get("$objects") if isinstance(archive, dict) else None
    if not isinstance(objects, list):
        return retype_plist(rng, archive)
    slots = []
    for index, item in enumerate(objects):
        if isinstance(item, dict):
            slots += [(item, key, index) for key, value in item.items() if isinstance(value, plistlib.UID)]
    for item, key, index in rng.sample(slots, min(len(slots), rng.randint(1, 3))):
        item[key] = plistlib.UID(rng.choice([index, 0, len(objects) + 5, 2**31]))
    return archive
