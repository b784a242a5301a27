#!/usr/bin/env bash
# The prepared device check of issue 23 (one call, about 10 minutes on an H200; n = 5e4
# needs more than an H100's 80 GB for the robust SVM): the GPU tests, the SVM dual by SMO
# with GPU rows against the CPU and SVC, and the robust SVM at n = 5e4 under a time limit.
# Run from the repository root with cvxpy, clarabel and CuPy importable; results go to
# ${OUT:-.}/svm.json and ${OUT:-.}/robust.json.
set -u
OUT=${OUT:-.}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
timeout 100 python3 -m pytest -q -x tests/test_gpu.py -p no:cacheprovider 2>&1 | tail -3
timeout 150 python3 benchmarks/bench_gpu.py --only svm --svm-n 20000 50000 --svm-cpu-n 50000 \
    --json "$OUT/svm.json"
timeout 380 python3 benchmarks/bench_gpu.py --only robust --n 50000 --cpu-n --time-limit 330 \
    --json "$OUT/robust.json"
