"""How a suite measures (``Suite.method``): ``batches`` (each implementation timed in turn,
the median of batches), ``rounds`` (implementations interleaved round by round) and
``compile`` (fresh processes). Every result is checked against a float64 reference first
(computed by CuPy on the GPU where it can, else NumPy).
"""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np
from cases import CASES, Case
from impls import Impl, WeftImpl, cupy_namespace, numpy_namespace
from suites import Suite
from timing import Runner, median_ms, rounds, spread

import weft as wf


class Plan:
    """What one run measures: the suite, its implementations, the machine, sizes, repeat."""

    def __init__(self, suite: Suite, impls: list[Impl], machine: str, cases: list[str],
                 dtypes: list[str], sizes: list[int] | None, repeat: int) -> None:
        self.suite, self.impls, self.machine = suite, impls, machine
        self.cases, self.dtypes, self.sizes, self.repeat = cases, dtypes, sizes, repeat
        self.skipped: list[str] = []

    def case_sizes(self, case: str, dtype: str) -> tuple[int, ...]:
        if self.sizes:
            return tuple(self.sizes)
        fixed = self.suite.case_sizes.get(case, {}).get(self.machine)
        if fixed:
            return (fixed,)
        sizes = self.suite.sizes[self.machine]
        # A dtype the suite does not list takes the size of the first it does.
        return sizes.get(dtype) or next(iter(sizes.values()), ())


def reference(case: Case, host: dict[str, Any]) -> Any:
    """The case in float64: its own reference where it has one, else on the GPU through
    CuPy where it can (NumPy would take seconds per case at a GPU's sizes), else NumPy."""
    if case.reference is not None:
        return case.reference(**host)
    wide = {k: v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype.kind == "f"
            else v.copy() if isinstance(v, np.ndarray) else v for k, v in host.items()}
    try:
        import cupy as cp

        ns = cupy_namespace(cp)
        data = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in wide.items()}
        if case.setup is not None:
            data = case.setup(ns, **data)
        out = case.fn(ns, **data)
        return float(out) if case.read_back else cp.asnumpy(out)
    except (ImportError, AttributeError, TypeError):
        ns = numpy_namespace()
        if case.setup is not None:
            wide = case.setup(ns, **wide)
        out = case.fn(ns, **wide)
        return float(out) if case.read_back else np.asarray(out)


def _tolerance(case: Case, dtype: str) -> tuple[float, float]:
    if case.tolerance is not None:
        return case.tolerance
    if case.outputs == 0:  # sums: float32 peers accumulate in float32
        return (1e-4, 1e-2) if dtype == "float32" else (1e-9, 1e-6)
    return (2e-5, 2e-4) if dtype == "float32" else (1e-9, 1e-9)


def _prepared(impl: Impl, case: Case, host: dict[str, Any], expected: Any, dtype: str
              ) -> Runner | str:
    """``impl``'s runner for ``case``, its result checked; or why it has none."""
    run = impl.prepare(case)
    if run is None:
        return "not expressible"
    data = impl.inputs(host)
    if case.setup is not None:
        data = case.setup(impl.ns, **data)
    out = run(**data)
    got = (np.concatenate([np.ravel(impl.to_host(o)) for o in out]) if isinstance(out, tuple)
           else impl.to_host(out))
    rtol, atol = _tolerance(case, dtype)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)
    return Runner(lambda: run(**data), impl.sync, impl.enter, impl.leave)


def _release_memory() -> None:
    gc.collect()
    for module, action in (("cupy", lambda m: m.get_default_memory_pool().free_all_blocks()),
                           ("torch", lambda m: m.cuda.empty_cache())):
        if module in sys.modules:
            try:
                action(sys.modules[module])
            except Exception:  # noqa: BLE001 - best effort between cases
                pass


def _device_copy_ms(n: int, dtype: str, repeat: int) -> float:
    """A device-to-device copy of n elements: ``cudaMemcpyAsync`` where CuPy runs, else a
    one-input, one-output weft kernel."""
    try:
        import cupy as cp

        a = cp.random.random(n, dtype=np.float64).astype(dtype)
        b = cp.empty_like(a)
        stream = cp.cuda.get_current_stream()
        return median_ms(lambda: b.data.copy_from_device_async(a.data, a.nbytes, stream),
                         stream.synchronize, repeat)
    except ImportError:
        x = wf.asarray(np.random.default_rng(1).uniform(size=n).astype(dtype))
        return median_ms(lambda: wf.multiply(x, 1).eval(), wf.synchronize, repeat)


def _cases(plan: Plan) -> list[tuple[Case, str, int]]:
    dtypes = plan.suite.case_dtypes
    return [(CASES[name], dtype, n) for dtype in plan.dtypes for name in plan.cases
            if dtype in dtypes.get(name, (dtype,)) for n in plan.case_sizes(name, dtype)]


def _data(case: Case, rng: np.random.Generator, n: int, dtype: str
          ) -> tuple[dict[str, Any], int, float]:
    """A case's host inputs for ``n`` elements, the elements of its largest array, and the
    fewest bytes it moves."""
    host = case.inputs(rng, n, np.dtype(dtype))
    elements = max((v.size for v in host.values() if isinstance(v, np.ndarray)), default=n)
    return host, elements, case.nbytes(host)


def batches(plan: Plan, progress: Callable[[list[dict]], None]) -> list[dict]:
    """Each implementation of each case timed in turn: the median of ``repeat`` batches."""
    records: list[dict] = []
    rng = np.random.default_rng(0)
    copies: dict[tuple[str, int], float] = {}
    for case, dtype, n in _cases(plan):
        host, elements, nbytes = _data(case, rng, n, dtype)
        if (dtype, n) not in copies and plan.suite.table == "throughput":
            ms = _device_copy_ms(n, dtype, plan.repeat)
            copies[(dtype, n)] = 2 * n * np.dtype(dtype).itemsize / ms / 1e6
            records.append(dict(case="copy", impl="device", dtype=dtype, n=n, ms=ms,
                                gbps=copies[(dtype, n)], frac_copy=1.0))
        copy = copies.get((dtype, n))
        expected = reference(case, host)
        for impl in plan.impls:
            try:
                runner = _prepared(impl, case, host, expected, dtype)
                if isinstance(runner, str):
                    plan.skipped.append(f"{case.name} {dtype} {impl.name}: {runner}")
                    continue
                runner.enter()
                try:
                    ms = median_ms(runner.run, runner.sync, plan.repeat, plan.suite.batch)
                finally:
                    runner.leave()
            except Exception as e:  # noqa: BLE001 - a peer failing is reported, not fatal
                plan.skipped.append(f"{case.name} {dtype} {impl.name}: "
                                    f"{type(e).__name__}: {str(e)[:300]}")
                continue
            finally:
                runner = None
                _release_memory()
            gbps = nbytes / ms / 1e6
            records.append(dict(case=case.name, impl=impl.name, dtype=dtype, n=elements,
                                ms=ms, gbps=gbps, frac_copy=gbps / copy if copy else None,
                                bound=case.bound))
            print(f"  {case.name:<22} {dtype:<8} {impl.name:<14} {ms:10.4f} ms "
                  f"{gbps:8.1f} GB/s", flush=True)
        progress(records)
    return records


def interleaved(plan: Plan, progress: Callable[[list[dict]], None]) -> list[dict]:
    """Per case, every implementation timed in the same rounds (``timing.rounds``)."""
    records: list[dict] = []
    rng = np.random.default_rng(2)
    for case, dtype, n in _cases(plan):
        host, elements, nbytes = _data(case, rng, n, dtype)
        expected = reference(case, host)
        runners: dict[str, Runner] = {}
        for impl in plan.impls:
            try:
                runner = _prepared(impl, case, host, expected, dtype)
            except Exception as e:  # noqa: BLE001
                runner = f"{type(e).__name__}: {str(e)[:300]}"
            if isinstance(runner, str):
                plan.skipped.append(f"{case.name} {dtype} {impl.name}: {runner}")
            else:
                runners[impl.name] = runner
        for name, seconds in rounds(runners, plan.repeat, plan.suite.batch).items():
            q1, ms, q3 = (1e3 * s for s in spread(seconds))
            records.append(dict(case=case.name, impl=name, dtype=dtype, n=elements, ms=ms,
                                ms_q1=q1, ms_q3=q3, ms_min=1e3 * min(seconds),
                                gbps=nbytes / ms / 1e6))
            print(f"  {case.name:<22} {dtype:<8} {name:<14} {ms:10.4f} ms "
                  f"({q1:.4f}-{q3:.4f})", flush=True)
        del runners
        _release_memory()
        progress(records)
    return records


_COMPILE_SCRIPT = {
    "weft": """
import time, numpy as np, weft as wf
wf.set_device({device!r})
x = wf.asarray(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32))
(x + 1).to_numpy()  # the device is up: what follows is the new kernel alone
t0 = time.perf_counter()
y = (wf.log1p(x) * 0.75 - wf.sqrt(x) / 3.0).to_numpy()
print("MS", (time.perf_counter() - t0) * 1e3)
""",
    "cupy.fuse": """
import time, numpy as np, cupy as cp
x = cp.asarray(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32))
(x + 1).get()
f = cp.fuse(lambda x: cp.log1p(x) * 0.75 - cp.sqrt(x) / 3.0)
t0 = time.perf_counter()
f(x).get()
print("MS", (time.perf_counter() - t0) * 1e3)
""",
    "torch.compile": """
import time, numpy as np, torch
x = torch.from_numpy(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32)).cuda()
(x + 1).cpu()
f = torch.compile(lambda x: torch.log1p(x) * 0.75 - torch.sqrt(x) / 3.0)
t0 = time.perf_counter()
f(x).cpu()
print("MS", (time.perf_counter() - t0) * 1e3)
""",
    "jax.jit": """
import time, numpy as np, jax, jax.numpy as jnp
x = jax.device_put(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32))
np.asarray(x + 1)
f = jax.jit(lambda x: jnp.log1p(x) * 0.75 - jnp.sqrt(x) / 3.0)
t0 = time.perf_counter()
np.asarray(f(x))
print("MS", (time.perf_counter() - t0) * 1e3)
""",
}


def compile_times(plan: Plan, progress: Callable[[list[dict]], None]) -> list[dict]:
    """A new kernel's time to its first result in a fresh process with empty caches
    (first_compile), then in another fresh process with the caches kept
    (disk_cache_load)."""
    records: list[dict] = []
    for impl in plan.impls:
        key = "weft" if isinstance(impl, WeftImpl) else impl.name
        if key not in _COMPILE_SCRIPT:
            continue
        device = str(impl.device) if isinstance(impl, WeftImpl) else ""
        script = _COMPILE_SCRIPT[key].format(device=device)
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, WEFT_CACHE_DIR=cache, CUPY_CACHE_DIR=cache,
                       TORCHINDUCTOR_CACHE_DIR=cache, TRITON_CACHE_DIR=cache + "/triton",
                       POCL_CACHE_DIR=cache + "/pocl", XLA_PYTHON_CLIENT_PREALLOCATE="false")
            for case in plan.cases:
                if case == "disk_cache_load" and key == "jax.jit":
                    break  # JAX keeps no disk cache unless configured to
                try:
                    out = subprocess.run([sys.executable, "-c", script], env=env, text=True,
                                         capture_output=True, timeout=300, check=True).stdout
                    ms = float(re.search(r"MS ([0-9.eE+-]+)", out).group(1))
                except Exception as e:  # noqa: BLE001
                    plan.skipped.append(f"{case} {impl.name}: {type(e).__name__}: "
                                        f"{str(e)[-300:]}")
                    continue
                records.append(dict(case=case, impl=impl.name, dtype="float32", n=1 << 20,
                                    ms=ms))
                print(f"  {case:<16} {impl.name:<14} {ms:9.1f} ms", flush=True)
    progress(records)
    return records

