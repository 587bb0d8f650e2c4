"""Row walks (rowwalk.py): a column reduction joined with the row reductions and per-row
values it reads, so that the rows leave memory once (CPUs; GPUs whose dialect shuffles, by
teams of lanes). Values against NumPy on every device, the walk's kernels, checks that fail
inside it, and what it must leave apart."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft.compiler import Target, compile, temporary_leaf
from weft.ir import ROW_WALK
from weft.target import Traits

ROWS, COLS = 203, 600  # (a tail of rows after the blocks of four, and after the splits)
CPU = Traits(is_cpu=True, reduction_groups=2)


def _data(seed: int = 0, rows: int = ROWS, cols: int = COLS):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((rows, cols)) / np.sqrt(cols), rng.standard_normal(cols)


def _compiled(arrays, traits: Traits = CPU, target: Target | None = None) -> list:
    from weft.backends.opencl.dialect import OPENCL

    outputs = [(a._node, temporary_leaf(a.shape, a.dtype)) for a in arrays]
    return compile(outputs, target or Target(OPENCL, traits)).kernels


def _skeletons(arrays, traits: Traits = CPU) -> list[str]:
    return [k.ir.skeleton for k in _compiled(arrays, traits)]


def _walks(device) -> bool:
    return bool(device.target.traits.is_cpu and device.target.dialect is not None)


def _close(got, want, rtol=1e-12):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=rtol * np.max(np.abs(want)))


def test_a_column_sum_of_rows_scaled_by_their_own_totals(device):
    xh, bh = _data()
    x, b = wf.asarray(xh), wf.asarray(bh)
    g = (x * wf.exp(x @ b)[:, None]).sum(axis=0)
    assert _skeletons([g]) == [ROW_WALK, "reduce_cols"]  # then one pass adds the splits
    _close(g, xh.T @ np.exp(xh @ bh))


@pytest.mark.parametrize("glm", ["bernoulli", "normal", "poisson"])
def test_glm_value_and_gradient(device, glm):
    xh, bh = _data(1)
    rng = np.random.default_rng(2)
    x, beta = wf.asarray(xh), wf.asarray(bh * 0.5)
    eta = 0.2 + xh @ (bh * 0.5)
    if glm == "bernoulli":
        yh = (rng.random(ROWS) < 0.5).astype(np.int32)
        s = 2.0 * yh - 1
        want_value = -np.sum(np.logaddexp(0, -s * eta))
        want_grad = xh.T @ (s / (1 + np.exp(s * eta)))

        def f(b):
            return wf.stats.bernoulli_logit_glm_lpmf(wf.asarray(yh), x, 0.2, b)
    elif glm == "normal":
        yh = rng.standard_normal(ROWS)
        want_value = np.sum(-0.5 * ((yh - eta) / 1.3) ** 2 - np.log(1.3) - 0.5 * np.log(2 * np.pi))
        want_grad = xh.T @ ((yh - eta) / 1.3**2)

        def f(b):
            return wf.stats.normal_id_glm_lpdf(wf.asarray(yh), x, 0.2, b, 1.3)
    else:
        yh = rng.poisson(1.5, ROWS).astype(np.int32)
        from scipy.special import gammaln
        want_value = np.sum(yh * eta - np.exp(eta) - gammaln(yh + 1))
        want_grad = xh.T @ (yh - np.exp(eta))

        def f(b):
            return wf.stats.poisson_log_glm_lpmf(wf.asarray(yh), x, 0.2, b)
    value, grad = wf.value_and_grad(f)(beta)
    if _walks(device):
        assert ROW_WALK in _skeletons([value, grad])
    _close(value, want_value)
    _close(grad, want_grad)
    traced = wf.function(wf.value_and_grad(f))
    for _ in range(2):
        value, grad = traced(beta)
        _close(value, want_value)
        _close(grad, want_grad)


@pytest.mark.parametrize("cols", [COLS, 1100])
def test_a_glm_written_by_hand(device, cols):
    """A logistic GLM's value and gradient as a user writes them: the value's sum is a step
    of its own beside the gradient's, reading the same linear predictor; it joins the walk
    (the first kernel reads x, no other does), requested before the gradient or after it,
    instead of keeping the predictor's pass in place. So do a GPU's teams (1100 columns; on
    an H200 at 100000 x 5000 the passes took 3.8-3.9 ms, the walk 1.46-1.48)."""
    from weft.backends.cuda.dialect import CUDA

    xh, bh = _data(17, cols=cols)
    yh = (np.random.default_rng(18).random(ROWS) < 0.5).astype(np.float64)
    x, b, y = wf.asarray(xh), wf.asarray(bh), wf.asarray(yh)
    eta = 0.1 + x @ b
    s = 2 * y - 1
    value = wf.log_inv_logit(s * eta).sum()
    grad = (x * (s * wf.inv_logit(-s * eta))[:, None]).sum(axis=0)
    targets = [None] + ([Target(CUDA, Traits(reduction_groups=4))] if cols > 1024 else [])
    for kernels in [_compiled(arrays, target=t) for t in targets
                    for arrays in ([value, grad], [grad, value])]:
        assert kernels[0].ir.skeleton == ROW_WALK
        storage = x._node.attrs.storage
        assert [any(a is storage for a in k.arguments) for k in kernels] == [
            True] + [False] * (len(kernels) - 1)
    wf.eval(value, grad)
    etah, sh = 0.1 + xh @ bh, 2 * yh - 1
    _close(value, -np.sum(np.logaddexp(0, -sh * etah)))
    _close(grad, xh.T @ (sh / (1 + np.exp(sh * etah))))


def test_several_results_float32_means_and_maxima(device):
    xh, bh = _data(3)
    x32 = wf.asarray(xh.astype(np.float32))
    x, b = wf.asarray(xh), wf.asarray(bh)
    eta = x @ b
    w = wf.tanh(eta)
    outputs = [(x * w[:, None]).mean(axis=0), (x - eta[:, None]).max(axis=0),
               w.sum(), w * 2, (x32 * wf.exp(x32 @ wf.asarray(bh.astype(np.float32)))[:, None]
                              ).sum(axis=0)]
    assert ROW_WALK in _skeletons(outputs[:4]) and ROW_WALK in _skeletons(outputs[4:])
    wf.eval(*outputs)
    etah = xh @ bh
    _close(outputs[0], (xh * np.tanh(etah)[:, None]).mean(axis=0))
    _close(outputs[1], (xh - etah[:, None]).max(axis=0))
    _close(outputs[2], np.tanh(etah).sum())
    _close(outputs[3], 2 * np.tanh(etah))
    x32h = xh.astype(np.float32).astype(np.float64)
    want32 = x32h.T @ np.exp(x32h @ bh.astype(np.float32).astype(np.float64))
    _close(outputs[4], want32, rtol=2e-5)


def test_row_means_maxima_and_unfused_evaluation(device):
    xh, bh = _data(12)
    x, b = wf.asarray(xh), wf.asarray(bh)

    def expressions():
        mean, top = (x * b).mean(axis=1), x.max(axis=1)
        return (x * (mean - top)[:, None]).sum(axis=0)
    g = expressions()
    assert ROW_WALK in _skeletons([g])
    want = xh.T @ ((xh * bh).mean(axis=1) - xh.max(axis=1))
    _close(g, want)
    with wf.config(fuse=False):
        g = expressions()
        assert ROW_WALK not in _skeletons([g])  # one kernel per operation, as asked
        _close(g, want)


def test_what_the_walk_would_read_before_writing_keeps_its_passes(device):
    """A sum of per-row values that the column terms read, or a requested per-row value
    they read back, is computed before them: those runs are not joined (each would be read
    before the walk writes it)."""
    xh, bh = _data(13)
    x, b = wf.asarray(xh), wf.asarray(bh)
    wh = np.tanh(xh @ bh)
    w = wf.tanh(x @ b)
    g = (x * (w - w.sum())[:, None]).sum(axis=0)
    assert ROW_WALK not in _skeletons([g])
    _close(g, xh.T @ (wh - wh.sum()))
    g = (x * (w - w.mean())[:, None] / wf.sqrt(((w - w.mean()) ** 2).sum())).sum(axis=0)
    _close(g, xh.T @ ((wh - wh.mean()) / np.sqrt(((wh - wh.mean()) ** 2).sum())))
    d = wf.exp(x @ b)
    g = (x * d[:, None]).sum(axis=0)
    wf.eval(d, g)
    _close(d, np.exp(xh @ bh))
    _close(g, xh.T @ np.exp(xh @ bh))


def test_rows_of_a_block_and_of_a_transpose(device):
    xh, _ = _data(4, ROWS + 3, COLS + 5)
    _, bh = _data(4)
    block = wf.asarray(xh)[2:ROWS + 2, 1:COLS + 1]  # rows COLS + 5 apart
    xs = xh[2:ROWS + 2, 1:COLS + 1]
    g = (block * wf.log1p(wf.exp(block @ wf.asarray(bh)))[:, None]).sum(axis=0)
    assert ROW_WALK in _skeletons([g])
    _close(g, xs.T @ np.log1p(np.exp(xs @ bh)))
    # A transpose's rows are its operand's columns: two column reductions, no walk.
    xt = wf.asarray(np.ascontiguousarray(xs.T)).T
    g = (xt * wf.log1p(wf.exp(xt @ wf.asarray(bh)))[:, None]).sum(axis=0)
    assert ROW_WALK not in _skeletons([g])
    _close(g, xs.T @ np.log1p(np.exp(xs @ bh)))


def test_a_failing_check_in_the_walk_raises_and_leaves_the_destination(device):
    xh, bh = _data(5)
    yh = np.ones(ROWS, dtype=np.int32)
    yh[150] = 3  # not 0 or 1
    x, beta = wf.asarray(xh), wf.asarray(bh)
    out = wf.asarray(np.full(COLS, 7.0))
    value, grad = wf.value_and_grad(
        lambda b: wf.stats.bernoulli_logit_glm_lpmf(wf.asarray(yh), x, 0.0, b))(beta)
    with pytest.raises(ValueError, match="150"):
        out[:] = grad
    assert np.all(out.to_numpy() == 7.0)


def test_a_total_of_totals_is_left_apart(device):
    xh, bh = _data(6)
    x, b = wf.asarray(xh), wf.asarray(bh)
    inner = (x * (x @ b)[:, None]).sum(axis=1)  # a row total reading a row total
    g = (x * inner[:, None]).sum(axis=0)
    assert ROW_WALK not in _skeletons([g])
    etah = xh @ bh
    _close(g, xh.T @ (xh * etah[:, None]).sum(axis=1))


def test_narrow_rows_and_gpus_keep_their_passes():
    xh, bh = _data(7, 4096, 64)
    x, b = wf.asarray(xh, device="reference"), wf.asarray(bh[:64], device="reference")
    g = (x * wf.exp(x @ b)[:, None]).sum(axis=0)
    assert ROW_WALK not in _skeletons([g])  # 64 columns: below tuning.WALK_COLUMNS
    xh, bh = _data(8)
    x, b = wf.asarray(xh, device="reference"), wf.asarray(bh, device="reference")
    g = (x * wf.exp(x @ b)[:, None]).sum(axis=0)
    assert ROW_WALK not in _skeletons([g], Traits(reduction_groups=2))  # not a CPU
    assert ROW_WALK in _skeletons([g])


def test_the_walk_reads_each_row_of_x_in_one_kernel():
    from weft.backends.opencl.dialect import OPENCL

    xh, bh = _data(9)
    x, b = wf.asarray(xh, device="reference"), wf.asarray(bh, device="reference")
    g = (x * wf.exp(x @ b)[:, None]).sum(axis=0)
    outputs = [(g._node, temporary_leaf(g.shape, g.dtype))]
    kernels = compile(outputs, Target(OPENCL, CPU)).kernels
    reading_x = [k for k in kernels if any(
        a is x._node.attrs.storage for a in k.arguments)]
    assert [k.ir.skeleton for k in reading_x] == [ROW_WALK]
    source = kernels[0].source(OPENCL)
    assert "total0_0_0" in source and "acc0[j]" in source


def test_gpu_teams_walk_wide_rows(real_device):
    """On GPUs whose dialect shuffles (CUDA), rows of 1024 or more columns are walked by
    teams, each lane keeping its columns' partial results in registers."""
    if real_device.target.traits.is_cpu or not real_device.target.dialect.shuffle_down:
        pytest.skip("team walks are for GPUs that shuffle (CUDA)")
    from weft import tuning

    rows = 2 * tuning.TEAM_WALK_ROWS * real_device.target.traits.reduction_groups + 3
    xh, bh = _data(10, rows, 1100)
    rng = np.random.default_rng(11)
    yh = (rng.random(rows) < 0.5).astype(np.int32)
    x, y, beta = wf.asarray(xh), wf.asarray(yh), wf.asarray(bh)

    def f(b):
        return wf.stats.bernoulli_logit_glm_lpmf(y, x, 0.2, b)
    value, grad = wf.value_and_grad(f)(beta)
    outputs = [(a._node, temporary_leaf(a.shape, a.dtype)) for a in (value, grad)]
    assert ROW_WALK in [k.ir.skeleton for k in compile(outputs, real_device.target).kernels]
    eta = 0.2 + xh @ bh
    s = 2.0 * yh - 1
    _close(value, -np.sum(np.logaddexp(0, -s * eta)))
    _close(grad, xh.T @ (s / (1 + np.exp(s * eta))))
    g = (x * wf.tanh(x @ beta)[:, None]).max(axis=0)  # another op, no checks
    _close(g, (xh * np.tanh(xh @ bh)[:, None]).max(axis=0))


_TOTALS = [lambda x, b: (x * b).sum(axis=1), lambda x, b: x.max(axis=1),
           lambda x, b: (x * x).mean(axis=1), lambda x, b: (x - b).min(axis=1)]
_VALUES = [lambda e, y: wf.tanh(e), lambda e, y: wf.exp(-wf.abs(e)) * y,
           lambda e, y: wf.where(e > 0, e, 0.5 * e), lambda e, y: e * e - y]
_COLUMNS = [lambda x, v: (x * v[:, None]).sum(axis=0),
            lambda x, v: (x * x * v[:, None]).mean(axis=0),
            lambda x, v: (x - v[:, None]).max(axis=0),
            lambda x, v: (wf.exp(x * 0.1) * v[:, None]).sum(axis=0)]


@pytest.mark.parametrize(("seed", "small"), [(s, False) for s in range(8)]
                         + [(s, True) for s in range(8, 12)])
def test_random_runs_against_the_reference_interpreter(real_device, seed, small):
    """Random runs of row totals, per-row values, their sums and column results, requested
    together, on the device (walked where it walks) against weft's NumPy interpreter; small
    grids too (one work-item walks them on CPUs, writing the results itself)."""
    rng = np.random.default_rng(100 + seed)
    rows, cols = (61, 33) if small else (ROWS, COLS)
    traits, dialect = real_device.target.traits, real_device.target.dialect
    if not small and not traits.is_cpu and dialect.shuffle_down:
        from weft import tuning  # (rows and columns a GPU's teams walk)

        rows = 2 * tuning.TEAM_WALK_ROWS * traits.reduction_groups + 3
        cols = tuning.TEAM_WALK_COLUMNS + 77
    xh, bh = _data(seed, rows, cols)
    yh = rng.standard_normal(rows)
    picks = [rng.integers(len(options), size=2) for options in (_TOTALS, _VALUES, _COLUMNS)]
    extra_sum = int(rng.integers(3))  # none, requested last, requested first

    def program(device):
        x, b, y = (wf.asarray(a, device=device) for a in (xh, bh, yh))
        totals = [_TOTALS[k](x, b) for k in picks[0]]
        values = [_VALUES[k](totals[n], y) for n, k in enumerate(picks[1])]
        outputs = [_COLUMNS[k](x, values[n]) for n, k in enumerate(picks[2])]
        if extra_sum:
            outputs.insert(len(outputs) if extra_sum == 1 else 0, (values[0] * values[1]).sum())
        if device is real_device and (_walks(device) or (
                device.target.dialect.shuffle_down and not small)):
            kernels = compile([(o._node, temporary_leaf(o.shape, o.dtype)) for o in outputs],
                              device.target).kernels
            assert ROW_WALK in [k.ir.skeleton for k in kernels]
        wf.eval(*outputs)
        return [o.to_numpy() for o in outputs]

    for got, want in zip(program(real_device), program(wf.get_device("reference"))):
        _close(got, want)


def test_small_grids_are_one_walk_writing_its_results(device):
    """Up to tuning.BAND_SPLIT_ELEMENTS elements a CPU walks the grid with one work-item,
    which writes sums, maxima and column results itself: one launch. A mean (scaled) and a
    float32 sum (kept in float64) still go through a pass; writes into the vector the walk
    reads and into a matrix's column (elements apart) keep their values; every result
    against NumPy on every device."""
    xh, bh = _data(20, 45, 17)
    x, b = wf.asarray(xh), wf.asarray(bh)
    w = wf.tanh(x @ b)
    total, g, top = (w * w).sum(), (x * w[:, None]).sum(axis=0), (x * w[:, None]).max(axis=0)
    assert _skeletons([total, g, top]) == [ROW_WALK]
    wh = np.tanh(xh @ bh)
    for got, want in zip(wf.eval(total, g, top), ((wh * wh).sum(), (xh * wh[:, None]).sum(0),
                                                  (xh * wh[:, None]).max(0))):
        _close(got, want)
    mean = (x * w[:, None]).mean(axis=0)
    x32 = wf.asarray(xh.astype(np.float32))
    g32 = (x32 * wf.tanh(x32 @ wf.asarray(bh.astype(np.float32)))[:, None]).sum(axis=0)
    for result in (mean, g32):
        assert _skeletons([result])[0] == ROW_WALK and len(_skeletons([result])) == 2
    _close(mean, (xh * wh[:, None]).mean(0))
    x32h, b32h = xh.astype(np.float32).astype(np.float64), bh.astype(np.float32)
    _close(g32, x32h.T @ np.tanh(x32h @ b32h), rtol=2e-6)
    # into the vector the walk reads, and into a column of a matrix (elements 3 apart)
    b[:] = (x * wf.tanh(x @ b)[:, None]).sum(axis=0)
    _close(b, xh.T @ wh)
    m = wf.asarray(np.zeros((17, 3)))
    m[:, 1] = (x * wf.tanh(x @ b)[:, None]).sum(axis=0)
    want = np.zeros((17, 3))
    want[:, 1] = xh.T @ np.tanh(xh @ (xh.T @ wh))
    _close(m, want)


@pytest.mark.parametrize("shape", [(50, 40), (ROWS, COLS)])
def test_per_row_steps_after_the_columns_and_writes_in_place(device, shape):
    """A per-row step requested after the column result joins the walk only where nothing
    it would move past reads what it writes or writes what it reads: a vector the column
    terms read, overwritten from the same predictor, and a total reading a vector written
    in place after the column result was asked for."""
    xh, bh = _data(21, *shape)
    vh = np.random.default_rng(22).standard_normal(shape[0])
    eh = xh @ bh
    x, b, v = wf.asarray(xh), wf.asarray(bh), wf.asarray(vh)
    eta = x @ b
    g = (x * (v * wf.tanh(eta))[:, None]).sum(axis=0)
    v[:] = wf.tanh(eta) * 3
    wf.eval(g, v)
    _close(g, xh.T @ (vh * np.tanh(eh)))
    _close(v, np.tanh(eh) * 3)
    x, b, v = wf.asarray(xh), wf.asarray(bh), wf.asarray(vh)
    eta = x @ b
    g = (x * wf.tanh(eta)[:, None]).sum(axis=0)
    v += 1.0
    total = (wf.tanh(eta) * v).sum()
    wf.eval(g, total)
    _close(g, xh.T @ np.tanh(eh))
    _close(total, (np.tanh(eh) * (vh + 1)).sum())


def test_triangles_integers_masks_gathers_and_writes_in_place(device):
    xh, bh = _data(14)
    x, b = wf.asarray(xh), wf.asarray(bh)
    # a lower triangle's rows, walked (its zeros are structure, not loads)
    lower = wf.tril(x)
    g = (lower * wf.exp(lower @ b)[:, None]).sum(axis=0)
    assert ROW_WALK in _skeletons([g])
    lh = np.tril(xh)
    _close(g, lh.T @ np.exp(lh @ bh))
    # integer rows, promoted with float coefficients
    xi = wf.asarray((xh * 10).astype(np.int32))
    xih = (xh * 10).astype(np.int32).astype(np.float64)
    g = (xi * wf.tanh(xi @ b * 0.01)[:, None]).sum(axis=0)
    assert ROW_WALK in _skeletons([g])
    _close(g, xih.T @ np.tanh(xih @ bh * 0.01))
    # bool columns from a row total
    w = x.sum(axis=1)
    hits = ((x > 0) & (w[:, None] > 0)).any(axis=0)
    assert ROW_WALK in _skeletons([hits])
    np.testing.assert_array_equal(hits.to_numpy(), ((xh > 0) & (xh.sum(1)[:, None] > 0)).any(0))
    # a gathered per-row value
    perm = np.random.default_rng(15).permutation(ROWS)
    yh = np.random.default_rng(16).standard_normal(ROWS)
    v = (x @ b) * wf.asarray(yh)[wf.asarray(perm)]
    g = (x * v[:, None]).sum(axis=0)
    assert ROW_WALK in _skeletons([g])
    _close(g, xh.T @ ((xh @ bh) * yh[perm]))
    # the coefficients overwritten by the walk that reads them
    want = xh.T @ np.exp(xh @ bh * 0.1)
    b[:] = (x * wf.exp(x @ b * 0.1)[:, None]).sum(axis=0)
    _close(b, want)
