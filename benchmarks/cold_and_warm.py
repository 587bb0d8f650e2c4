"""Cold build time and warm run time of reductions over special functions (weft), beside
NumPy/SciPy's time for the same sum, in one process with a fresh kernel cache; one JSON line
``{case: [build s, weft ms, NumPy/SciPy ms]}``. For an A/B of two commits, run it
alternately under each (a worktree of the older one on PYTHONPATH):

    PYTHONPATH=/tmp/base/src python benchmarks/cold_and_warm.py
    python benchmarks/cold_and_warm.py

(results/opencl-pthread-Intel-R-Xeon-R-Processor/issue-36-band-loops-2026-11-29.txt)
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time

os.environ["WEFT_CACHE_DIR"] = tempfile.mkdtemp()  # before weft is imported: builds are cold

import numpy as np  # noqa: E402
import scipy.special as sp  # noqa: E402
import scipy.stats as st  # noqa: E402

import weft as wf  # noqa: E402

N = 1 << 20


def main() -> None:
    rng = np.random.default_rng(0)
    yh, muh = rng.standard_normal(N), rng.standard_normal(N)
    nuh, sh = rng.uniform(1, 5, N), rng.uniform(1, 2, N)
    y, nu, mu, s = (wf.asarray(a) for a in (yh, nuh, muh, sh))
    cases = {
        "student_t_lpdf": (lambda: wf.stats.student_t_lpdf(y, nu, mu, s),
                           lambda: st.t.logpdf(yh, nuh, muh, sh).sum()),
        "gamma_lpdf": (lambda: wf.stats.gamma_lpdf(s, nu, 2.0),
                       lambda: st.gamma.logpdf(sh, nuh, scale=0.5).sum()),
        "sum(lgamma(x))": (lambda: wf.sum(wf.lgamma(nu)), lambda: sp.gammaln(nuh).sum()),
        "sum(erf(x))": (lambda: wf.sum(wf.erf(y)), lambda: sp.erf(yh).sum()),
        "sum(log1p(exp(x)))": (lambda: wf.sum(wf.log1p(wf.exp(y))),
                               lambda: np.log1p(np.exp(yh)).sum()),
        "sum(tanh(x))": (lambda: wf.sum(wf.tanh(y)), lambda: np.tanh(yh).sum()),
        "sum(expm1(x))": (lambda: wf.sum(wf.expm1(y)), lambda: np.expm1(yh).sum()),
        "sum(exp(x))": (lambda: wf.sum(wf.exp(y)), lambda: np.exp(yh).sum()),
        "normal_lpdf": (lambda: wf.stats.normal_lpdf(y, 0.3, s),
                        lambda: st.norm.logpdf(yh, 0.3, sh).sum()),
    }
    out = {}
    for name, (weft_case, peer) in cases.items():
        start = time.perf_counter()
        float(weft_case())
        build = time.perf_counter() - start
        weft_times, peer_times = [], []
        for _ in range(9):
            for fn, times in ((weft_case, weft_times), (peer, peer_times)):
                start = time.perf_counter()
                float(fn())
                times.append(time.perf_counter() - start)
        out[name] = (build, statistics.median(weft_times) * 1e3,
                     statistics.median(peer_times) * 1e3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
