"""mutated-model: damaged model files given with --model (read-only, and writing into a copy
of a store): a clear error or success."""

from __future__ import annotations

import os
import plistlib
import random
import re
import stat
import xml.etree.ElementTree as ET

from ..bookstore import EXAMPLE_STORE
from ..case import Case, NotApplicable
from ..files import copy_store, copy_tree, integrity_of_copy, remove
from ..mutations import bend_uids, mutate_bytes, retype_plist
from ..processes import quote
from ..readonly import run_read_only
from ..scenario import Scenario
from ..sources import model_sources

XML_TYPES = ["Bogus", "", "Integer 128", "Integer 16", "Integer 64", "Double", "Decimal", "Date", "Binary", "Boolean", "Transformable",
             "UUID", "URI", "ObjectID", "Composite", "Undefined", "String"]
ODD_NUMBERS = ["1e999", "-1e999", "NaN", "abc", "99999999999999999999999", "", "-0", "70000", "0x10", "1,5", " 3 ", "∞"]


def xml_mutation(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    if not data:
        raise NotApplicable
    kind = rng.choice(["truncate", "flip", "line", "line", "structure", "structure", "structure", "structure", "structure",
                       "entities", "deep", "encoding"])
    text = data.decode("utf-8", "replace")
    if kind == "truncate":
        cut = rng.randrange(len(data))
        return f"cut at byte {cut} of {len(data)}", data[:cut]
    if kind == "flip":
        changed = bytearray(data)
        return mutate_bytes(rng, changed, "all"), bytes(changed)
    if kind == "line":
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        how = rng.choice(["deleted", "doubled", "swapped"])
        if how == "deleted":
            del lines[i]
        elif how == "doubled":
            lines.insert(i, lines[i])
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        return f"line {i + 1} {how}", "\n".join(lines).encode()
    if kind == "entities":
        depth = rng.choice([3, 6, 8])
        decl = "".join(f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10 if i else "lol"}">' for i in range(depth))
        external = rng.random() < 0.4
        if external:
            decl = f'<!ENTITY e{depth - 1} SYSTEM "{rng.choice(["file:///dev/zero", "file:///etc/hostname", "/dev/urandom", "http://127.0.0.1:9/x"])}">'
        body = re.sub(r'<model ', f'<model userDefinedModelVersionIdentifier="&e{depth - 1};" ', text.split("?>", 1)[-1], count=1)
        body = body.replace('userDefinedModelVersionIdentifier=""', "", 1)
        doc = f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE model [{decl}]>{body}'
        return ("an external entity " + decl.split('"')[1]) if external else f"an entity expanding 10^{depth - 1} times", doc.encode()
    if kind == "deep":
        depth = rng.choice([1000, 100000])
        inner = "<entity name=\"Deep\">" * depth + "</entity>" * depth
        return f"elements nested {depth} deep", text.replace("</model>", inner + "</model>").encode()
    if kind == "encoding":
        return "declared UTF-16, written UTF-8", text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode()
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        raise NotApplicable
    return structural_mutation(rng, root)


def structural_mutation(rng: random.Random, root: ET.Element) -> tuple[str, bytes]:
    entities = root.findall("entity")
    attributes = root.findall("entity/attribute")
    relationships = root.findall("entity/relationship")
    names = [e.get("name", "") for e in entities]
    kind = rng.choice(["type", "type", "no type", "parent", "parent cycle", "parent self", "parent chain", "destination", "inverse",
                       "numbers", "counts", "name", "duplicate", "many", "predicate", "case collision", "unknown element"])
    if kind in ("type", "no type", "numbers", "case collision") and not attributes:
        raise NotApplicable
    if kind in ("destination", "inverse", "counts") and not relationships:
        raise NotApplicable
    if not entities:
        raise NotApplicable
    description = kind
    if kind == "type":
        attribute = rng.choice(attributes)
        new = rng.choice(XML_TYPES)
        attribute.set("attributeType", new)
        description = f"attribute {attribute.get('name')} of type {new!r}"
    elif kind == "no type":
        attribute = rng.choice(attributes)
        attribute.attrib.pop("attributeType", None)
        description = f"attribute {attribute.get('name')} without a type"
    elif kind == "parent":
        entity = rng.choice(entities)
        entity.set("parentEntity", "NoSuchEntity")
        description = f"{entity.get('name')}'s parent is unknown"
    elif kind == "parent cycle":
        if len(entities) < 2:
            raise NotApplicable
        chosen = rng.sample(entities, min(len(entities), rng.choice([2, 3])))
        for i, entity in enumerate(chosen):
            entity.set("parentEntity", chosen[(i + 1) % len(chosen)].get("name"))
        description = f"parent entities in a cycle: {[e.get('name') for e in chosen]}"
    elif kind == "parent self":
        entity = rng.choice(entities)
        entity.set("parentEntity", entity.get("name"))
        description = f"{entity.get('name')} is its own parent"
    elif kind == "parent chain":
        depth = rng.choice([200, 5000])
        for i in range(depth):
            ET.SubElement(root, "entity", {"name": f"Chain{i}", "representedClassName": f"Chain{i}",
                                           **({"parentEntity": f"Chain{i - 1}"} if i else {})})
        description = f"a chain of {depth} parent entities"
    elif kind == "destination":
        relationship = rng.choice(relationships)
        relationship.set("destinationEntity", rng.choice(["NoSuchEntity", "", relationship.get("destinationEntity", "") + " "]))
        description = f"relationship {relationship.get('name')} to {relationship.get('destinationEntity')!r}"
    elif kind == "inverse":
        relationship = rng.choice(relationships)
        attribute_names = [a.get("name") for a in attributes] or ["x"]
        new = rng.choice(["noSuchInverse", relationship.get("name"), rng.choice(attribute_names)])
        relationship.set("inverseName", new)
        if rng.random() < 0.5:
            relationship.set("inverseEntity", rng.choice(names + ["Nope"]))
        description = f"relationship {relationship.get('name')} with inverse {new!r} on {relationship.get('inverseEntity')!r}"
    elif kind == "numbers":
        attribute = rng.choice(attributes)
        key = rng.choice(["minValueString", "maxValueString", "defaultValueString"])
        value = rng.choice(ODD_NUMBERS)
        attribute.set(key, value)
        description = f"attribute {attribute.get('name')} ({attribute.get('attributeType')}) {key}={value!r}"
    elif kind == "counts":
        relationship = rng.choice(relationships)
        key = rng.choice(["minCount", "maxCount"])
        value = rng.choice(["-1", "99999999999999999999", "abc", "0", "1e3"])
        relationship.set(key, value)
        description = f"relationship {relationship.get('name')} {key}={value!r}"
    elif kind == "name":
        element = rng.choice(entities + attributes + relationships)
        value = rng.choice(["", " ", "N" * 100000, "Z_PK", "self", "order", "select", "a.b", "ünïcode", "with space", "1leading", "x\"y"])
        element.set("name", value)
        description = f"a {element.tag} named {value[:20]!r}{'…' if len(value) > 20 else ''}"
    elif kind == "duplicate":
        element = rng.choice(entities + attributes + relationships)
        parent = root if element.tag == "entity" else next(e for e in entities if element in list(e))
        parent.append(ET.fromstring(ET.tostring(element)))
        description = f"{element.tag} {element.get('name')} twice"
    elif kind == "many":
        entity = rng.choice(entities)
        count = rng.choice([2000, 20000])
        for i in range(count):
            ET.SubElement(entity, "attribute", {"name": f"a{i}", "optional": "YES", "attributeType": "String"})
        description = f"{entity.get('name')} with {count} more attributes"
    elif kind == "predicate":
        depth = rng.choice([10, 1000, 100000])
        predicate = rng.choice(["(" * depth + "a == 1" + ")" * depth, "(" * depth, "NOT " * depth + "TRUEPREDICATE",
                                "a == " + "-" * depth + "1", "ANY " * 50 + "x == 1", "a == $"])
        entity = rng.choice(entities)
        request = ET.SubElement(root, "fetchRequest", {"name": "Broken", "entity": entity.get("name", ""), "predicateString": predicate})
        if rng.random() < 0.5 and attributes:
            root.remove(request)
            attribute = rng.choice(attributes)
            validation = ET.SubElement(attribute, "validationRules")
            rule = ET.SubElement(validation, "validationRule")
            rule.set("predicate", predicate)
            rule.set("errorString", "x")
            description = f"a validation predicate of {len(predicate)} characters ({predicate[:12]}…)"
        else:
            description = f"a fetch request predicate of {len(predicate)} characters ({predicate[:12]}…)"
    elif kind == "case collision":
        attribute = rng.choice(attributes)
        twin = ET.fromstring(ET.tostring(attribute))
        twin.set("name", attribute.get("name", "x").upper())
        next(e for e in entities if attribute in list(e)).append(twin)
        description = f"attributes {attribute.get('name')} and {twin.get('name')} (one column name)"
    elif kind == "unknown element":
        entity = rng.choice(entities)
        ET.SubElement(entity, rng.choice(["attribute", "relationship", "fetchedProperty", "uniquenessConstraints", "compoundIndexes"]))
        description = f"an empty element in {entity.get('name')}"
    return description, b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(root)


def archive_mutation(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """A legacy `elements` keyed archive, damaged."""
    if not data:
        raise NotApplicable
    kind = rng.choice(["flip", "truncate", "retype", "uids"])
    if kind == "flip":
        changed = bytearray(data)
        return mutate_bytes(rng, changed, "all"), bytes(changed)
    if kind == "truncate":
        cut = rng.randrange(len(data))
        return f"cut at byte {cut} of {len(data)}", data[:cut]
    try:
        archive = plistlib.loads(data)
    except Exception:
        raise NotApplicable
    if kind == "retype":
        return "a value retyped", plistlib.dumps(retype_plist(rng, archive), fmt=plistlib.FMT_BINARY)
    return "object references bent", plistlib.dumps(bend_uids(rng, archive), fmt=plistlib.FMT_BINARY)


def run(case: Case) -> None:
    rng = case.rng
    models = case.harness.prepared(model_sources)
    source = rng.choice(models) if rng.random() < 0.75 else models[0]
    case.describe(f"from {source.label}")
    top = source.bundle or source.version
    copy = case.path("model", os.path.basename(top))
    copy_tree(top, copy)
    version = os.path.join(copy, os.path.relpath(source.version, top)) if source.bundle else copy
    target = os.path.join(version, os.path.basename(source.file))
    original = open(target, "rb").read()
    kind = rng.random()
    if source.bundle and kind < 0.08:
        marker = os.path.join(copy, ".xccurrentversion")
        value = rng.choice([b"garbage", b"", plistlib.dumps({"_XCCurrentVersionName": "Missing.xcdatamodel"}),
                            plistlib.dumps({"_XCCurrentVersionName": "../../../etc"}), plistlib.dumps({"_XCCurrentVersionName": 5})])
        with open(marker, "wb") as f:
            f.write(value)
        case.describe(f".xccurrentversion = {value[:60]!r}")
    elif kind < 0.12:
        how = rng.choice(["fifo", "directory", "loop", "empty"])
        remove(target)
        if how == "fifo":
            os.mkfifo(target)
        elif how == "directory":
            os.mkdir(target)
        elif how == "loop":
            os.symlink(target, target)
        else:
            open(target, "wb").close()
        case.describe(f"{os.path.basename(target)} is {'a ' + how if how != 'empty' else 'empty'}")
    else:
        for attempt in range(20):
            try:
                if original.startswith(b"bplist"):
                    text, changed = archive_mutation(rng, original)
                else:
                    text, changed = xml_mutation(rng, original)
                break
            except NotApplicable:
                continue
        else:
            text, changed = "unchanged", original
        with open(target, "wb") as f:
            f.write(changed)
        case.describe(text)
    given = rng.choice([copy, copy, version, target]) if source.bundle else rng.choice([version, target])
    copy_tree(case.path("model"), case.path("input-model"))
    store_source = source.store if source.store and rng.random() < 0.7 else EXAMPLE_STORE
    store = case.path("store", os.path.basename(store_source))
    copy_store(store_source, store)
    case.describe(f"--model {os.path.relpath(given, case.directory)} on {os.path.basename(store_source)}")
    entities = []
    try:
        if stat.S_ISREG(os.lstat(target).st_mode):  # never open a FIFO: that would wait for a writer
            entities = [e.get("name") for e in ET.fromstring(open(target, "rb").read()).findall("entity")][:3]
    except (ET.ParseError, OSError, LookupError, ValueError):  # LookupError: a flipped encoding name
        pass
    entities = [e for e in entities if e and len(e) < 200] or ["Book"]
    if rng.random() < 0.25:
        # Writing with the damaged model: insert and save into a scratch copy of the store.
        entity = entities[0]
        arguments = ["--write", "--no-bail", "--model", given, store]
        script = f".echo on\ninsert {entity}\nsave\n.model\n"
        with open(case.path("commands.graphstore"), "w") as f:
            f.write(script)
        run = case.graphstore(*arguments, stdin=script.encode())
        reproduce = f"{quote(['graphstore', '--no-rc', *arguments])} < commands.graphstore"
        case.check_run(run, "write with a damaged model", reproduce)
        case.check_tmp_clean("write with a damaged model")
        if os.path.isfile(store):
            problem = integrity_of_copy(store, case.path("judge"))
            if problem:
                case.fail("not whole", f"after a write with a damaged model: {problem}", "not whole: write with a damaged model", reproduce)
        return
    commands = [".echo on", ".model", ".entities", ".schema"] + [c.format(e=e) for e in entities[:2] for c in ["count {e}", "fetch {e}"]] + ["validate"]
    run_read_only(case, store, given, commands, "read-only session with a damaged model", [case.path("store"), case.path("model")])


SCENARIO = Scenario("mutated-model", run, short=60, long=400, summary="damaged model files", prepare=model_sources)
