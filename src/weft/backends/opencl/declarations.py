"""OpenCL C's built-in functions declared one by one, for compilers that parse the whole
standard header at every build.

PoCL 3.0 reads Clang's ``opencl-c.h`` (a megabyte of declarations, no precompiled header)
for every program: about 0.25 s of a small kernel's 0.3 s build on the 2-core development
machine, and the test suite builds some 2,000 kernels. Clang's header is guarded by
``_OPENCL_H_``; defined on the command line, the header is skipped, while the types,
macros and ``as_*`` reinterpretations (Clang's base header, which PoCL loads apart) stay.
The few built-in functions weft's kernels call are then declared here, with the header's
own signatures, so that they resolve to the same library functions: PoCL's renaming macros
(``exp`` is its ``_cl_exp``) apply to these declarations as they would to the header's.

``lean_source`` gives a kernel's source with these declarations, or None where the source
calls a function this table lacks: that kernel is built with the whole header. A device
takes the lean build only after a probe kernel, built that way, computes what the whole
header's build computes (``probe``). The source ``wf.kernel_source`` shows is unchanged.

>>> text = lean_source("__kernel void k(__global float* a) { a[get_global_id(0)] = 1.0f; }")
>>> "get_global_id(uint)" in text
True
>>> lean_source("__kernel void k(__global float* a) { a[0] = unknown_builtin(1.0f); }") is None
True
"""

from __future__ import annotations

import math
import re
from typing import Any

# Define Clang's header guard: its declarations are not parsed.
BUILD_OPTION = "-D_OPENCL_H_"

# The double declarations need it before them (the source's own pragma comes later).
_FP64 = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
_PURE = "__attribute__((overloadable, const))"
_OVERLOADABLE = "__attribute__((overloadable))"
_FLOATS = ("float", "double")

_UNARY = ("acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erf "
          "erfc exp exp2 exp10 expm1 fabs floor lgamma log log2 log10 log1p logb rint round "
          "rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma trunc").split()
_BINARY = ("atan2 atan2pi copysign fdim fmax fmin fmod hypot maxmag minmag nextafter pow powr "
           "remainder").split()
_TERNARY = ("fma", "mad")
_WITH_INT = ("ldexp", "pown", "rootn")  # (gentype, int)
_CLASSIFY = ("isnan", "isinf", "isfinite", "isnormal", "signbit")  # int f(gentype)
_COMPARE = ("isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
            "islessgreater", "isordered", "isunordered")  # int f(gentype, gentype)
_WORK_ITEM = ("get_global_id", "get_local_id", "get_group_id", "get_global_size",
              "get_local_size", "get_num_groups", "get_global_offset")
_INTEGERS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong")
_UNSIGNED = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong"}


# The pure functions' signatures, per type: names, result, parameters; {t} is the type and
# {u} its unsigned form (integers' abs and abs_diff).
_FLOAT_SIGNATURES = (
    (_UNARY, "{t}", "{t}"), (_BINARY, "{t}", "{t}, {t}"), (_TERNARY, "{t}", "{t}, {t}, {t}"),
    (_WITH_INT, "{t}", "{t}, int"), (_CLASSIFY, "int", "{t}"), (_COMPARE, "int", "{t}, {t}"),
    (("ilogb",), "int", "{t}"), (("min", "max"), "{t}", "{t}, {t}"),
    (("clamp",), "{t}", "{t}, {t}, {t}"))
_INTEGER_SIGNATURES = (
    (("min", "max", "mul_hi", "hadd", "rhadd", "add_sat", "sub_sat"), "{t}", "{t}, {t}"),
    (("clamp",), "{t}", "{t}, {t}, {t}"), (("abs",), "{u}", "{t}"),
    (("abs_diff",), "{u}", "{t}, {t}"), (("clz", "popcount"), "{t}", "{t}"))


def _pure_functions() -> dict[str, str]:
    table: dict[str, list[str]] = {}
    for types, signatures in ((_FLOATS, _FLOAT_SIGNATURES), (_INTEGERS, _INTEGER_SIGNATURES)):
        for t in types:
            u = _UNSIGNED.get(t, t)
            for names, result, params in signatures:
                for name in names:
                    table.setdefault(name, []).append(
                        f"{result.format(t=t, u=u)} {_PURE} {name}({params.format(t=t)});")
    return {name: "\n".join(lines) + "\n" for name, lines in table.items()}


def _other_functions() -> dict[str, str]:
    table = {name: f"size_t {_PURE} {name}(uint);\n" for name in _WORK_ITEM}
    table["barrier"] = "void __attribute__((overloadable, convergent)) barrier(uint);\n"
    for name in ("mem_fence", "read_mem_fence", "write_mem_fence"):
        table[name] = f"void {_OVERLOADABLE} {name}(uint);\n"
    atomics = {"atomic_cmpxchg": ("int", "uint"), "atom_cmpxchg": ("long", "ulong")}
    for name, types in atomics.items():
        table[name] = ("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                       if types[0] == "long" else "") + "".join(
            f"{t} {_OVERLOADABLE} {name}(volatile __{space} {t}*, {t}, {t});\n"
            for t in types for space in ("global", "local"))
    for name in ("atomic_add", "atomic_sub", "atomic_xchg", "atomic_min", "atomic_max",
                 "atomic_and", "atomic_or", "atomic_xor"):
        table[name] = "".join(
            f"{t} {_OVERLOADABLE} {name}(volatile __{space} {t}*, {t});\n"
            for t in ("int", "uint") for space in ("global", "local"))
    for name in ("atomic_inc", "atomic_dec"):
        table[name] = "".join(
            f"{t} {_OVERLOADABLE} {name}(volatile __{space} {t}*);\n"
            for t in ("int", "uint") for space in ("global", "local"))
    return table


DECLARATIONS: dict[str, str] = {**_pure_functions(), **_other_functions()}

# What a kernel may call without a declaration: C's keywords, Clang's builtins and attributes,
# OpenCL C's conversions and reinterpretations (Clang's base header defines the ``as_*``
# macros; ``convert_*`` are declared by the header this skips: those kernels take it whole).
_KEYWORDS = frozenset({"if", "for", "while", "do", "switch", "return", "sizeof", "defined",
                       "__attribute__", "reqd_work_group_size", "always_inline",
                       "overloadable", "const", "convergent", "noinline", "aligned",
                       "__builtin_astype"})
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_DEFINED = re.compile(r"#define\s+(\w+)|\b(\w+)\s*\([^;{}]*\)\s*\{")  # macros, functions
_TYPE_NAMES = frozenset(_INTEGERS + _FLOATS + ("bool", "void", "size_t", "half"))


def _is_defined_here(name: str, defined: set[str]) -> bool:
    # weft names every helper it writes weft_* or WEFT_*; as_* are the base header's macros.
    return (name in defined or name.startswith(("weft_", "WEFT_", "__builtin_", "as_"))
            or name.rstrip("0123456789") in _TYPE_NAMES)


def called_builtins(source: str) -> tuple[set[str], set[str]]:
    """The names ``source`` calls that this table declares, and those it calls that are
    neither declared here nor defined by weft in the source.

    >>> called_builtins("x = fmod(a, b) + weft_exp(c) + (double)(d) + frob(e);")
    ({'fmod'}, {'frob'})
    """
    code = _COMMENT.sub("", source)
    defined = {macro or function for macro, function in _DEFINED.findall(code)}
    known: set[str] = set()
    unknown: set[str] = set()
    for name in set(_CALL.findall(code)) - _KEYWORDS:
        if name in DECLARATIONS:
            known.add(name)
        elif not _is_defined_here(name, defined):
            unknown.add(name)
    return known, unknown


def lean_source(source: str) -> str | None:
    """``source`` with declarations of the built-in functions it calls, to be built with
    ``BUILD_OPTION``; None where it calls one this table does not declare."""
    known, unknown = called_builtins(source)
    if unknown:
        return None
    declarations = "".join(DECLARATIONS[name] for name in sorted(known))
    return _FP64 + declarations + "\n" + source if declarations else source


# What the probe computes, per work-item i of 4: a renamed library function, a fmod, a
# classification, a work-item function and an atomic; the barrier is declared and called.
PROBE = """\
__kernel void weft_lean_probe(__global double* out, volatile __global int* count) {
    const int i = get_global_id(0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    atomic_cmpxchg(count + i, 0, i + 1);
    out[i] = exp((double)i) + fmod(7.5, (double)(i + 1)) + (isnan(out[i]) ? 0.5 : 0.0);
}
"""


def probe_expected(previous: list[float]) -> list[float]:
    """What the probe's ``out`` holds after a run that began with ``previous``."""
    return [math.exp(i) + math.fmod(7.5, i + 1) + (0.5 if math.isnan(p) else 0.0)
            for i, p in enumerate(previous)]


def probe(cl: Any, context: Any, device: Any) -> bool:
    """Whether ``device``'s compiler builds ``PROBE`` lean (``BUILD_OPTION`` and this
    table's declarations) into a kernel that computes what it should."""
    import numpy as np

    try:
        program = cl.Program(context, lean_source(PROBE)).build(options=[BUILD_OPTION],
                                                              devices=[device])
        queue = cl.CommandQueue(context, device)
        out = np.array([np.nan, 0.0, 1.0, 2.0])
        expected = probe_expected(out.tolist())
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
        out_buffer = cl.Buffer(context, flags, hostbuf=out)
        count = np.zeros(4, dtype=np.int32)
        count_buffer = cl.Buffer(context, flags, hostbuf=count)
        program.weft_lean_probe(queue, (4,), (4,), out_buffer, count_buffer)
        cl.enqueue_copy(queue, out, out_buffer)
        cl.enqueue_copy(queue, count, count_buffer)
        queue.finish()
    except cl.Error:
        return False
    return (np.allclose(out, expected, rtol=1e-15, atol=0)
            and count.tolist() == [1, 2, 3, 4])
