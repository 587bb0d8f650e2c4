"""What a bit mask costs: wf.kernels.masked_add against the same add without a mask, against a
bool-array mask, and against a hand-written CUDA masked add, for several mask patterns, on every
device given (default: the current one).

    python benchmarks/masked.py [--n 67108864] [--devices cuda:0 opencl:0] [--out DIR]

The mask adds one uint32 word per 32 elements to the traffic (1/96 of an in-place float32
add's bytes), so on a bandwidth-bound GPU it should cost under 10% (issue 6). The pattern
matters as much as the mask: a store that covers part of a 32-byte sector makes the GPU read
the rest of the sector from DRAM first, so a random mask moves a fourth stream (``dst``) that
an unmasked add does not. The patterns separate the two costs:

- ``all set``: every element selected; the mask's own cost (its words and the bit tests);
- ``runs of 256``: 256 selected, 256 not, alternately; half the elements, whole sectors;
- ``random 50%``: each element selected with probability 1/2; nearly every sector partial.

The hand-written CUDA kernel (``cuda:*`` devices with CuPy) is what a careful person would
write: four elements per thread, the word loaded once per element, a conditional store. It
shows what the hardware allows for each pattern. Writes ``masked.json`` and ``masked.txt``
under ``--out`` (default: benchmarks/results/<device>/).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from common import results_dir  # noqa: E402
from gpu import timed_ms  # noqa: E402

import weft as wf  # noqa: E402

REPEAT = 9  # batches of gpu.BATCH calls

HAND_SOURCE = r"""
template <typename T>
__device__ void masked_add(T* __restrict__ dst, const T* __restrict__ lhs,
                           const T* __restrict__ rhs, const unsigned* __restrict__ words,
                           long long n) {
    const long long first = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long i = first + (long long)k * blockDim.x;
        if (i < n && ((words[i >> 5] >> (i & 31)) & 1u)) dst[i] = lhs[i] + rhs[i];
    }
}

template <typename T>
__device__ void add(T* __restrict__ dst, const T* __restrict__ lhs,
                    const T* __restrict__ rhs, long long n) {
    const long long first = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long i = first + (long long)k * blockDim.x;
        if (i < n) dst[i] = lhs[i] + rhs[i];
    }
}

extern "C" {
__global__ void masked_add_f32(float* d, const float* a, const float* b, const unsigned* w,
                               long long n) { masked_add(d, a, b, w, n); }
__global__ void masked_add_f64(double* d, const double* a, const double* b, const unsigned* w,
                               long long n) { masked_add(d, a, b, w, n); }
__global__ void add_f32(float* d, const float* a, const float* b, long long n) {
    add(d, a, b, n);
}
__global__ void add_f64(double* d, const double* a, const double* b, long long n) {
    add(d, a, b, n);
}
}
"""
BLOCK = 256


def patterns(n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {
        "all set": np.ones(n, bool),
        "runs of 256": (np.arange(n) // 256) % 2 == 0,
        "random 50%": rng.random(n) < 0.5,
    }


def hand_kernels(device: str) -> Any:
    """The hand-written CUDA module, or None where there is none to run."""
    if not device.startswith("cuda"):
        return None
    try:
        import cupy as cp
    except ImportError:
        return None
    return cp, cp.RawModule(code=HAND_SOURCE, options=("-std=c++17",))


def measure(device: str, n: int, dtype: Any) -> list[dict]:
    rng = np.random.default_rng(0)
    name = np.dtype(dtype).name
    itemsize = np.dtype(dtype).itemsize
    host = [rng.standard_normal(n).astype(dtype) for _ in range(3)]
    hand = hand_kernels(device)
    out: list[dict] = []

    def record(pattern: str, case: str, ms: float) -> None:
        out.append(dict(device=device, dtype=name, n=n, pattern=pattern, case=case, ms=ms,
                        gbps=3 * n * itemsize / ms / 1e6))
        print(f"  {device:<9} {name:<8} {pattern:<12} {case:<18} {ms:8.3f} ms", flush=True)

    def weft_ms(mask: Any) -> float:
        return timed_ms(lambda: wf.kernels.masked_add(dst, lhs, rhs, mask), wf.synchronize,
                        REPEAT)

    with wf.device(device):
        dst, lhs, rhs = (wf.asarray(h) for h in host)
        record("-", "weft, no mask", weft_ms(None))
        if hand is not None:
            cp, module = hand
            hdst, hlhs, hrhs = (cp.asarray(h) for h in host)
            short = "f32" if itemsize == 4 else "f64"
            grid = (-(-n // (BLOCK * 4)),)
            add = module.get_function(f"add_{short}")
            masked = module.get_function(f"masked_add_{short}")
            sync = cp.cuda.Stream.null.synchronize
            record("-", "hand CUDA, no mask", timed_ms(
                lambda: add(grid, (BLOCK,), (hdst, hlhs, hrhs, np.int64(n))), sync, REPEAT))
        for pattern, selected in patterns(n, rng).items():
            bits = wf.bitmask(selected)
            record(pattern, "weft, bit mask", weft_ms(bits))
            record(pattern, "weft, bool mask", weft_ms(wf.asarray(selected)))
            if hand is not None:
                words = cp.asarray(bits.words.to_numpy())
                record(pattern, "hand CUDA, bit mask", timed_ms(
                    lambda w=words: masked(grid, (BLOCK,), (hdst, hlhs, hrhs, w, np.int64(n))),
                    sync, REPEAT))
    base = out[0]["ms"]
    hand_by_pattern = {r["pattern"]: r["ms"] for r in out if r["case"].startswith("hand")}
    for r in out:
        r["vs_unmasked"] = r["ms"] / base
        r["vs_hand"] = r["ms"] / hand_by_pattern[r["pattern"]] if hand_by_pattern else None
    return out


def table(records: list[dict], title: str) -> list[str]:
    lines = [title, f"{'device':<9} {'dtype':<8} {'mask':<12} {'case':<20} {'ms':>8} "
                    f"{'GB/s':>8} {'vs no mask':>11} {'vs hand':>8}"]
    for r in records:
        vs_hand = f"{r['vs_hand']:8.3f}" if r["vs_hand"] is not None else f"{'-':>8}"
        lines.append(f"{r['device']:<9} {r['dtype']:<8} {r['pattern']:<12} {r['case']:<20} "
                     f"{r['ms']:8.3f} {r['gbps']:8.1f} {r['vs_unmasked']:11.3f} {vs_hand}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1 << 26)
    parser.add_argument("--devices", nargs="+", default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    devices = args.devices or [str(wf.current_device())]
    records = []
    for device in devices:
        for dtype in (np.float32, np.float64):
            records += measure(device, args.n, dtype)
    name = wf.get_device(devices[0]).name
    out = Path(args.out) if args.out else results_dir("gpu", name)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"device": name, "date": str(datetime.date.today()), "n": args.n}
    (out / "masked.json").write_text(json.dumps({"meta": meta, "records": records}, indent=1))
    title = (f"masked add, {name}, {meta['date']}, n = {args.n} (in place: dst = lhs + rhs; "
             "GB/s counts three streams)")
    (out / "masked.txt").write_text("\n".join(table(records, title)) + "\n")
    print(f"results: {out / 'masked.txt'}")


if __name__ == "__main__":
    main()
