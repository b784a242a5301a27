"""Abe (2012) Table 1 for one data set with the reduction used for USPS and Letter in the
full-protocol run (docs/lp_svm.md): model selection on a stratified subsample of ``cv_max``
training samples and the stage-2 grid of ``C_M`` reduced to {2000} (the paper's stage-1
value); the paper's full ``delta``/``C`` grids, 5-fold CV, final training and test on the
full sets (Letter: 26 one-against-all LP SVMs of 16000 triplets), through the harness
(parallel jobs, on-disk cache: an interrupted run resumes).

Run: ``nice -n 19 python benchmarks/abe2012_reduced.py letter results 1000``
(writes ``results/abe2012/results.json``; ``abe2012.combine`` renders it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from convexkern.reproduce import abe2012 as abe
from convexkern.reproduce.harness import Context, jsonable


def main() -> None:
    name, out, cv_max = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    ctx = Context(name="abe2012", quick=False, out_dir=out / "abe2012", n_jobs=jobs)
    res = abe.table1(ctx, datasets=[name], grids=dict(abe.GRIDS, C_M=[2000.0]), cv_max=cv_max)
    data = {"results": res, "cv_max": cv_max, "C_M_stage2": [2000.0]}
    (out / "abe2012" / "results.json").write_text(json.dumps(jsonable(data), indent=2))
    print(abe.report_markdown(res, cv_max=cv_max))


if __name__ == "__main__":
    main()
