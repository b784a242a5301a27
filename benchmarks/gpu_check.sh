#!/usr/bin/env bash
# The prepared device check of the GPU work (one call of at most 10 minutes on an H200; the
# robust SVM at n = 5e4 needs more than an H100's 80 GB): the GPU tests, the SVM dual by
# SMO with GPU rows at n = 5e4 against the same on the CPU and SVC, then the robust SVM at
# n = 5e4 under a time limit of what is left of the call (BUDGET seconds, default 570).
# Run from the repository root with cvxpy, clarabel and CuPy importable; results go to
# ${OUT:-.}/svm.json and ${OUT:-.}/robust.json, the log to ${OUT:-.}/log.txt.
set -u
OUT=${OUT:-.}
BUDGET=${BUDGET:-570}
export PYTHONUNBUFFERED=1
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
python3 -c "import numpy, scipy, cupy, cvxpy; print('numpy', numpy.__version__, 'scipy', \
scipy.__version__, 'cupy', cupy.__version__, 'cvxpy', cvxpy.__version__)"
echo "[$SECONDS s] GPU tests"
timeout 60 python3 -m pytest -q -x tests/test_gpu.py -p no:cacheprovider 2>&1 | tail -3
echo "[$SECONDS s] SVM dual, n = 5e4"
timeout 120 python3 benchmarks/bench_gpu.py --only svm --svm-n 50000 --svm-cpu-n 50000 \
    --json "$OUT/svm.json"
left=$((BUDGET - SECONDS))
limit=$((left - 90))
echo "[$SECONDS s] robust SVM, n = 5e4, time_limit $limit s (the call has $left s left)"
timeout "$left" python3 benchmarks/bench_gpu.py --only robust --n 50000 --cpu-n \
    --time-limit "$limit" --verbose --json "$OUT/robust.json"
echo "[$SECONDS s] done"
} 2>&1 | tee "$OUT/log.txt"
