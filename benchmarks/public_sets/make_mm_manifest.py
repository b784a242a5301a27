"""Write ``convexkern/data/public/maros_meszaros.csv``: the manifest of the 138
Maros-Meszaros QPS files that :mod:`convexkern.data.fetched` downloads on first use, and
the suites ``maros_meszaros`` (all 138) and ``maros_meszaros_medium`` (the 72 with at most
1000 rows and 1000 variables) from it.

It reads a local git clone of the source repository (YimingYAN/QP-Test-Problems) at the
pinned commit: per file its git blob id (the SHA-1 the commit's tree records, known even
where the clone lacks the blob), its size and SHA-256 where the blob is present, and the
row of the set's own ``00README.QP`` (M, N, NZ, QN, QNZ and BPMPD's OPT).  Nothing is
computed from a solve: the optimum is the published one.

Run: ``python benchmarks/public_sets/make_mm_manifest.py /path/to/QP-Test-Problems``
"""

from __future__ import annotations

import csv
import hashlib
import subprocess
import sys
from pathlib import Path

from convexkern.data.fetched import MAROS_MESZAROS_COMMIT

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "convexkern/data/public/maros_meszaros.csv"
SUITES = {
    "maros_meszaros": (
        lambda r: True,
        "All 138 Maros-Meszaros convex QPs (public files nobody on this project wrote; 16 are "
        "shipped, the others fetched on first use from the pinned commit of "
        "YimingYAN/QP-Test-Problems and checked against their checksums: "
        "convexkern/data/public/maros_meszaros.csv), each checked against its published "
        "optimal value: the set's 00README.QP (BPMPD, 8 digits)."),
    "maros_meszaros_medium": (
        lambda r: int(r[2]) <= 1000 and int(r[3]) <= 1000,
        "The 72 Maros-Meszaros convex QPs with at most 1000 rows and 1000 variables (the 16 "
        "shipped ones and 56 fetched on first use, checked against their checksums), each "
        "checked against its published optimal value: the set's 00README.QP (BPMPD)."),
}


def write_suites(rows: list[list[str]]) -> None:
    """The suites of :data:`SUITES`, one ``[[problem]]`` per manifest row they select."""
    for name, (keep, description) in SUITES.items():
        lines = [f'name = "{name}"', f'description = "{description}"', "tol = 1e-6",
                 "time_limit = 60.0", "seed = 0",
                 "# no solvers list: every installed solver that takes the problem "
                 "(ck.available_solvers)",
                 "# written by benchmarks/public_sets/make_mm_manifest.py", ""]
        for r in rows:
            if keep(r):
                lines += ["[[problem]]", f'name = "{r[0]}"',
                          f'file = "maros_meszaros/{r[1]}"', f"optimum = {float(r[7])!r}",
                          "optimum_digits = 8", ""]
        path = ROOT / f"convexkern/bench/suites/{name}.toml"
        path.write_text("\n".join(lines))
        print(f"wrote {path}")


def _git(repo: str, *args: str, binary: bool = False) -> bytes | str:
    out = subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode()


def main(repo: str) -> None:
    tree = {}
    for line in str(_git(repo, "ls-tree", "-r", "-l", MAROS_MESZAROS_COMMIT,
                         "QPS_Files")).splitlines():
        meta, path = line.split("\t")
        _, _, blob, size = meta.split()
        if path.endswith(".QPS"):
            tree[Path(path).name] = (blob, size)
    readme = str(_git(repo, "show", f"{MAROS_MESZAROS_COMMIT}:QPS_Files/00README.QP"))
    rows = []
    in_table = False
    for line in readme.splitlines():
        parts = line.split()
        if parts[:2] == ["NAME", "M"]:
            in_table = True
            continue
        if in_table and len(parts) == 7:
            name = parts[0]
            file = next(f for f in tree if f[:-4].replace("_", "") == name.upper())
            blob, size = tree[file]
            sha256 = ""
            probe = subprocess.run(["git", "-C", repo, "cat-file", "-e", blob])
            if probe.returncode == 0:
                data = _git(repo, "cat-file", "blob", blob, binary=True)
                sha256 = hashlib.sha256(data).hexdigest()
                size = str(len(data))
            rows.append([file[:-4], file, *parts[1:6], parts[6], blob,
                         size if size.isdigit() else "", sha256])
        elif in_table and rows and not parts:
            if len(rows) == 138:
                break
    assert len(rows) == 138 == len(tree), (len(rows), len(tree))
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["name", "file", "m", "n", "nz", "qn", "qnz", "optimum", "git_blob",
                    "bytes", "sha256"])
        w.writerows(sorted(rows))
    print(f"wrote {OUT} ({len(rows)} problems)")
    write_suites(sorted(rows))


if __name__ == "__main__":
    main(sys.argv[1])
