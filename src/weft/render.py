"""Rendering: kernel IR + a backend's ``Dialect`` → kernel source text.

OpenCL C and CUDA C differ by a handful of strings; a ``Dialect`` holds them, and this one
renderer reads it. Op C text comes from the op table (ops.py), helper functions from
skeletons/helpers.py, the kernel's frame from a skeleton with named slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import lower as lw
from .dtypes import DType
from .ops import OPS
from .skeletons import elementwise
from .skeletons.helpers import HELPERS


@dataclass(frozen=True)
class Dialect:
    """The strings that make kernel source OpenCL C or CUDA C."""

    name: str
    kernel_qualifier: str
    global_ptr: str
    restrict: str
    global_id: str
    index_t: str
    fp64_preamble: str
    function_qualifier: str  # before helper functions: "" in OpenCL, "__device__ " in CUDA
    storage_types: dict[str, str] = field(default_factory=dict)  # dtype name -> buffer type
    compute_types: dict[str, str] = field(default_factory=dict)  # dtype name -> C type
    unsigned_types: dict[str, str] = field(default_factory=dict)  # dtype name -> unsigned


def _helper_source(name: str, dtype: DType, dialect: Dialect) -> str:
    return dialect.function_qualifier + HELPERS[name].format(
        T=dialect.compute_types[dtype.name],
        U=dialect.unsigned_types.get(dtype.name, dialect.compute_types[dtype.name]),
        S=dtype.short,
    )


class _Renderer:
    def __init__(self, ir: lw.KernelIR, dialect: Dialect) -> None:
        self.ir = ir
        self.d = dialect
        self.helpers: dict[str, str] = {}
        self.uses_fp64 = False

    def ctype(self, dtype: DType) -> str:
        if dtype.name == "float64":
            self.uses_fp64 = True
        return self.d.compute_types[dtype.name]

    def address(self, access: str, view: str) -> str:
        if access == lw.FLAT:
            return f"{view}_off + gid"
        if access == lw.SCALAR_ACCESS:
            return f"{view}_off"
        return f"{view}_off + i * {view}_s0 + j * {view}_s1"

    def param(self, p: lw.Param) -> str:
        if isinstance(p, lw.BufferParam):
            const = "" if p.written else "const "
            self.ctype(p.dtype)
            base = self.d.storage_types[p.dtype.name]
            return f"{self.d.global_ptr}{const}{base}* {self.d.restrict} {p.name}"
        if isinstance(p, lw.ScalarParam):
            self.ctype(p.dtype)
            return f"const {self.d.storage_types[p.dtype.name]} {p.name}"
        return f"const {self.d.index_t} {p.name}"

    @staticmethod
    def to_bool_if(dtype: DType, text: str) -> str:
        # bool is stored as a byte: read it as a C bool so ! and ?: behave.
        return f"({text} != 0)" if dtype.name == "bool" else text

    def statement(self, s: lw.Statement) -> str:
        if isinstance(s, lw.Store):
            storage = self.d.storage_types[self._buffer_dtype(s.buffer).name]
            return f"{s.buffer}[{self.address(s.access, s.view)}] = ({storage}){s.var};"
        t = self.ctype(s.dtype)
        if isinstance(s, lw.Load):
            value = self.to_bool_if(s.dtype, f"{s.buffer}[{self.address(s.access, s.view)}]")
            comment = ""
        elif isinstance(s, lw.ReadScalar):
            value = self.to_bool_if(s.dtype, s.param)
            comment = ""
        elif isinstance(s, lw.ReadIndex):
            value = f"({t}){s.axis}"
            comment = ""
        elif isinstance(s, lw.Cast):
            value = f"(({s.arg}) != 0)" if s.dtype.name == "bool" else f"(({t}){s.arg})"
            comment = "  // cast"
        else:
            value = self.apply(s)
            comment = f"  // {s.op}"
        return f"const {t} {s.var} = {value};{comment}"

    def _buffer_dtype(self, name: str) -> DType:
        for p in self.ir.params:
            if p.name == name:
                return p.dtype
        raise KeyError(name)

    def apply(self, s: lw.Apply) -> str:
        op = OPS[s.op]
        kind = s.compute.kind
        helper = op.helper(kind)
        if helper is not None:
            key = f"{helper}:{s.compute.name}"
            if key not in self.helpers:
                self.helpers[key] = _helper_source(helper, s.compute, self.d)
        return op.template(kind, self.d.name).format(
            *s.args,
            T=self.ctype(s.compute),
            U=self.d.unsigned_types.get(s.compute.name, self.ctype(s.compute)),
            S=s.compute.short,
            BITS=s.compute.itemsize * 8,
        )

    def index_setup(self) -> str:
        axes = {s.axis for s in self.ir.body if isinstance(s, lw.ReadIndex)}
        if not (self.ir.uses_rows or axes - {"0"}):
            return ""
        text = elementwise.ROWS_AND_COLS if self.ir.ndim == 2 else elementwise.COLS_ONLY
        return text.format(index_t=self.d.index_t)

    def kernel_name(self) -> str:
        names: list[str] = []
        for op in self.ir.op_names:
            if op not in names:
                names.append(op)
        if not names:
            return "weft_copy"
        suffix = "_".join(names[:4]) + ("_etc" if len(names) > 4 else "")
        return f"weft_{suffix}"

    def render(self) -> tuple[str, str]:
        params = ",\n    ".join(self.param(p) for p in self.ir.params)
        body = "".join(f"    {self.statement(s)}\n" for s in self.ir.body)
        name = self.kernel_name()
        preamble = self.d.fp64_preamble if self.uses_fp64 else ""
        helpers = "".join(h + "\n" for h in self.helpers.values())
        source = elementwise.ELEMENTWISE.format(
            preamble=preamble,
            helpers=helpers,
            kernel_qualifier=self.d.kernel_qualifier,
            name=name,
            params="\n    " + params,
            index_t=self.d.index_t,
            global_id=self.d.global_id,
            index_setup=self.index_setup(),
            body=body,
        )
        return source, name


def render(ir: lw.KernelIR, dialect: Dialect) -> tuple[str, str]:
    """The source text and the kernel name for ``ir`` in ``dialect``."""
    return _Renderer(ir, dialect).render()
