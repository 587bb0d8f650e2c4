"""Why weft's failure flag reaches PoCL kernels as a buffer: PyOpenCL's ``set_args`` with a
fine-grained SVM argument among buffers, against the same memory wrapped as a buffer
(``USE_HOST_PTR`` over the SVM allocation, which OpenCL 2.0 allows), µs per call.

    python benchmarks/svm_arguments.py
"""

from __future__ import annotations

import struct
import time

import numpy as np
import pyopencl as cl

import weft as wf


def per_call(fn, calls: int = 20000) -> float:
    for _ in range(1000):
        fn()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    device = wf.current_device()
    if device.kind != "opencl" or not device.handle.fine_grained_svm:
        raise SystemExit(f"{device} has no fine-grained SVM buffers")
    context = device.handle.context
    program = cl.Program(context, """
        typedef struct { double s; int n; } A;
        __kernel void f(__global double* a, __global int* b, __global double* c,
                        __global int* flag, A s) { a[0] = s.s; }""").build()
    kernel = program.f
    kernel.set_scalar_arg_dtypes(
        [None, None, None, None, np.dtype([("s", np.float64), ("n", np.int32), ("p", "V4")])])
    flags = cl.mem_flags.READ_WRITE
    a, b, c = (cl.Buffer(context, flags, 64) for _ in range(3))
    host = cl.svm_empty(context, cl.svm_mem_flags.READ_WRITE
                        | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER, (1,), np.int32)
    as_svm = cl.SVM(host)
    as_buffer = cl.Buffer(context, flags | cl.mem_flags.USE_HOST_PTR, hostbuf=host)
    packed = struct.pack("di4x", 1.0, 3)
    print(f"{device} ({device.name}): set_args of 4 pointers and a struct, µs per call")
    for name, flag in (("SVM argument", as_svm), ("buffer over the SVM memory", as_buffer),
                       ("plain buffer", b)):
        print(f"  {name:28s} {per_call(lambda f=flag: kernel.set_args(a, b, c, f, packed)):6.2f}")


if __name__ == "__main__":
    main()
