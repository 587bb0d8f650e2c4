"""The incomplete elliptic integrals F(phi|m) and E(phi|m) (SciPy's ellipkinc and ellipeinc;
skeletons/elliptic_incomplete.py) against mpmath where SciPy answers NaN (m > 1), at the
half turns, and their gradients (test_special and test_grad sweep the rest)."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

mpmath = pytest.importorskip("mpmath")


def test_parameters_above_one_against_mpmath(real_device):
    """For m > 1 the integrals are real while m sin^2 phi <= 1 (SciPy: NaN), NaN beyond."""
    device = real_device  # (the reference interpreter answers as SciPy: NaN)
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    m = np.array([1.5, 2.0, 4.0, 10.0, 1.0001, 3.0, 2.0])
    phi = np.array([0.5, -0.6, 0.4, 0.3, 1.5, 0.7, 2.0])  # (the last two beyond the domain)
    with mpmath.workdps(30):
        want_f = [float(mpmath.ellipf(p, k)) for p, k in zip(phi[:5], m[:5])]
        want_e = [float(mpmath.ellipe(p, k)) for p, k in zip(phi[:5], m[:5])]
    f = wf.ellipkinc(wf.asarray(phi), wf.asarray(m)).to_numpy()
    e = wf.ellipeinc(wf.asarray(phi), wf.asarray(m)).to_numpy()
    np.testing.assert_allclose(f[:5], want_f, rtol=5e-15)
    np.testing.assert_allclose(e[:5], want_e, rtol=5e-15)
    assert np.isnan(f[5:]).all() and np.isnan(e[5:]).all()


def test_half_turns_and_parameter_one(device):
    """F and E grow by 2K(m) and 2E(m) each half turn; E(phi|1) = sin(psi) + 2n exactly."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    phi = np.array([3.0, -7.5, 40.0, 2.0, np.pi / 2])
    m = np.array([0.3, 0.9, -2.0, 1.0, 1.0])
    with mpmath.workdps(30):
        want_e = [float(mpmath.ellipe(p, k)) for p, k in zip(phi, m)]
        want_f = [float(mpmath.ellipf(p, k)) for p, k in zip(phi[:3], m[:3])]
    e = wf.ellipeinc(wf.asarray(phi), wf.asarray(m)).to_numpy()
    f = wf.ellipkinc(wf.asarray(phi), wf.asarray(m)).to_numpy()
    np.testing.assert_allclose(e, want_e, rtol=5e-15)
    np.testing.assert_allclose(f[:3], want_f, rtol=5e-15)
    assert np.isinf(f[3:]).all()


def test_odd_in_phi_at_the_limits_too(real_device):
    """F(-phi|1) and E(-phi|-inf) are -inf, E(0|-inf) 0 (SciPy: +inf for each)."""
    odd_f = wf.ellipkinc(wf.asarray([-2.0, -np.pi / 2]), 1.0).to_numpy()
    odd_e = wf.ellipeinc(wf.asarray([-1.0, 0.0, 1.0]), -np.inf).to_numpy()
    assert odd_f.tolist() == [-np.inf, -np.inf] and odd_e.tolist() == [-np.inf, 0.0, np.inf]


def test_gradients_against_mpmath(device):
    """In phi the integrands; in m DLMF 19.4.2 and (E - F) / 2m, with their limits at 0."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    phi = np.array([0.4, 1.2, -0.9, 2.5, 0.7])
    m = np.array([0.3, -1.5, 0.8, 0.5, 0.0])
    for name, function in (("ellipkinc", mpmath.ellipf), ("ellipeinc", mpmath.ellipe)):
        integral = getattr(wf, name)
        dphi, dm = wf.grad(lambda a, b, f=integral: wf.sum(f(a, b)),
                           argnums=(0, 1))(wf.asarray(phi), wf.asarray(m))
        with mpmath.workdps(30):
            want_phi = [float(mpmath.diff(lambda t, k=k, f=function: f(t, k), p))
                        for p, k in zip(phi, m)]
            want_m = [float(mpmath.diff(lambda s, p=p, f=function: f(p, s), k))
                      for p, k in zip(phi, m)]
        np.testing.assert_allclose(dphi.to_numpy(), want_phi, rtol=1e-13)
        np.testing.assert_allclose(dm.to_numpy(), want_m, rtol=1e-12, atol=1e-15)
