"""Public test-set files fetched on first use, each checked against the checksum its
source commit records.

The Maros-Meszaros set (I. Maros, Cs. Meszaros, *A Repository of Convex Quadratic
Programming Problems*, Optim. Methods Softw. 11/12, 1999) has 138 QPS files, 95 MB in
all.  The package ships 16 of them (``public/maros_meszaros``) and the manifest of all
138 (``public/maros_meszaros.csv``): per file its sizes and published optimum from the
set's ``00README.QP``, the git blob id the source commit's tree records, and, where it was
computed from that blob, its byte count and SHA-256.  :func:`fetch` downloads a file not
shipped from that commit (or a mirror, ``CONVEXKERN_MIRROR``), accepts it only when its
git blob id (and SHA-256, where known) match, and keeps it in the cache directory
(:func:`cache_dir`); later calls read the cached copy, checked again.

Tests use the shipped files only: nothing here is reached without a file to fetch.
"""

from __future__ import annotations

import csv
import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ..errors import ConvexkernError, InvalidInputError

__all__ = ["FetchError", "PublicFile", "MAROS_MESZAROS_COMMIT", "cache_dir", "fetch",
           "fetchable", "local_path", "manifest", "public_root", "source_url"]

#: the commit of YimingYAN/QP-Test-Problems every Maros-Meszaros file is fetched from
MAROS_MESZAROS_COMMIT = "871cc300154cfb438acc20f52b2c585db3f11e31"
_SOURCES = {
    "maros_meszaros": ("https://raw.githubusercontent.com/YimingYAN/QP-Test-Problems/"
                       f"{MAROS_MESZAROS_COMMIT}/QPS_Files/"),
}
#: the largest download accepted for a file whose size the manifest does not know
_MAX_BYTES = 64 << 20


class FetchError(ConvexkernError, OSError):
    """A public file could not be downloaded, or what came does not match its checksum."""


@dataclass(frozen=True)
class PublicFile:
    """One row of a set's manifest: the sizes and optimum its readme publishes, and the
    checksums of the file at the source commit (``sha256`` empty and ``bytes`` ``None``
    where the blob was not at hand when the manifest was written)."""

    set: str
    name: str
    file: str
    m: int
    n: int
    nz: int
    qn: int
    qnz: int
    optimum: float
    git_blob: str
    bytes: int | None
    sha256: str

    @property
    def public_name(self) -> str:
        """``"maros_meszaros/AUG2D.QPS"``: the name :func:`fetch` and the suites take."""
        return f"{self.set}/{self.file}"


def public_root() -> Path:
    """The folder of the shipped public files (``convexkern/data/public``)."""
    return Path(str(resources.files("convexkern.data") / "public"))


@cache
def manifest(set_name: str = "maros_meszaros") -> tuple[PublicFile, ...]:
    """The manifest of a fetchable set (``"maros_meszaros"``), in file-name order."""
    if set_name not in _SOURCES:
        raise InvalidInputError("set_name", f"{set_name!r} is not a fetchable set; known: "
                                            f"{', '.join(sorted(_SOURCES))}")
    with open(public_root() / f"{set_name}.csv", newline="") as fh:
        return tuple(PublicFile(
            set=set_name, name=r["name"], file=r["file"], m=int(r["m"]), n=int(r["n"]),
            nz=int(r["nz"]), qn=int(r["qn"]), qnz=int(r["qnz"]), optimum=float(r["optimum"]),
            git_blob=r["git_blob"], bytes=int(r["bytes"]) if r["bytes"] else None,
            sha256=r["sha256"]) for r in csv.DictReader(fh))


def fetchable(name: str) -> PublicFile | None:
    """The manifest row of ``"maros_meszaros/AUG2D.QPS"``, or ``None``."""
    set_name, _, file = name.partition("/")
    if set_name not in _SOURCES:
        return None
    return next((e for e in manifest(set_name) if e.file == file), None)


def cache_dir() -> Path:
    """Where fetched files are kept: ``$CONVEXKERN_CACHE``, else
    ``$XDG_CACHE_HOME/convexkern``, else ``~/.cache/convexkern``."""
    if os.environ.get("CONVEXKERN_CACHE"):
        return Path(os.environ["CONVEXKERN_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "convexkern"


def local_path(entry: PublicFile) -> Path:
    """Where ``entry`` is read from: its shipped copy when there is one, else its place in
    the cache (which may not exist yet: :func:`fetch` fills it)."""
    shipped = public_root() / entry.set / entry.file
    return shipped if shipped.is_file() else cache_dir() / entry.set / entry.file


def source_url(entry: PublicFile) -> str:
    """Where ``entry`` is downloaded from: ``$CONVEXKERN_MIRROR/<set>/<file>`` when that
    variable is set (any URL ``urllib`` opens, ``file://`` included), else the pinned
    source commit."""
    mirror = os.environ.get("CONVEXKERN_MIRROR")
    if mirror:
        return f"{mirror.rstrip('/')}/{entry.set}/{entry.file}"
    return _SOURCES[entry.set] + entry.file


def _git_blob_id(data: bytes) -> str:
    """The id git gives a file's content: SHA-1 of ``b"blob <size>\\0" + data``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _mismatch(entry: PublicFile, data: bytes) -> str:
    """Why ``data`` is not ``entry``'s file (empty when it is)."""
    if entry.bytes is not None and len(data) != entry.bytes:
        return f"{len(data)} bytes, expected {entry.bytes}"
    if (got := _git_blob_id(data)) != entry.git_blob:
        return f"git blob id {got}, expected {entry.git_blob}"
    if entry.sha256 and (got := hashlib.sha256(data).hexdigest()) != entry.sha256:
        return f"SHA-256 {got}, expected {entry.sha256}"
    return ""


def fetch(name: str, say: Callable[[str], None] | None = None) -> Path:
    """The local path of the public file ``name`` (``"maros_meszaros/AUG2D.QPS"``): the
    shipped copy when there is one, else the cached copy, downloaded first if missing or
    not matching the manifest's checksums.  ``say`` receives a line per download
    (default: standard error).  Raises :class:`FetchError` when the download fails or
    does not match; nothing unchecked is ever left in the cache."""
    entry = fetchable(name)
    if entry is None:
        raise InvalidInputError("name", f"{name!r} is not in a fetchable set's manifest "
                                        f"({', '.join(sorted(_SOURCES))})")
    target = local_path(entry)
    if target.parent == public_root() / entry.set:
        return target  # shipped
    if target.is_file() and not _mismatch(entry, target.read_bytes()):
        return target
    url = source_url(entry)
    (say or (lambda msg: print(msg, file=sys.stderr)))(
        f"fetching {entry.public_name} from {url} into {target.parent} (first use)")
    data = _download(url, entry.bytes or _MAX_BYTES, name)
    why = _mismatch(entry, data)
    if why:
        raise FetchError(f"{name}: the file from {url} does not match the manifest ({why}); "
                         "it was not kept")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{entry.file}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)  # atomic: a concurrent reader sees the old or the new file
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _download(url: str, limit: int, name: str) -> bytes:
    """At most ``limit`` bytes from ``url`` (one more is an error)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 (pinned URL)
            data = resp.read(limit + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise FetchError(
            f"{name}: could not download {url} ({exc}); with no network, put the file in "
            f"{cache_dir()} yourself or set CONVEXKERN_MIRROR to a folder URL holding "
            "<set>/<file>") from None
    if len(data) > limit:
        raise FetchError(f"{name}: {url} sent more than the {limit} bytes expected")
    return data
