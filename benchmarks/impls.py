"""The implementations a benchmark compares, each selectable by name: weft on each device
(``weft``, ``weft-opencl``, ``weft-unfused``, ``weft.function``, and ``weft[trait=value]``
with launch traits set, or the CPU dialect's ``own_math``), NumPy, numexpr, CuPy,
``cupy.fuse``, torch, ``torch.compile``, ``jax.jit`` and the hand-written kernels
(``hand-cuda``, ``hand-opencl``).

Each library gets a small namespace (``exp log sin cos sum t transpose_copy tril lgamma
digamma asarray bitmask masked_add``) so that a case is written once (``cases.py``); an
``Impl`` moves data in, prepares a case, synchronizes and brings a result back.

>>> [i.name for i in find(["numpy"])[0]]
['numpy']
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from cases import Case

import weft as wf

# Cases cupy.fuse can express: element-wise work and at most a final full reduction.
_CUPY_FUSABLE = {"copy", "c*(a+b)", "normal_pdf", "normal_lpdf_sum", "chain6", "chain8",
                 "lgamma+digamma", "lgamma", "erfc", "Phi", "erfinv", "x**y", "tanh",
                 "small c*(a+b)", "small normal_lpdf", "small chain10", "mcmc"}


class Namespace:
    """The functions a case may call, for one library."""

    def __init__(self, **fns: Callable) -> None:
        self.__dict__.update(fns)


def numpy_namespace() -> Namespace:
    from scipy import linalg, special

    def masked_add(dst, lhs, rhs, selected):
        np.add(lhs, rhs, out=dst, where=True if selected is None else selected)

    generator = np.random.default_rng(7)
    return Namespace(exp=np.exp, log=np.log, sin=np.sin, cos=np.cos, sqrt=np.sqrt,
                     sum=lambda a, axis=None: np.sum(a, axis=axis),
                     mean=lambda a, axis=None: np.mean(a, axis=axis), t=lambda a: a.T,
                     transpose_copy=lambda a: np.ascontiguousarray(a.T), tril=np.tril,
                     lgamma=special.gammaln, digamma=special.digamma, asarray=np.asarray,
                     erfc=special.erfc, ndtr=special.ndtr, erfinv=special.erfinv, tanh=np.tanh,
                     logaddexp=np.logaddexp, maximum=np.maximum,
                     cholesky=lambda c: np.linalg.cholesky(c),
                     solve_triangular=lambda a, b: linalg.solve_triangular(a, b, lower=True),
                     normal=lambda n: generator.standard_normal(n),
                     bitmask=lambda selected: selected, masked_add=masked_add,
                     cumsum=lambda a, axis=None: np.cumsum(a, axis=axis), argmax=np.argmax,
                     sort=np.sort)


def weft_namespace() -> Namespace:
    seeds = itertools.count(7)  # a new key per call, as a sampler's loop takes one
    return Namespace(exp=wf.exp, log=wf.log, sin=wf.sin, cos=wf.cos, sqrt=wf.sqrt,
                     sum=lambda a, axis=None: wf.sum(a, axis=axis),
                     mean=lambda a, axis=None: wf.mean(a, axis=axis), t=lambda a: a.T,
                     transpose_copy=lambda a: wf.multiply(a.T, 1), tril=wf.tril,
                     lgamma=wf.lgamma, digamma=wf.digamma, asarray=wf.asarray,
                     erfc=wf.erfc, ndtr=wf.Phi, erfinv=wf.erfinv, tanh=wf.tanh,
                     logaddexp=wf.logaddexp, maximum=wf.maximum,
                     cholesky=wf.linalg.cholesky, solve_triangular=wf.linalg.solve_triangular,
                     normal=lambda n: wf.random.normal(wf.random.key(next(seeds)), n),
                     bitmask=wf.bitmask, masked_add=wf.kernels.masked_add,
                     cumsum=lambda a, axis=None: wf.cumsum(a, axis=axis), argmax=wf.argmax,
                     sort=wf.sort)


def cupy_namespace(cp) -> Namespace:
    from cupyx.scipy import special

    return Namespace(exp=cp.exp, log=cp.log, sin=cp.sin, cos=cp.cos,
                     sum=lambda a, axis=None: cp.sum(a, axis=axis), t=lambda a: a.T,
                     transpose_copy=lambda a: cp.ascontiguousarray(a.T), tril=cp.tril,
                     lgamma=special.gammaln, digamma=special.digamma, asarray=cp.asarray,
                     erfc=special.erfc, ndtr=special.ndtr, erfinv=special.erfinv, tanh=cp.tanh,
                     cumsum=lambda a, axis=None: cp.cumsum(a, axis=axis), argmax=cp.argmax,
                     sort=cp.sort)


def torch_namespace(torch) -> Namespace:
    def total(a, axis=None):
        return torch.sum(a) if axis is None else torch.sum(a, dim=axis)
    return Namespace(exp=torch.exp, log=torch.log, sin=torch.sin, cos=torch.cos, sum=total,
                     t=lambda a: a.T, transpose_copy=lambda a: a.T.contiguous(),
                     tril=torch.tril, lgamma=torch.special.gammaln,
                     digamma=torch.special.digamma, erfc=torch.special.erfc,
                     ndtr=torch.special.ndtr, erfinv=torch.special.erfinv, tanh=torch.tanh,
                     logaddexp=lambda a, b: torch.logaddexp(
                         torch.as_tensor(a, dtype=b.dtype, device=b.device), b),
                     cumsum=lambda a, axis=None: torch.cumsum(
                         a.reshape(-1) if axis is None else a, dim=0 if axis is None else axis),
                     argmax=torch.argmax, sort=lambda a: torch.sort(a).values)


def jax_namespace(jnp) -> Namespace:
    from jax.scipy import special

    return Namespace(exp=jnp.exp, log=jnp.log, sin=jnp.sin, cos=jnp.cos,
                     sum=lambda a, axis=None: jnp.sum(a, axis=axis), t=lambda a: a.T,
                     transpose_copy=lambda a: jnp.transpose(a), tril=jnp.tril,
                     lgamma=special.gammaln, digamma=special.digamma, logaddexp=jnp.logaddexp,
                     erfc=special.erfc, ndtr=special.ndtr, erfinv=special.erfinv, tanh=jnp.tanh,
                     cumsum=lambda a, axis=None: jnp.cumsum(a, axis=axis), argmax=jnp.argmax,
                     sort=jnp.sort)


# Implementations ---------------------------------------------------------------------------


class Impl:
    """Moves host data in, prepares a case (None: it cannot express it), synchronizes, and
    brings a result back. ``enter`` and ``leave`` bracket each timed batch (a weft variant
    sets its traits there)."""

    name = ""
    ns: Namespace | None = None

    def inputs(self, host: dict[str, Any]) -> dict[str, Any]:
        """The case's inputs for this implementation: arrays moved (``move``), scalars kept."""
        return {k: self.move(v) if isinstance(v, np.ndarray) else v for k, v in host.items()}

    def move(self, array: np.ndarray) -> Any:
        raise NotImplementedError

    def prepare(self, case: Case) -> Callable[..., Any] | None:
        if self.ns is None or case.grad:  # (no gradients: NumPy, numexpr, CuPy)
            return None
        ns = self.ns
        for name in ("sin", "cos", "lgamma", "digamma", "masked_add", "erfc", "ndtr", "erfinv",
                     "tanh"):
            if name in case.fn.__code__.co_names and not hasattr(ns, name):
                return None
        return _read_back(case, lambda **kw: case.fn(ns, **kw))

    def sync(self) -> None:
        raise NotImplementedError

    def to_host(self, out: Any) -> Any:
        return out if isinstance(out, float) else np.asarray(out)

    def enter(self) -> None:
        pass

    def leave(self) -> None:
        pass


class WeftImpl(Impl):
    """weft on ``device``: ad-hoc lazy expressions evaluated per call, or a traced function
    (``traced``), or one kernel per operation (``fuse=False``), or with some of the device's
    launch traits set (``traits``)."""

    def __init__(self, name: str, device: Any, fuse: bool = True, traced: bool = False,
                 traits: dict[str, Any] | None = None) -> None:
        self.name, self.device, self.fuse, self.traced = name, device, fuse, traced
        self.traits = traits or {}
        self.ns = weft_namespace()
        self.usual = device.traits

    def move(self, array):
        return wf.asarray(array, device=self.device)

    def prepare(self, case):
        ns = self.ns
        compute = case.weft or (lambda **kw: case.fn(ns, **kw))
        if case.grad:
            compute = _weft_value_and_grad(compute, case.grad)
        floats = dict(case.weft_floats)
        if self.traced:
            names: list[str] = []
            traced = wf.function(lambda *args: compute(**dict(zip(names, args))))
            more = tuple(floats.values())

            def run(**kw):
                if not names:
                    names.extend([*kw, *floats])
                return traced(*kw.values(), *more)
        else:
            def run(**kw):
                out = compute(**kw, **floats)
                return wf.eval(*out) if isinstance(out, tuple) else out.eval()
        if self.fuse and self.device is wf.current_device():
            return _read_back(case, run)  # no context manager in the timed call

        def in_context(**kw):
            with wf.device(self.device), wf.config(fuse=self.fuse):
                return run(**kw)
        return _read_back(case, in_context)

    def sync(self):
        with wf.device(self.device):
            wf.synchronize()

    def to_host(self, out):
        return out if isinstance(out, float) else out.to_numpy()

    def enter(self):
        traits = dict(self.traits)
        own_math = traits.pop("own_math", None)
        if own_math is not None:  # a dialect's choice, not a trait: kernels cached by device
            backend = self.device.backend
            chosen = replace(backend.dialect_of(self.device), own_math=frozenset(own_math))
            backend.dialect_of = lambda device: chosen
            wf.clear_cache()
        if traits:
            self.device.traits = replace(self.usual, **traits)

    def leave(self):
        if "own_math" in self.traits:
            vars(self.device.backend).pop("dialect_of", None)
            wf.clear_cache()
        if self.traits:
            self.device.traits = self.usual


class NumpyImpl(Impl):
    name = "numpy"

    def __init__(self) -> None:
        self.ns = numpy_namespace()

    def move(self, array):
        return array.copy()

    def sync(self):
        pass


class NumexprImpl(NumpyImpl):
    name = "numexpr"

    def __init__(self, numexpr: Any) -> None:
        super().__init__()
        self.numexpr = numexpr

    def prepare(self, case):
        if case.numexpr is None:
            return None
        evaluate, expression = self.numexpr.evaluate, case.numexpr
        return lambda **kw: evaluate(expression, local_dict=kw)


class CupyImpl(Impl):
    def __init__(self, cp, fused: bool) -> None:
        self.cp, self.fused = cp, fused
        self.name = "cupy.fuse" if fused else "cupy"
        self.ns = cupy_namespace(cp)

    def move(self, array):
        return self.cp.asarray(array)

    def prepare(self, case):
        if not self.fused:
            return super().prepare(case)
        if case.name not in _CUPY_FUSABLE:
            return None  # cupy.fuse fuses element-wise work and a final reduction only
        cp = self.cp
        ns = Namespace(**{**vars(self.ns), "sum": lambda a, axis=None: cp.sum(a, axis=axis)})
        names: list[str] = []

        def fused(*args):  # a named function: cupy.fuse names its kernel after it
            return case.fn(ns, **dict(zip(names, args)))
        kernel = cp.fuse(fused)

        def run(**kw):
            if not names:
                names.extend(kw)
            return kernel(*kw.values())
        return _read_back(case, run)

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()

    def to_host(self, out):
        return out if isinstance(out, float) else self.cp.asnumpy(out)


class TorchImpl(Impl):
    def __init__(self, torch, compiled: bool) -> None:
        self.torch, self.compiled = torch, compiled
        self.name = "torch.compile" if compiled else "torch"
        self.ns = torch_namespace(torch)

    def move(self, array):
        return self.torch.from_numpy(array).to("cuda")

    def inputs(self, host):
        data = super().inputs(host)
        for name in getattr(self, "grad", ()):  # differentiated: leaf tensors
            value = data[name]
            if not isinstance(value, self.torch.Tensor):
                value = self.torch.tensor(value, dtype=self.torch.float64, device="cuda")
            data[name] = value.requires_grad_(True)
        return data

    def prepare(self, case):
        ns, torch = self.ns, self.torch
        self.grad = case.grad

        def run(**kw):
            return case.fn(ns, **kw)
        if self.compiled:
            # Static shapes, as a program with one problem size compiles: with the default
            # (dynamic=None) dynamo recompiled a second shape of one function for symbolic
            # shapes, which ran 35x slower (docs/tuning-notes.md).
            torch._dynamo.reset()
            run = torch.compile(run, dynamic=False)
        if case.grad:
            forward = run

            def run(**kw):  # (compiled: AOTAutograd compiled the backward graph too)
                value = forward(**kw)
                return (value, *torch.autograd.grad(value, [kw[n] for n in case.grad]))
        return _read_back(case, run)

    def sync(self):
        self.torch.cuda.synchronize()

    def to_host(self, out):
        return out if isinstance(out, float) else out.detach().cpu().numpy()


class JaxImpl(Impl):
    name = "jax.jit"

    def __init__(self, jax) -> None:
        self.jax = jax
        self.ns = jax_namespace(jax.numpy)
        self.last: Any = None

    def move(self, array):
        return self.jax.device_put(array)

    def prepare(self, case):
        ns, jax = self.ns, self.jax
        jitted: dict[tuple, Any] = {}

        def run(**kw):
            statics = tuple(k for k, v in kw.items() if isinstance(v, float)
                            and k not in case.grad)
            f = jitted.get(statics)
            if f is None:
                f = jitted[statics] = jax.jit(_jax_value_and_grad(jax, ns, case)
                                              if case.grad else lambda **a: case.fn(ns, **a),
                                              static_argnames=statics)
            self.last = f(**kw)
            return self.last
        return _read_back(case, run)

    def sync(self):
        if self.last is not None:
            self.jax.block_until_ready(self.last)

    def to_host(self, out):
        return out if isinstance(out, float) else np.asarray(out)


def _weft_value_and_grad(compute: Callable[..., Any], names: tuple[str, ...]
                         ) -> Callable[..., Any]:
    """``compute(**inputs)`` as (value, *gradients with respect to ``names``)."""
    def run(**kw):
        def f(*chosen):
            return compute(**{**kw, **dict(zip(names, chosen))})
        value, grads = wf.value_and_grad(f, argnums=tuple(range(len(names))))(
            *[kw[n] for n in names])
        return (value, *grads)
    return run


def _jax_value_and_grad(jax, ns: Namespace, case: Case) -> Callable[..., Any]:
    """``jax.value_and_grad`` of the case with respect to its ``grad`` inputs, by name."""
    names = case.grad

    def run(**kw):
        def f(*chosen):
            return case.fn(ns, **{**kw, **dict(zip(names, chosen))})
        value, grads = jax.value_and_grad(f, argnums=tuple(range(len(names))))(
            *[kw[n] for n in names])
        return (value, *grads)
    return run


class _Hand(Impl):
    """A hand-written kernel set (``handwritten.py``): a case that names one of its kernels
    (``Case.hand``) runs it, with its arguments bound at the first call."""

    kernels: Any = None

    def prepare(self, case):
        make = getattr(self.kernels, case.hand or "", None)
        return None if make is None else _bound_once(make)


class HandCuda(_Hand):
    """The hand-written CUDA kernels, on CuPy arrays."""

    name = "hand-cuda"

    def __init__(self, cp) -> None:
        from handwritten import CudaKernels

        self.cp = cp
        self.kernels = CudaKernels(cp)
        self.ns = Namespace(bitmask=lambda selected: cp.asarray(
            wf.bitmask(cp.asnumpy(selected)).words.to_numpy()))

    def move(self, array):
        return self.cp.asarray(array)

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()

    def to_host(self, out):
        return self.cp.asnumpy(out)


class HandOpenCL(_Hand):
    """The hand-written OpenCL kernels, in weft's context for ``device``."""

    name = "hand-opencl"

    def __init__(self, device: Any) -> None:
        from handwritten import OpenCLKernels

        self.kernels = OpenCLKernels(device)

    def move(self, array):
        return array

    def sync(self):
        self.kernels.sync()

    def to_host(self, out):
        return out.value() if hasattr(out, "value") else out


def _read_back(case: Case, run: Callable[..., Any]) -> Callable[..., Any]:
    """``run``, reading its 0-d result as a float where the case does (an MCMC loop)."""
    return (lambda **kw: float(run(**kw))) if case.read_back else run


def _bound_once(make: Callable[..., Callable[[], Any]]) -> Callable[..., Any]:
    """A hand kernel binds its arguments once (its launch closure), then runs per call."""
    bound: list[Callable[[], Any]] = []

    def run(**kw):
        if not bound:
            bound.append(make(**kw))
        return bound[0]()
    return run


# Finding them --------------------------------------------------------------------------


def _weft_variant(spec: str, device: Any) -> WeftImpl:
    """``weft[trait=value,...]``: weft with some of the device's launch traits set."""
    inside = spec[spec.index("[") + 1:spec.rindex("]")]
    traits = {}
    for part in inside.split(","):
        key, value = part.split("=", 1)
        traits[key.strip()] = ast.literal_eval(value.strip())
    return WeftImpl(spec, device, traits=traits)


def find(wanted: list[str]) -> tuple[list[Impl], dict[str, str]]:
    """The implementations among ``wanted`` that can run here, in that order, and why the
    others cannot."""
    found: list[Impl] = []
    missing: dict[str, str] = {}
    devices = wf.devices()
    cuda = [d for d in devices if d.kind == "cuda"]
    gpu_opencl = [d for d in devices if d.kind == "opencl" and not d.handle.is_cpu]
    main = cuda[0] if cuda else wf.current_device()
    modules: dict[str, Any] = {}

    def module(name: str) -> Any:
        if name not in modules:
            try:
                modules[name] = __import__(name)
            except ImportError as e:
                modules[name] = e
        return modules[name]

    for name in wanted:
        try:
            impl = _make(name, main, cuda, gpu_opencl, module)
        except Exception as e:  # noqa: BLE001 - a peer that cannot start is reported
            impl = f"{type(e).__name__}: {e}"
        if isinstance(impl, str):
            missing[name] = impl
        else:
            found.append(impl)
    return found, missing


def _make(name: str, main: Any, cuda: list, gpu_opencl: list, module: Callable) -> Any:
    if name == "weft":
        return WeftImpl("weft", main)
    if name == "weft-unfused":
        return WeftImpl(name, main, fuse=False)
    if name == "weft.function":
        return WeftImpl(name, main, traced=True)
    if name.startswith("weft["):
        return _weft_variant(name, main)
    if name == "weft-opencl":
        return WeftImpl(name, gpu_opencl[0]) if gpu_opencl else "no OpenCL GPU device"
    if name == "numpy":
        return NumpyImpl()
    if name == "numexpr":
        numexpr = module("numexpr")
        return str(numexpr) if isinstance(numexpr, Exception) else NumexprImpl(numexpr)
    if name == "numba":
        numba = module("numba")
        if isinstance(numba, Exception):
            return str(numba)
        from numba_impl import NumbaImpl

        return NumbaImpl(numba)
    if name == "hand-opencl":
        device = gpu_opencl[0] if gpu_opencl else (main if main.kind == "opencl" else None)
        return HandOpenCL(device) if device is not None else "no OpenCL device"
    if name in ("cupy", "cupy.fuse", "hand-cuda"):
        cp = module("cupy")
        if isinstance(cp, Exception) or not cuda:
            return f"no CUDA device through CuPy ({cp})"
        return HandCuda(cp) if name == "hand-cuda" else CupyImpl(cp, name == "cupy.fuse")
    if name in ("torch", "torch.compile"):
        torch = module("torch")
        if isinstance(torch, Exception) or not torch.cuda.is_available():
            return f"torch without a GPU ({torch})"
        return TorchImpl(torch, name == "torch.compile")
    if name == "jax.jit":
        jax = module("jax")
        if isinstance(jax, Exception):
            return str(jax)
        jax.config.update("jax_enable_x64", True)
        gpu_run = cuda or bool(gpu_opencl)
        if gpu_run and jax.default_backend() != "gpu":
            return "JAX sees no GPU"
        return JaxImpl(jax)  # on the host where weft runs on its CPU device
    return f"unknown implementation {name!r}"
