#!/usr/bin/env bash
export OUT
TEST_TIMEOUT=200 TEST_WORKERS=14 scripts/gpu-check tests > $OUT/check.log 2>&1
tail -4 $OUT/check.log
for f in $OUT/tests-*.log; do grep -E "^(FAILED|ERROR)" $f | head -20; grep -E "^E " $f | head -10; done
rm -f $OUT/tests-*.log
export PYTHONPATH=/tmp/site:$PWD/src
timeout 230 python3 benchmarks/run.py overhead > $OUT/overhead.log 2>&1
tail -12 $OUT/overhead.log
cp benchmarks/results/gpu-*/overhead.txt $OUT/ 2>/dev/null; cp benchmarks/results/gpu-*/overhead.json $OUT/ 2>/dev/null
