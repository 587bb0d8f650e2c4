"""The benchmark suites, as data: which cases, which implementations, at which sizes, timed
how, reported how, and the file they write under ``results/<device>/``.

A machine is ``gpu`` (a CUDA or OpenCL GPU is present), ``cpu`` (PoCL alone) or ``small``
(``--small``: tiny sizes that check the harness, not the speed). Sizes are element counts
per dtype; a case of matrices takes a square of about that many elements.

>>> SUITES["latest"].method
'batches'
"""

from __future__ import annotations

from dataclasses import dataclass, field

_VECTORS = ("c*(a+b)", "normal_pdf", "normal_lpdf_sum", "chain6", "chain8", "lgamma+digamma")
_MATRICES = ("colwise_sum", "rowwise_sum", "transpose", "exp(A.T)+A", "tril_sum")
_GPU_PEERS = ("cupy", "cupy.fuse", "torch", "torch.compile", "jax.jit")


def _sizes(gpu: dict[str, int], cpu: dict[str, int], small: int = 1 << 14
           ) -> dict[str, dict[str, tuple[int, ...]]]:
    return {"gpu": {d: (n,) for d, n in gpu.items()},
            "cpu": {d: (n,) for d, n in cpu.items()},
            "small": {d: (small,) for d in gpu}}


@dataclass(frozen=True)
class Suite:
    name: str
    about: str
    cases: tuple[str, ...]
    impls: dict[str, tuple[str, ...]]  # by machine: the implementations it compares
    sizes: dict[str, dict[str, tuple[int, ...]]]  # machine -> dtype -> element counts
    method: str = "batches"  # batches | rounds (interleaved) | compile | dask
    repeat: int = 10  # batches per implementation, or rounds
    batch: int = 10  # calls per batch
    table: str = "throughput"  # throughput | rounds | chains | overhead | compile | dask
    plot: str | None = None  # bars | chains | dask
    output: str = ""  # file stem; the suite's name if empty
    case_sizes: dict[str, dict[str, int]] = field(default_factory=dict)  # case -> machine -> n
    case_dtypes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # else every dtype

    @property
    def stem(self) -> str:
        return self.output or self.name


SUITES: dict[str, Suite] = {s.name: s for s in [
    Suite("latest", "element-wise and reduction cases at memory-bound sizes, weft against "
          "every installed peer; GB/s counts the fewest bytes a case must move",
          ("copy", *_VECTORS, *_MATRICES),
          {"gpu": ("weft", "weft-opencl", "weft-unfused", *_GPU_PEERS),
           "cpu": ("weft", "weft-unfused", "numpy", "numexpr", "numba"),
           "small": ("weft", "weft-unfused", "numpy", "numexpr")},
          _sizes({"float32": 1 << 27, "float64": 1 << 26}, {"float32": 1 << 24,
                                                             "float64": 1 << 24}),
          plot="bars"),
    Suite("special", "one special function, x ** y or tanh per case (float64): weft's own "
          "call-free versions on a CPU device against SciPy and NumPy",
          ("lgamma", "erfc", "Phi", "erfinv", "x**y", "tanh"),
          {"gpu": ("weft", "weft-opencl", *_GPU_PEERS),
           "cpu": ("weft", "numpy", "numexpr", "numba"),
           "small": ("weft", "numpy", "numexpr")},
          _sizes({"float64": 1 << 26}, {"float64": 1 << 22})),
    Suite("chains", "a chain of k = 1..10 element-wise operations, fused (one kernel) "
          "against wf.config(fuse=False) (one kernel per operation), float32",
          tuple(f"{form} chain {k}" for form in ("scalar", "array") for k in range(1, 11)),
          {"gpu": ("weft", "weft-unfused"), "cpu": ("weft", "weft-unfused"),
           "small": ("weft", "weft-unfused")},
          _sizes({"float32": 1 << 26}, {"float32": 1 << 22}), table="chains",
          plot="chains", output="paper-chains"),
    Suite("glm", "the value of wf.stats.normal_id_glm_lpdf and normal_lpdf (float64) against "
          "the hand-written kernels and the peers, interleaved in rounds",
          ("glm wide", "glm narrow", "normal_lpdf"),
          {"gpu": ("weft", "weft-opencl", "hand-cuda", "hand-opencl", "cupy", "torch",
                   "torch.compile", "jax.jit"),
           "cpu": ("weft", "hand-opencl", "numpy"), "small": ("weft", "hand-opencl", "numpy")},
          _sizes({"float64": 1 << 26}, {"float64": 1 << 24}, 1 << 16),
          method="rounds", repeat=30, table="rounds", output="paper-glm",
          case_sizes={"glm wide": {"gpu": 500_000_000, "cpu": 50_000_000, "small": 600_000},
                      "glm narrow": {"gpu": 20_000_000, "cpu": 20_000_000,
                                     "small": 200_000}}),
    Suite("masked", "an in-place add under a bit mask or a bool mask, for three mask "
          "patterns, against the add unmasked and the hand-written CUDA kernel",
          ("add, no mask", *(f"add, {m} mask, {p}" for m in ("bit", "bool")
                             for p in ("all set", "runs of 256", "random 50%"))),
          {"gpu": ("weft", "weft-opencl", "hand-cuda"), "cpu": ("weft", "numpy"),
           "small": ("weft", "numpy")},
          _sizes({"float32": 1 << 26, "float64": 1 << 26}, {"float32": 1 << 24,
                                                             "float64": 1 << 24}),
          repeat=9),
    Suite("overhead", "time per call, Python included, of small cached calls (1000 elements) "
          "where the host path decides the speed; interleaved rounds of 1000 calls",
          ("small c*(a+b)", "small normal_lpdf", "small chain10", "mcmc"),
          {"gpu": ("weft", "weft.function", *_GPU_PEERS),
           "cpu": ("weft", "weft.function", "numpy"),
           "small": ("weft", "weft.function", "numpy")},
          {m: {"float32": (1000,), "float64": (1000,)} for m in ("gpu", "cpu", "small")},
          method="rounds", repeat=7, batch=1000, table="overhead",
          case_dtypes={"small c*(a+b)": ("float32",), "small normal_lpdf": ("float64",),
                       "small chain10": ("float32",), "mcmc": ("float64",)}),
    Suite("programs", "issue 36's realistic programs as a new user writes them: a logistic "
          "regression's log likelihood (10^6 x 10, by wf.stats and by hand), standardize + "
          "correlation + Cholesky + solve (20000 x 200), a Monte Carlo option price "
          "(10^7 paths); float64",
          ("logistic glm", "logistic by hand", "standardize+cov+cholesky+solve",
           "option price"),
          {"gpu": ("weft", "weft-opencl", "cupy", "torch", "torch.compile", "jax.jit"),
           "cpu": ("weft", "numpy", "jax.jit"), "small": ("weft", "numpy")},
          _sizes({"float64": 10_000_000}, {"float64": 10_000_000}, 40_000),
          repeat=5, batch=1, table="throughput",
          case_sizes={"standardize+cov+cholesky+solve": {"gpu": 4_000_000, "cpu": 4_000_000,
                                                         "small": 80_000}}),
    Suite("grad", "issue 37: a value and its gradient from one call (float64): the GLMs' "
          "with respect to alpha, beta (and sigma) at 100000 x 5000 and 10^7 x 2, and "
          "normal_lpdf's with respect to mu and sigma at 2^26, against autodiff peers in "
          "interleaved rounds",
          ("glm value+grad wide", "glm value+grad narrow", "logistic value+grad wide",
           "logistic value+grad narrow", "normal_lpdf value+grad"),
          {"gpu": ("weft", "weft.function", "torch", "torch.compile", "jax.jit"),
           "cpu": ("weft", "weft.function", "jax.jit"), "small": ("weft", "weft.function")},
          _sizes({"float64": 1 << 26}, {"float64": 1 << 22}, 1 << 14),
          method="rounds", repeat=10, batch=1, table="rounds",
          case_sizes={case: {"gpu": n, "cpu": n // 20, "small": 60_000}
                      for case, n in (("glm value+grad wide", 500_000_000),
                                      ("logistic value+grad wide", 500_000_000),
                                      ("glm value+grad narrow", 20_000_000),
                                      ("logistic value+grad narrow", 20_000_000))}),
    Suite("ops", "issue 38's scans, arg-reductions and sorts (cumsum of a vector and of "
          "each row, argmax, sort) against the libraries' own; interleaved rounds",
          ("cumsum", "cumsum rows", "cumsum columns", "argmax", "argmax rows",
           "argmax columns", "sort"),
          {"gpu": ("weft", "weft-opencl", "cupy", "torch", "jax.jit"),
           "cpu": ("weft", "numpy", "jax.jit"), "small": ("weft", "numpy")},
          _sizes({"float32": 1 << 26, "float64": 1 << 25}, {"float32": 1 << 22,
                                                             "float64": 1 << 22}),
          method="rounds", repeat=7, batch=1, table="rounds"),
    Suite("compile", "a new kernel's time to its first result in a fresh process with empty "
          "caches, then in another fresh process with the disk caches kept",
          ("first_compile", "disk_cache_load"),
          {"gpu": ("weft", "weft-opencl", "cupy.fuse", "torch.compile", "jax.jit"),
           "cpu": ("weft",), "small": ("weft",)},
          {}, method="compile", table="compile"),
    Suite("ab", "a launch choice on and off: pass two weft variants, e.g. --impls "
          "'weft[walks_elements=True]' 'weft[walks_elements=False]' (a trait of "
          "target.Traits, or own_math as a tuple of names); interleaved rounds",
          ("c*(a+b)", "normal_pdf", "chain6"), {m: ("weft",) for m in ("gpu", "cpu", "small")},
          _sizes({"float32": 1 << 24, "float64": 1 << 24}, {"float32": 1 << 24,
                                                             "float64": 1 << 24}),
          method="rounds", repeat=5, batch=1, table="rounds"),
    Suite("tune", "elements per thread of the element-wise kernels on a GPU (the measurements "
          "behind the CUDA and OpenCL traits)", ("copy", "c*(a+b)", "normal_pdf", "chain8",
                                                  "transpose", "exp(A.T)+A"),
          {"gpu": tuple(f"weft[per_thread={k},per_thread_from=0]" for k in (1, 2, 4, 8))},
          _sizes({"float32": 1 << 27, "float64": 1 << 26}, {}), table="throughput"),
    Suite("dask", "sum(exp(x) * 2 + x * x) over float32 x persisted on Dask workers, one per "
          "GPU: strong and weak scaling, and the cost per task against chunk size",
          (), {"gpu": ("weft",)}, {}, method="dask", repeat=5, table="dask", plot="dask"),
]}

# Several suites run as one (the fusion paper's evaluation).
GROUPS: dict[str, tuple[str, ...]] = {"paper": ("chains", "glm")}
