"""Special functions and densities against mpmath at 50+ digits (data/references.json,
written by data/make_references.py) in the hard domains: tails, tiny and huge parameters,
where SciPy is not exact enough to judge by. The bounds are docs/special.md's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import weft as wf

REFERENCES = json.loads((Path(__file__).parent / "data" / "references.json").read_text())
# Worst relative error allowed per function (float64), as documented in docs/special.md.
BOUNDS = {"student_t_lpdf": 1e-14, "lchoose": 1e-11, "ndtri": 1e-13, "betainc": 1e-13}


def _columns(name: str) -> tuple[list[np.ndarray], np.ndarray]:
    rows = np.array(REFERENCES[name], dtype=np.float64)
    return [rows[:, k] for k in range(rows.shape[1] - 1)], rows[:, -1]


def _relative_errors(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    return np.abs(got - expected) / np.maximum(np.abs(expected), np.finfo(np.float64).tiny)


@pytest.mark.parametrize("name", ["lchoose", "ndtri", "betainc"])
def test_special_functions_match_mpmath_in_hard_domains(device, name):
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    if device.kind == "reference":
        pytest.skip("the reference device is SciPy")
    args, expected = _columns(name)
    got = getattr(wf, name)(*[wf.asarray(a) for a in args]).to_numpy()
    errors = _relative_errors(got, expected)
    worst = int(np.argmax(errors))
    assert errors[worst] <= BOUNDS[name], (
        f"{name}{tuple(float(a[worst]) for a in args)} = {got[worst]!r}, mpmath "
        f"{expected[worst]!r}: relative error {errors[worst]:.3g}")


def test_student_t_lpdf_matches_mpmath_for_every_nu(device):
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    (y, nu, mu, sigma), expected = _columns("student_t_lpdf")
    for k in range(len(y)):
        scalar_nu = float(wf.stats.student_t_lpdf(wf.asarray(y[k:k + 1]), float(nu[k]),
                                                  float(mu[k]), float(sigma[k])))
        array_nu = float(wf.stats.student_t_lpdf(wf.asarray(y[k:k + 1]),
                                                 wf.asarray(nu[k:k + 1]), float(mu[k]),
                                                 float(sigma[k])))
        for got in (scalar_nu, array_nu):
            assert abs(got - expected[k]) <= BOUNDS["student_t_lpdf"] * abs(expected[k]), (
                f"student_t_lpdf(y={y[k]}, nu={nu[k]}) = {got!r}, mpmath {expected[k]!r}")
