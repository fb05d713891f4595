"""Files and stores on disk: copies that keep symlinks and FIFOs, snapshots that show any
changed byte, SQLite copies opened aside, integrity_check, and tmpfs mounts."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess


def remove(path: str) -> None:
    try:
        if os.path.islink(path) or not os.path.isdir(path):
            os.unlink(path)
        else:
            shutil.rmtree(path, ignore_errors=True)
    except FileNotFoundError:
        pass


def copy_tree(source: str, destination: str, skip: tuple[str, ...] = ()) -> None:
    """Copies a folder as it is: symlinks as symlinks, FIFOs as FIFOs, other special files left out."""
    os.makedirs(destination, exist_ok=True)
    for name in os.listdir(source):
        if name in skip:
            continue
        path, target = os.path.join(source, name), os.path.join(destination, name)
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            os.symlink(os.readlink(path), target)
        elif stat.S_ISDIR(mode):
            copy_tree(path, target)
        elif stat.S_ISFIFO(mode):
            os.mkfifo(target)
        elif stat.S_ISREG(mode):
            shutil.copyfile(path, target)  # contents only: a copy of a read-only corpus file stays writable


def snapshot_files(*roots: str) -> dict[str, str]:
    """Every entry under `roots` (symlinks not followed), with a digest of each regular file.

    A symlink's target is hashed too when it is a regular file, so a write through a link
    shows; FIFOs and other special files are recorded by kind only (reading would block).
    """
    found: dict[str, str] = {}

    def digest(path: str) -> str:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()[:16]

    for root in roots:
        for directory, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(directory, name)
                st = os.lstat(path)
                if stat.S_ISLNK(st.st_mode):
                    target = os.readlink(path)
                    real = os.path.realpath(path)
                    value = f"link->{target}"
                    try:
                        if os.path.isfile(real) and not stat.S_ISFIFO(os.stat(real).st_mode):
                            value += f" ({digest(real)})"
                    except OSError:
                        pass
                    found[path] = value
                elif stat.S_ISREG(st.st_mode):
                    found[path] = f"{st.st_size}:{digest(path)}"
                elif stat.S_ISDIR(st.st_mode):
                    found[path] = "dir"
                else:
                    found[path] = f"special {stat.S_IFMT(st.st_mode):o}"
    return found


def compare_snapshots(before: dict[str, str], after: dict[str, str]) -> list[str]:
    changes = []
    for path in sorted(set(before) | set(after)):
        name = os.path.basename(path)
        if path not in after:
            changes.append(f"{name} removed")
        elif path not in before:
            changes.append(f"{name} created")
        elif before[path] != after[path]:
            changes.append(f"{name} changed")
    return changes


STORE_SUFFIXES = ["", "-wal", "-shm", "-journal"]


def copy_store(source: str, destination: str, sidecars: bool = True) -> None:
    """Copies a store and (optionally) its -wal/-shm/-journal."""
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    for suffix in STORE_SUFFIXES if sidecars else [""]:
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, destination + suffix)


def open_copy(store: str, workdir: str) -> tuple[sqlite3.Connection, str]:
    """Opens a copy of a store (log included) with Python's sqlite3, so the original stays as it is."""
    os.makedirs(workdir, exist_ok=True)
    copy = os.path.join(workdir, "copy.sqlite")
    for suffix in STORE_SUFFIXES:
        remove(copy + suffix)
    for suffix in ["", "-wal", "-journal"]:
        if os.path.isfile(store + suffix):
            shutil.copyfile(store + suffix, copy + suffix)
    connection = sqlite3.connect(copy, timeout=10)
    connection.text_factory = lenient_text
    return connection, copy


# What Python's sqlite3 raises on a damaged store: its errors, and a message it cannot decode.
SQLITE_ERRORS = (sqlite3.DatabaseError, UnicodeDecodeError)


def lenient_text(data: bytes) -> str:
    """TEXT as Python reads it from a damaged store: bytes that are not UTF-8 are replaced."""
    return data.decode("utf-8", "replace")


def integrity(connection: sqlite3.Connection) -> str:
    try:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    except SQLITE_ERRORS as error:
        return f"integrity_check failed to run: {error}"
    text = "; ".join(str(r[0]) for r in rows)
    return "" if text == "ok" else text[:300]


def integrity_of_copy(store: str, workdir: str) -> str:
    """integrity_check of a copy of a store (log included), made in workdir and removed after."""
    connection, _ = open_copy(store, workdir)
    try:
        return integrity(connection)
    finally:
        connection.close()
        remove(workdir)


def set_journal_mode(store: str, mode: str) -> None:
    connection = sqlite3.connect(store)
    connection.execute(f"PRAGMA journal_mode={mode}")
    connection.close()
    for suffix in ["-wal", "-shm"]:
        if os.path.exists(store + suffix) and os.path.getsize(store + suffix) == 0:
            remove(store + suffix)


def mount_tmpfs(directory: str, size: int) -> str | None:
    """Mounts a tmpfs of `size` bytes; returns why not, or None."""
    if os.geteuid() != 0:
        return "not root, cannot mount a tmpfs"
    if not shutil.which("mount"):
        return "no mount command"
    os.makedirs(directory, exist_ok=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "fault-injection", directory],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return f"mount -t tmpfs failed: {(result.stderr or result.stdout).strip()[:120]}"
    return None


def unmount(directory: str) -> None:
    if subprocess.run(["umount", directory], capture_output=True).returncode != 0:
        subprocess.run(["umount", "-l", directory], capture_output=True)
