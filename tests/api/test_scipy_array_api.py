"""SciPy's array API support (``SCIPY_ARRAY_API=1``) on weft arrays: its functions take
weft's namespace, keep the arrays weft's and give NumPy's values. SciPy reads the variable
at import, so the calls run in a process of their own. Each SciPy function builds kernels of
its own (60 s of a 2-core run for all of them): eight run by default, every one under
WEFT_TEST_PROFILE=large."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SCRIPT = """
import os
import numpy as np, weft as wf
from scipy import special, stats
rng = np.random.default_rng(3)
a, b = rng.uniform(0.5, 3.0, (2, 40))
m = rng.uniform(0.5, 3.0, (4, 30))
cases = {
    "logsumexp": lambda xp_m, xp_a, xp_b: special.logsumexp(xp_m, axis=1),
    "softmax": lambda xp_m, xp_a, xp_b: special.softmax(xp_m, axis=0),
    "log_softmax": lambda xp_m, xp_a, xp_b: special.log_softmax(xp_m, axis=1),
    "xlogy": lambda xp_m, xp_a, xp_b: special.xlogy(xp_a, xp_b),
    "zscore": lambda xp_m, xp_a, xp_b: stats.zscore(xp_m, axis=1),
    "skew": lambda xp_m, xp_a, xp_b: stats.skew(xp_m, axis=1),
    "gmean": lambda xp_m, xp_a, xp_b: stats.gmean(xp_m, axis=0),
    "variation": lambda xp_m, xp_a, xp_b: stats.variation(xp_a),
    "pearsonr": lambda xp_m, xp_a, xp_b: stats.pearsonr(xp_a, xp_b),
    "ttest_ind": lambda xp_m, xp_a, xp_b: stats.ttest_ind(xp_a, xp_b),
    "rankdata": lambda xp_m, xp_a, xp_b: stats.rankdata(xp_a),
    "f_oneway": lambda xp_m, xp_a, xp_b: stats.f_oneway(xp_a, xp_b),
    "bartlett": lambda xp_m, xp_a, xp_b: stats.bartlett(xp_a, xp_b),
    "iqr": lambda xp_m, xp_a, xp_b: stats.iqr(xp_a),
}
if os.environ.get("WEFT_TEST_PROFILE") != "large":
    cases = {k: cases[k] for k in ("logsumexp", "softmax", "log_softmax", "xlogy", "skew",
                                   "gmean", "ttest_ind", "iqr")}
for name, fn in cases.items():
    got = fn(wf.asarray(m), wf.asarray(a), wf.asarray(b))
    want = fn(m, a, b)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        assert isinstance(g, wf.Array), (name, type(g))
        np.testing.assert_allclose(g.to_numpy(), np.asarray(w), rtol=1e-10, err_msg=name)
print("ok", len(cases))
"""


def test_scipy_functions_run_on_weft_arrays():
    pytest.importorskip("scipy.special")
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    count = "14" if os.environ.get("WEFT_TEST_PROFILE") == "large" else "8"
    assert done.stdout.split() == ["ok", count]
