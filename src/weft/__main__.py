"""``python -m weft``: the demo. Lists devices, fuses a normal density into one kernel, shows
the kernel, checks it against NumPy and times it next to NumPy and numexpr.
"""

from __future__ import annotations

import math
import time

import numpy as np

import weft as wf


def _median_ms(fn, repeat: int = 7) -> float:
    fn()  # warm-up (compiles on first use)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * sorted(times)[len(times) // 2]


def main() -> None:
    print("weft", wf.__version__)
    print("devices:")
    for d in wf.devices():
        print(f"  {d}  {d.name}")
    device = wf.current_device()
    print(f"using {device}\n")

    n = 1 << 22
    rng = np.random.default_rng(0)
    y_np = rng.standard_normal(n)
    mu_np = rng.standard_normal(n)
    sigma_np = rng.uniform(0.5, 2.0, n)
    y, mu, sigma = wf.asarray(y_np), wf.asarray(mu_np), wf.asarray(sigma_np)
    inv_sqrt_2pi = 1.0 / math.sqrt(2.0 * math.pi)

    def normal_pdf():
        z = (y - mu) / sigma
        return wf.exp(-0.5 * z * z) * inv_sqrt_2pi / sigma

    print("normal density, exp(-((y - mu) / sigma)^2 / 2) / (sigma sqrt(2 pi)), as one kernel:")
    print(wf.kernel_source(normal_pdf()))

    def numpy_pdf():
        z = (y_np - mu_np) / sigma_np
        return np.exp(-0.5 * z * z) * inv_sqrt_2pi / sigma_np

    got = normal_pdf().to_numpy()
    np.testing.assert_allclose(got, numpy_pdf(), rtol=1e-12)
    print(f"matches NumPy on {n} float64 elements (rtol 1e-12)\n")

    def weft_run():
        normal_pdf().eval()
        wf.synchronize()

    rows = [("weft (one fused kernel)", _median_ms(weft_run))]
    with wf.config(fuse=False):
        rows.append(("weft, fuse=False (one kernel per op)", _median_ms(weft_run)))
    rows.append(("NumPy", _median_ms(numpy_pdf)))
    try:
        import numexpr

        local = {"y": y_np, "mu": mu_np, "sigma": sigma_np, "c": inv_sqrt_2pi}
        expr = "exp(-0.5 * ((y - mu) / sigma)**2) * c / sigma"
        rows.append(("numexpr", _median_ms(lambda: numexpr.evaluate(expr, local_dict=local))))
    except ImportError:
        rows.append(("numexpr", None))
    print(f"time for n = {n} (median of 7):")
    for label, ms in rows:
        print(f"  {label:<40} {ms:8.2f} ms" if ms is not None else
              f"  {label:<40} not installed (pip install numexpr)")
    print("\ncache:", wf.cache_info())


if __name__ == "__main__":
    main()
