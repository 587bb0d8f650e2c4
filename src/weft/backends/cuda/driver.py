"""NVRTC and the CUDA driver through NVIDIA's public Python bindings (``cuda-bindings``):
compiling a kernel's source to a cubin, loading it, asking how many of its blocks an SM
holds, and launching it. CuPy keeps memory, streams and events (its documented API).

Every call returns a result code first; ``_check`` turns a failure into an exception that
names the call and the driver's own name for the error.
"""

from __future__ import annotations

from typing import Any


def _bindings() -> tuple[Any, Any]:
    from cuda.bindings import driver, nvrtc

    return driver, nvrtc


def _check(result: tuple, call: str) -> tuple:
    """``result`` without its leading status; raises where the status is not success."""
    status = result[0]
    if status:
        raise RuntimeError(f"{call} failed: {_error_name(status)}")
    return result[1:]


def _error_name(status: Any) -> str:
    driver, nvrtc = _bindings()
    if isinstance(status, nvrtc.nvrtcResult):
        name = nvrtc.nvrtcGetErrorString(status)[1]
    else:
        name = driver.cuGetErrorName(status)[1]
    return name.decode() if isinstance(name, bytes) else str(name)


def nvrtc_version() -> tuple[int, int]:
    """NVRTC's (major, minor) version; raises where the library cannot be loaded.

    >>> nvrtc_version()  # doctest: +SKIP
    (13, 0)
    """
    _, nvrtc = _bindings()
    major, minor = _check(nvrtc.nvrtcVersion(), "nvrtcVersion")
    return int(major), int(minor)


def supported_architectures() -> list[int]:
    """The ``sm_XX`` numbers this NVRTC compiles for."""
    _, nvrtc = _bindings()
    (archs,) = _check(nvrtc.nvrtcGetSupportedArchs(), "nvrtcGetSupportedArchs")
    return [int(a) for a in archs]


def compile_cubin(source: str, name: str, options: list[str]) -> bytes:
    """``source`` compiled by NVRTC with ``options`` to a cubin; a failed compile raises
    RuntimeError with NVRTC's log."""
    _, nvrtc = _bindings()
    (program,) = _check(nvrtc.nvrtcCreateProgram(source.encode(), f"{name}.cu".encode(), 0,
                                                 [], []), "nvrtcCreateProgram")
    try:
        encoded = [o.encode() for o in options]
        (status,) = nvrtc.nvrtcCompileProgram(program, len(encoded), encoded)
        if status:
            (size,) = _check(nvrtc.nvrtcGetProgramLogSize(program), "nvrtcGetProgramLogSize")
            log = b" " * size
            _check(nvrtc.nvrtcGetProgramLog(program, log), "nvrtcGetProgramLog")
            raise RuntimeError(f"NVRTC could not compile {name}: {_error_name(status)}\n"
                               f"{log.rstrip(b' ').decode(errors='replace')}")
        (size,) = _check(nvrtc.nvrtcGetCUBINSize(program), "nvrtcGetCUBINSize")
        cubin = b" " * size
        _check(nvrtc.nvrtcGetCUBIN(program, cubin), "nvrtcGetCUBIN")
        return cubin
    finally:
        nvrtc.nvrtcDestroyProgram(program)


class Function:
    """One kernel of a loaded module: ``handle`` for the bindings, ``ptr`` its address. It
    keeps its module loaded."""

    __slots__ = ("module", "handle", "ptr")

    def __init__(self, module: Module, handle: Any) -> None:
        self.module = module
        self.handle = handle
        self.ptr = int(handle)

    def resident_blocks(self, block: int, shared_bytes: int = 0) -> int:
        """Blocks of ``block`` threads one SM holds at once (the occupancy calculator)."""
        driver, _ = _bindings()
        (count,) = _check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            self.handle, block, shared_bytes), "cuOccupancyMaxActiveBlocksPerMultiprocessor")
        return int(count)


class Module:
    """A cubin loaded into the current context (unloaded when dropped)."""

    __slots__ = ("handle", "__weakref__")

    def __init__(self, cubin: bytes) -> None:
        driver, _ = _bindings()
        self.handle = None
        (self.handle,) = _check(driver.cuModuleLoadData(cubin), "cuModuleLoadData")

    def function(self, name: str) -> Function:
        driver, _ = _bindings()
        (handle,) = _check(driver.cuModuleGetFunction(self.handle, name.encode()),
                           f"cuModuleGetFunction({name})")
        return Function(self, handle)

    def __del__(self) -> None:
        handle = self.handle
        if handle is None:
            return
        try:
            from cuda.bindings import driver

            driver.cuModuleUnload(handle)
        except Exception:  # noqa: BLE001, S110 - the driver may be gone at interpreter exit
            pass


def launcher() -> Any:
    """``cuLaunchKernel`` of the bindings: ``(function, gx, gy, gz, bx, by, bz, shared
    bytes, stream address, address of the parameter array, 0)``, returning a 1-tuple of
    the status (``launch_failed`` raises for it)."""
    driver, _ = _bindings()
    return driver.cuLaunchKernel


def stream_handle(address: int) -> Any:
    """The bindings' handle of the CUDA stream at ``address`` (a CuPy stream's ``ptr``)."""
    driver, _ = _bindings()
    return driver.CUstream(address)


def record_event(event: int, stream: int) -> None:
    """Record the CUDA event at address ``event`` (a CuPy event's ``ptr``) on the stream at
    address ``stream``: a stream another library reports as a bare address."""
    driver, _ = _bindings()
    _check(driver.cuEventRecord(driver.CUevent(event), driver.CUstream(stream)),
           "cuEventRecord")


def launch(function: Function, grid: int, block: int, stream: int, params: int,
           kernel: str) -> None:
    """``function`` on ``grid`` blocks of ``block`` threads on the stream at address
    ``stream``; ``params``: the address of its parameter array."""
    driver, _ = _bindings()
    status = driver.cuLaunchKernel(function.handle, grid, 1, 1, block, 1, 1, 0,
                                   driver.CUstream(stream), params, 0)[0]
    if status:
        launch_failed(status, kernel)


def launch_failed(status: Any, kernel: str) -> None:
    """Raise for a launch's nonzero ``status``."""
    raise RuntimeError(f"cuLaunchKernel({kernel}) failed: {_error_name(status)}")


class Graph:
    """Kernels run one after another as one CUDA graph, instantiated once: a launch of it
    costs one driver call however many kernels it holds, and a node keeps the parameters
    last copied into it (``cuGraphExecKernelNodeSetParams``, from ``graph_calls``)."""

    __slots__ = ("graph", "exec", "nodes", "node_params", "__weakref__")

    def __init__(self, launches: list[tuple[Function | Any, int, int, int]]) -> None:
        """``launches``: per kernel in order, its function handle, grid and block sizes and
        the address of its parameter array (read now: the nodes' first parameters)."""
        driver, _ = _bindings()
        self.graph = self.exec = None
        (self.graph,) = _check(driver.cuGraphCreate(0), "cuGraphCreate")
        self.nodes: list[Any] = []
        self.node_params: list[Any] = []
        for function, grid, block, params in launches:
            p = driver.CUDA_KERNEL_NODE_PARAMS()
            p.func = function
            p.gridDimX, p.gridDimY, p.gridDimZ = grid, 1, 1
            p.blockDimX, p.blockDimY, p.blockDimZ = block, 1, 1
            p.sharedMemBytes = 0
            p.kernelParams = params
            after = self.nodes[-1:]
            (node,) = _check(driver.cuGraphAddKernelNode(self.graph, after, len(after), p),
                             "cuGraphAddKernelNode")
            self.nodes.append(node)
            self.node_params.append(p)
        (self.exec,) = _check(driver.cuGraphInstantiate(self.graph, 0), "cuGraphInstantiate")

    def __del__(self) -> None:
        try:
            from cuda.bindings import driver

            if self.exec is not None:
                driver.cuGraphExecDestroy(self.exec)
            if self.graph is not None:
                driver.cuGraphDestroy(self.graph)
        except Exception:  # noqa: BLE001, S110 - the driver may be gone at interpreter exit
            pass


def graph_calls() -> tuple[Any, Any]:
    """The bindings' ``cuGraphExecKernelNodeSetParams`` (``(exec, node, params)``) and
    ``cuGraphLaunch`` (``(exec, stream handle)``), each returning a 1-tuple of the status."""
    driver, _ = _bindings()
    return driver.cuGraphExecKernelNodeSetParams, driver.cuGraphLaunch


def graph_failed(status: Any, call: str) -> None:
    """Raise for a graph call's nonzero ``status``."""
    raise RuntimeError(f"{call} failed: {_error_name(status)}")
