"""Cold build time and warm run time of reductions over special functions (weft), beside
NumPy/SciPy's time for the same sum, in one process with a fresh kernel cache; one JSON line
``{case: [build s, weft ms, NumPy/SciPy ms]}``. For an A/B of two commits, run it
alternately under each (a worktree of the older one on PYTHONPATH):

    PYTHONPATH=/tmp/base/src python benchmarks/cold_and_warm.py
    python benchmarks/cold_and_warm.py

(results/opencl-pthread-Intel-R-Xeon-R-Processor/issue-36-band-loops-2026-11-29.txt).
``python benchmarks/cold_and_warm.py elementary`` times the elementary functions instead
(issue-36-own-elementary-2026-11-29.txt there).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
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
        "sum(sinh(x))": (lambda: wf.sum(wf.sinh(y)), lambda: np.sinh(yh).sum()),
        "sum(digamma(x))": (lambda: wf.sum(wf.digamma(nu)), lambda: sp.digamma(nuh).sum()),
        "sum(lgamma(x) + digamma(x))": (lambda: wf.sum(wf.lgamma(nu) + wf.digamma(nu)),
                                        lambda: (sp.gammaln(nuh) + sp.digamma(nuh)).sum()),
        "sum(exp(x))": (lambda: wf.sum(wf.exp(y)), lambda: np.exp(yh).sum()),
        "normal_lpdf": (lambda: wf.stats.normal_lpdf(y, 0.3, s),
                        lambda: st.norm.logpdf(yh, 0.3, sh).sum()),
    }
    if sys.argv[1:] == ["elementary"]:
        cases = {
            "sum(atan(x))": (lambda: wf.sum(wf.atan(y)), lambda: np.arctan(yh).sum()),
            "sum(atan2(x, y))": (lambda: wf.sum(wf.arctan2(y, mu)),
                                 lambda: np.arctan2(yh, muh).sum()),
            "sum(asin(x / 8))": (lambda: wf.sum(wf.asin(y / 8)),
                                 lambda: np.arcsin(yh / 8).sum()),
            "sum(tan(x))": (lambda: wf.sum(wf.tan(y)), lambda: np.tan(yh).sum()),
            "sum(log10(x))": (lambda: wf.sum(wf.log10(nu)), lambda: np.log10(nuh).sum()),
            "sum(exp2(x))": (lambda: wf.sum(wf.exp2(y)), lambda: np.exp2(yh).sum()),
            "sum(cbrt(x))": (lambda: wf.sum(wf.cbrt(y)), lambda: np.cbrt(yh).sum()),
            "sum(hypot(x, y))": (lambda: wf.sum(wf.hypot(y, mu)),
                                 lambda: np.hypot(yh, muh).sum()),
            "sum(asinh(x))": (lambda: wf.sum(wf.asinh(y)), lambda: np.arcsinh(yh).sum()),
            "sum(atanh(x / 8))": (lambda: wf.sum(wf.atanh(y / 8)),
                                  lambda: np.arctanh(yh / 8).sum()),
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
