"""The implementations the GPU benchmark compares: weft on each device, and every peer
(CuPy, ``cupy.fuse``, torch, ``torch.compile``, ``jax.jit``) that is installed.

Each library gets a small namespace (``exp log sum t transpose_copy tril lgamma digamma``) so
that a case is written once (gpu.py) and runs on all of them; an ``Impl`` moves data in, runs a
case, synchronizes and brings a result back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import weft as wf

# Cases cupy.fuse can express: element-wise work and at most a final full reduction.
ELEMENTWISE_FUSABLE = {"c*(a+b)", "normal_pdf", "normal_lpdf_sum", "chain8",
                      "lgamma+digamma", "normal_lpdf", "chain10", "mcmc"}


class Namespace:
    """exp, log, sum(a, axis), t (transpose view), transpose_copy, tril, lgamma, digamma for
    one library (the special functions from its SciPy-like module)."""

    def __init__(self, **fns: Callable) -> None:
        self.__dict__.update(fns)


def numpy_namespace() -> Namespace:
    from scipy import special

    return Namespace(exp=np.exp, log=np.log, sum=lambda a, axis=None: np.sum(a, axis=axis),
                     t=lambda a: a.T, transpose_copy=lambda a: np.ascontiguousarray(a.T),
                     tril=np.tril, lgamma=special.gammaln, digamma=special.digamma)


def weft_namespace() -> Namespace:
    return Namespace(exp=wf.exp, log=wf.log, sum=lambda a, axis=None: wf.sum(a, axis=axis),
                     t=lambda a: a.T, transpose_copy=lambda a: wf.multiply(a.T, 1),
                     tril=wf.tril, lgamma=wf.lgamma, digamma=wf.digamma)


def cupy_namespace(cp) -> Namespace:
    from cupyx.scipy import special

    return Namespace(exp=cp.exp, log=cp.log, sum=lambda a, axis=None: cp.sum(a, axis=axis),
                     t=lambda a: a.T, transpose_copy=lambda a: cp.ascontiguousarray(a.T),
                     tril=cp.tril, lgamma=special.gammaln, digamma=special.digamma)


def torch_namespace(torch) -> Namespace:
    def total(a, axis=None):
        return torch.sum(a) if axis is None else torch.sum(a, dim=axis)
    return Namespace(exp=torch.exp, log=torch.log, sum=total, t=lambda a: a.T,
                     transpose_copy=lambda a: a.T.contiguous(), tril=torch.tril,
                     lgamma=torch.special.gammaln, digamma=torch.special.digamma)


def jax_namespace(jnp) -> Namespace:
    from jax.scipy import special

    return Namespace(exp=jnp.exp, log=jnp.log, sum=lambda a, axis=None: jnp.sum(a, axis=axis),
                     t=lambda a: a.T, transpose_copy=lambda a: jnp.transpose(a),
                     tril=jnp.tril, lgamma=special.gammaln, digamma=special.digamma)


# Implementations ---------------------------------------------------------------------------


class Impl:
    """Moves host data in, runs a case, synchronizes, and brings a result back."""

    name = ""

    def inputs(self, host: dict[str, np.ndarray]) -> dict[str, Any]:
        raise NotImplementedError

    def prepare(self, fn: Callable, case: str) -> Callable[..., Any]:
        raise NotImplementedError

    def sync(self) -> None:
        raise NotImplementedError

    def to_host(self, out: Any) -> np.ndarray:
        raise NotImplementedError


class WeftImpl(Impl):
    def __init__(self, name: str, device: Any, fuse: bool = True) -> None:
        self.name, self.device, self.fuse = name, device, fuse
        self.ns = weft_namespace()

    def inputs(self, host):
        return {k: wf.asarray(v, device=self.device) for k, v in host.items()}

    def prepare(self, fn, case):
        ns, fuse, device = self.ns, self.fuse, self.device
        if fuse and device is wf.current_device():
            return lambda **kw: fn(ns, **kw).eval()  # no context managers in the timed call

        def run(**kw):
            with wf.device(device), wf.config(fuse=fuse):
                return fn(ns, **kw).eval()
        return run

    def sync(self):
        with wf.device(self.device):
            wf.synchronize()

    def to_host(self, out):
        return out.to_numpy()


class CupyImpl(Impl):
    def __init__(self, cp, fused: bool) -> None:
        self.cp, self.fused = cp, fused
        self.name = "cupy.fuse" if fused else "cupy"
        self.ns = cupy_namespace(cp)

    def inputs(self, host):
        return {k: self.cp.asarray(v) for k, v in host.items()}

    def prepare(self, fn, case):
        if self.fused and case not in ELEMENTWISE_FUSABLE:
            return None  # cupy.fuse fuses element-wise work and a final reduction only
        ns = self.ns
        if not self.fused:
            return lambda **kw: fn(ns, **kw)
        cp = self.cp
        fused_ns = Namespace(exp=cp.exp, log=cp.log,
                             sum=lambda a, axis=None: cp.sum(a, axis=axis),
                             lgamma=ns.lgamma, digamma=ns.digamma)
        names = None

        def body(*args):
            return fn(fused_ns, **dict(zip(names, args)))
        kernel = cp.fuse(body)

        def run(**kw):
            nonlocal names
            names = list(kw)
            return kernel(*kw.values())
        return run

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()

    def to_host(self, out):
        return self.cp.asnumpy(out)


class TorchImpl(Impl):
    def __init__(self, torch, compiled: bool) -> None:
        self.torch, self.compiled = torch, compiled
        self.name = "torch.compile" if compiled else "torch"
        self.ns = torch_namespace(torch)

    def inputs(self, host):
        return {k: self.torch.from_numpy(v).to("cuda") for k, v in host.items()}

    def prepare(self, fn, case):
        ns = self.ns

        def run(**kw):
            return fn(ns, **kw)
        if self.compiled:
            self.torch._dynamo.reset()
            return self.torch.compile(run)
        return run

    def sync(self):
        self.torch.cuda.synchronize()

    def to_host(self, out):
        return out.cpu().numpy()


class JaxImpl(Impl):
    name = "jax.jit"

    def __init__(self, jax) -> None:
        self.jax = jax
        self.ns = jax_namespace(jax.numpy)
        self.last: Any = None

    def inputs(self, host):
        return {k: self.jax.device_put(v) for k, v in host.items()}

    def prepare(self, fn, case):
        ns = self.ns
        jitted = self.jax.jit(lambda **kw: fn(ns, **kw))

        def run(**kw):
            self.last = jitted(**kw)
            return self.last
        return run

    def sync(self):
        if self.last is not None:
            self.last.block_until_ready()

    def to_host(self, out):
        return np.asarray(out)


def find_impls(wanted: set[str] | None, small: bool) -> tuple[list[Impl], dict[str, str]]:
    """Every implementation that can run here, and why the others cannot."""
    impls: list[Impl] = []
    missing: dict[str, str] = {}
    cuda = [d for d in wf.devices() if d.kind == "cuda"]
    opencl_gpu = [d for d in wf.devices()
                  if d.kind == "opencl" and (small or not getattr(d.handle, "is_cpu", True))]
    if cuda:
        wf.set_device(cuda[0])
        impls += [WeftImpl("weft", cuda[0]), WeftImpl("weft-unfused", cuda[0], fuse=False)]
    else:
        missing["weft"] = "no CUDA device (CuPy missing or no GPU)"
    if opencl_gpu:
        impls.append(WeftImpl("weft-opencl", opencl_gpu[0]))
    else:
        missing["weft-opencl"] = "no OpenCL GPU device"
    try:
        import cupy

        impls += [CupyImpl(cupy, False), CupyImpl(cupy, True)]
    except ImportError as e:
        missing["cupy"] = missing["cupy.fuse"] = str(e)
    try:
        import torch

        if torch.cuda.is_available():
            impls += [TorchImpl(torch, False), TorchImpl(torch, True)]
        else:
            missing["torch"] = missing["torch.compile"] = "torch sees no GPU"
    except ImportError as e:
        missing["torch"] = missing["torch.compile"] = str(e)
    try:
        import jax

        jax.config.update("jax_enable_x64", True)
        if any(d.platform == "gpu" for d in jax.devices()):
            impls.append(JaxImpl(jax))
        else:
            missing["jax.jit"] = "JAX sees no GPU"
    except ImportError as e:
        missing["jax.jit"] = str(e)
    if wanted:
        impls = [i for i in impls if i.name in wanted]
    return impls, missing
