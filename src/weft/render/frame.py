"""The renderer's frame: kernel IR + a backend's ``Dialect`` → kernel source text.

OpenCL C and CUDA C differ by a handful of strings; a ``Dialect`` holds them, and this one
renderer reads it. Op C text comes from the op table (ops.py), helper functions from
skeletons/helpers.py, the kernel's frame from a skeleton with named slots (skeletons/).
The reduction skeletons' slots are filled in reduce.py; text helpers shared by both are in
text.py.
"""

from __future__ import annotations

import re

from .. import dtypes as dt
from ..dialect import STRUCT, Dialect
from ..dtypes import DType
from ..ir import (
    ELEMENTWISE,
    FLAT,
    PLAIN,
    ROW_VECTOR,
    ROW_WALK,
    ROWWISE,
    SCALAR_ACCESS,
    SCAN,
    TRANSPOSED,
    AffineIndex,
    AffinePredicate,
    BufferParam,
    Cast,
    Check,
    Gather,
    IndexParam,
    KernelIR,
    Load,
    Param,
    ReadIndex,
    ReadScalar,
    ScalarParam,
    Scatter,
    Select,
    Statement,
    Store,
    Variant,
)
from ..ops import OPS
from ..skeletons import checks, elementwise, reduce
from ..skeletons import trig as trig_skeleton
from ..skeletons.helpers import (
    DOUBLE_INSIDE,
    DTYPE_FREE,
    NEEDS,
    THROUGH_DOUBLE,
    WIDE_FLOAT32,
    helper_source,
)
from ..skeletons.own_math import own_math_source
from .lanes import in_lane, lane_owned
from .reduce import Reductions
from .row_walk import render_row_walk, render_row_walk_team
from .scan import render_scan
from .spans import span_walk
from .text import ERROR_RECORD, indent


class Renderer:
    """One kernel's text being written: the frame (the dialect, the IR and its variant, the
    parameters, the helpers a kernel needs) and the element-wise skeletons; the reduction
    skeletons write into the same frame (``render_reduce.Reductions``)."""

    def __init__(self, ir: KernelIR, variant: Variant, dialect: Dialect, wide_float32: bool
                 ) -> None:
        self.ir = ir
        self.variant = variant
        self.d = dialect
        self.wide_float32 = wide_float32
        self.remember_errors = False  # reductions: report failures once per lane, after the loop
        # Reductions: an element's remembered failures, (condition, REMEMBER text), emitted
        # together after its other statements (``remembered_failures``).
        self.remembered: list[tuple[str, str]] = []
        self.helpers: dict[str, str] = {}
        self.uses_fp64 = False
        self.struct_definition = ""  # the arguments' struct, where the dialect passes one
        # Grid positions, offsets and strides: in int where the launch allows (index32).
        # Error records and gathered indexes stay in the dialect's 64-bit index type: they
        # carry a float64's bits and user-supplied index values.
        self.index_t = dialect.compute_types["int32"] if variant.index32 else dialect.index_t
        self.types = {p.name: p.dtype for p in ir.params if isinstance(p, BufferParam)}
        # Loads read from a work-group tile (the tiled skeleton): variable -> tile number.
        self.tiles = {s.var: m for m, s in enumerate(ir.tileable_loads)} if variant.tiled else {}
        # Values every element shares (ir.invariants) go to the ``invariants`` slot.
        self.once, self.per_element = ir.once_per_thread
        # The element's column and grid position as statements name them: a vector walk's
        # element ``c`` has its own (``j_c``, ``gid_c``; render/lanes.py).
        self.col, self.grid = "j", "gid"
        self.row = "i"  # (a row walk's rows of a block have their own: ``i_r``)

    def ctype(self, dtype: DType) -> str:
        if dtype.name == "float64":
            self.uses_fp64 = True
        return self.d.compute_types[dtype.name]

    def storage(self, dtype: DType) -> str:
        return self.d.storage_types[dtype.name]

    def vector_type(self, dtype: DType, width: int) -> str:
        """The dialect's vector of ``width`` stored elements of ``dtype`` (float4, double2)."""
        return f"{self.d.vector_types[dtype.name]}{width}"

    def address(self, access: str, view: str) -> str:
        if access == FLAT:
            return f"{view}_off + {self.grid}"
        if access == SCALAR_ACCESS:
            return f"{view}_off"
        if access == TRANSPOSED:
            return f"{view}_off + {self.row} + {self.col} * {view}_s1"
        if access == ROWWISE:
            return f"{view}_off + {self.row} * {view}_s0"
        if access == ROW_VECTOR:
            return f"{view}_off + {self.col}"
        return f"{view}_off + {self.row} * {view}_s0 + {self.col} * {view}_s1"

    def param(self, p: Param) -> str:
        if isinstance(p, BufferParam):
            const = "" if p.written else "const "
            self.ctype(p.dtype)
            return f"{self.d.global_ptr}{const}{self.storage(p.dtype)}* {self.d.restrict} {p.name}"
        if isinstance(p, ScalarParam):
            self.ctype(p.dtype)
            return f"const {self.storage(p.dtype)} {p.name}"
        return f"const {self.d.index_t} {p.name}"

    @staticmethod
    def to_bool_if(dtype: DType, text: str) -> str:
        # bool is stored as a byte: read it as a C bool so ! and ?: behave.
        return f"({text} != 0)" if dtype.name == "bool" else text

    def guarded(self, guard: str | None, text: str) -> str:
        return text if guard is None else f"{guard} && {text}"

    def affine(self, view: str) -> str:
        return f"({view}_0 + {view}_i * {self.row} + {view}_j * {self.col})"

    def statement(self, s: Statement) -> str:
        if isinstance(s, Store):
            storage = self.storage(self.types[s.buffer])
            store = f"{s.buffer}[{self.address(s.access, s.view)}] = ({storage}){s.var};"
            return f"    if ({s.when}) {store}\n" if s.when else f"    {store}\n"
        if isinstance(s, Scatter):
            storage = self.storage(self.types[s.buffer])
            index, inside, target = self.element(s.buffer, s.view, s.row, s.col, s.name)
            report = self.report("!" + inside, s.error, f"{s.name}_r_raw", f"{s.name}_c_raw",
                                 "0")
            if s.add:
                add = self.d.atomic_add[self.types[s.buffer].name]
                return index + report + checks.SCATTER_ADD.format(
                    inside=inside, target=target, storage=storage, var=s.var, add=add)
            return index + report + checks.SCATTER.format(inside=inside, target=target,
                                                          storage=storage, var=s.var)
        if isinstance(s, Check):
            bits = self.bits(s.value, s.dtype)
            condition = self.guarded(s.guard, f"!{s.ok}")
            return self.report(condition, s.error, s.row, s.col, bits)
        if isinstance(s, Gather) and s.error < 0:
            return self.trusted_gather(s)
        if isinstance(s, Gather):
            t = self.ctype(s.dtype)
            index, inside, target = self.element(s.buffer, s.view, s.row, s.col, s.var)
            report = "" if s.error < 0 else self.report(
                self.guarded(s.guard, f"!{s.var}_ok"), s.error, f"{s.var}_r_raw",
                f"{s.var}_c_raw", "0")
            guard = "" if s.guard is None else f"{s.guard} && "
            read = self.to_bool_if(s.dtype, target)
            return index + checks.GATHER.format(var=s.var, inside=inside, T=t, guard=guard,
                                                read=read) + report
        t = self.ctype(s.dtype)
        comment = ""
        if isinstance(s, Load) and s.var in self.tiles:
            at = elementwise.PRIVATE_TILE_READ if self.variant.walk else elementwise.TILE_READ
            value = self.to_bool_if(s.dtype, f"tile{self.tiles[s.var]}{at}")
        elif isinstance(s, Load):
            value = self.to_bool_if(s.dtype, f"{s.buffer}[{self.address(s.access, s.view)}]")
            if s.guard is not None:
                value = f"{s.guard} ? {value} : ({t})0"
        elif isinstance(s, ReadScalar):
            value = self.to_bool_if(s.dtype, s.param)
        elif isinstance(s, ReadIndex):
            value = f"({t}){s.axis}"
        elif isinstance(s, AffineIndex):
            value = f"({t}){self.affine(s.view)}"
        elif isinstance(s, AffinePredicate):
            d = self.affine(s.view)
            value = {"le0": f"{d} <= 0", "ge0": f"{d} >= 0", "eq0": f"{d} == 0",
                     "range": f"{d} >= 0 && {d} < {s.view}_n"}[s.relation]
        elif isinstance(s, Select):
            value = f"{s.cond} ? {s.value} : ({t})0"
        elif isinstance(s, Cast):
            value = f"(({s.arg}) != 0)" if s.dtype.name == "bool" else f"(({t}){s.arg})"
            comment = "  // cast"
        else:
            value = self.apply(s.op, s.compute, s.args)
            comment = f"  // {s.op}"
        return f"    const {t} {s.var} = {value};{comment}\n"

    def element(self, buffer: str, view: str, row: str | None, col: str | None, var: str
                ) -> tuple[str, str, str]:
        """Index setup, the in-bounds test and the element of a gather or scatter."""
        index = ""
        for name, value, extent in ((f"{var}_r", row, f"{view}_rows"),
                                    (f"{var}_c", col, f"{view}_cols")):
            index += checks.INDEX.format(index_t=self.d.index_t, var=name,
                                         value=value if value is not None else "0",
                                         extent=extent)
        inside = (f"({var}_r >= 0 && {var}_r < {view}_rows && {var}_c >= 0 && "
                  f"{var}_c < {view}_cols)")
        target = f"{buffer}[{view}_off + {var}_r * {view}_s0 + {var}_c * {view}_s1]"
        return index, inside, target

    def trusted_gather(self, s: Gather) -> str:
        """A gather whose indexes are in bounds and non-negative by construction (a bit
        mask's words): a plain load, without the wrap-around and bounds tests."""
        t = self.ctype(s.dtype)
        terms = [f"{s.view}_off"]
        terms += [f"({index}) * {s.view}_{stride}"
                  for index, stride in ((s.row, "s0"), (s.col, "s1")) if index is not None]
        read = self.to_bool_if(s.dtype, f"{s.buffer}[{' + '.join(terms)}]")
        value = read if s.guard is None else f"{s.guard} ? {read} : ({t})0"
        return f"    const {t} {s.var} = {value};\n"

    def bits(self, var: str, dtype: DType) -> str:
        if dtype.is_float:
            self.ctype(dtype)
            return self.d.float_bits[dtype.name].format(var)
        return var

    def report(self, condition: str, error: int, a: str, b: str, bits: str) -> str:
        if self.remember_errors:
            self.remembered.append((condition, checks.REMEMBER.format(
                condition=condition, error=error, a=a, b=b, bits=bits,
                index_t=self.d.index_t)))
            return ""
        claim = self.d.claim.format(ERROR_RECORD)
        return checks.REPORT.format(condition=condition, claim=claim, error=error, a=a, b=b,
                                    bits=bits, index_t=self.d.index_t)

    def need_helper(self, helper: str, compute: DType) -> None:
        """Emit ``helper`` for ``compute`` once, after the helpers it calls."""
        key = helper if helper in DTYPE_FREE else f"{helper}:{compute.name}"
        if key in self.helpers:
            return
        if helper in DOUBLE_INSIDE:
            self.uses_fp64 = True
        if compute.name == "float32" and self.wide_float32 and helper in THROUGH_DOUBLE:
            self.need_helper(helper, dt.float64)
            self.uses_fp64 = True
            names = [f"v{k}" for k in range(THROUGH_DOUBLE[helper])]
            self.helpers[key] = self.d.function_qualifier + WIDE_FLOAT32.format(
                name=helper, params=", ".join(f"float {v}" for v in names),
                args=", ".join(f"(double){v}" for v in names))
            return
        for needed in NEEDS.get(helper, ()):
            self.need_helper(needed, compute)
        self.helpers[key] = helper_source(helper, compute, self.d)

    def apply(self, op_name: str, compute: DType, args: tuple[str, ...]) -> str:
        op = OPS[op_name]
        kind = compute.kind
        helper = op.helper(kind)
        if helper is not None:
            self.need_helper(helper, compute)
        return op.template(kind, self.d.name).format(
            *args,
            T=self.ctype(compute),
            U=self.d.unsigned_types.get(compute.name, self.ctype(compute)),
            S=compute.short,
            F="f" if compute.name == "float32" else "",
            BITS=compute.itemsize * 8,
        )

    def index_setup(self) -> str:
        axes = {s.axis for s in self.ir.body if isinstance(s, ReadIndex)}
        if not (self.ir.uses_rows or axes - {"0"}):
            return ""
        text = elementwise.COLS_ONLY
        if self.ir.ndim == 2 and self.variant.reciprocal_rows:
            text = elementwise.ROWS_AND_COLS_RECIPROCAL
            self.uses_fp64 = True
        elif self.ir.ndim == 2:
            text = (elementwise.ROWS_AND_COLS_32 if self.variant.index32
                    else elementwise.ROWS_AND_COLS)
        return text.format(index_t=self.index_t, u32=self.d.unsigned_types["int32"])

    def kernel_name(self) -> str:
        spec = self.ir.scan
        if spec is not None:
            if spec.arg:
                arg = "argmax" if spec.op == "maximum" else "argmin"
                return f"weft_{arg}_{'partials' if spec.totals else 'rows'}"
            kind = "totals_" if spec.totals else "carries_" if spec.exclusive else ""
            return f"weft_scan_{kind}{spec.op}"
        names: list[str] = []
        for op in self.ir.op_names:
            if op not in names:
                names.append(op)
        if not names:
            return "weft_copy"
        suffix = "_".join(names[:4]) + ("_etc" if len(names) > 4 else "")
        return f"weft_{suffix}"

    def frame(self) -> dict[str, str]:
        """The kernel's signature and the locals its parameters arrive in: a struct's fields
        (where the dialect passes one) and, for 32-bit indexes, the index arguments narrowed
        (they travel as 64-bit values, so one kernel layout serves both)."""
        params: list[str] = []
        fields: list[str] = []
        locals_ = ""
        fixed = dict(self.variant.fixed)
        for p in self.ir.params:
            text = self.param(p)
            if isinstance(p, BufferParam):
                params.append(text)
                continue
            source = None
            if self.d.scalar_struct:
                fields.append(text)
                source = f"args.{p.name}"
            narrowed = self.variant.index32 and isinstance(p, IndexParam)
            if p.name in fixed and source is None:
                text += "_argument"  # the constant takes the name
            elif narrowed and source is None:
                source = f"{p.name}_64"
                text += "_64"
            if not self.d.scalar_struct:
                params.append(text)
            if p.name in fixed:
                locals_ += f"    const {self.index_t} {p.name} = {fixed[p.name]};\n"
            elif narrowed:
                locals_ += f"    const {self.index_t} {p.name} = ({self.index_t}){source};\n"
            elif source is not None:
                locals_ += f"    {text} = {source};\n"
        if self.d.scalar_struct:
            params.append(f"const {STRUCT} args")
            self.struct_definition = self.d.struct_definition.format(
                name=STRUCT, fields="".join(f"    {f.removeprefix('const ')};\n"
                                            for f in fields))
        invariants = "".join(self.statement(s) for s in self.once)
        return dict(kernel_qualifier=self.d.kernel_qualifier, name=self.kernel_name(),
                    params="\n    " + ",\n    ".join(params), param_locals=locals_,
                    invariants=invariants, index_t=self.index_t)

    def finish(self, template: str, slots: dict[str, str]) -> str:
        helpers = "".join(h + "\n" for h in self.helpers.values())
        calls = re.sub(r"//[^\n]*", "", helpers)
        trig = [n for n in ("sin", "cos", "tan")
                if n in self.d.own_math and re.search(rf"\b{n}\(", calls)]
        if trig:
            helpers = trig_skeleton.helpers_with_branches(trig, helpers)
        filled = helpers + "\n".join(slots.values())  # (apart: a name ends at its slot's end)
        used = [text for name, text in self.d.definitions.items()
                if re.search(rf"\b{name}\b", filled)]
        # weft's own math (what the definitions call too: WEFT_SQRT's sqrt) defines double
        # versions beside the float ones: a kernel that has them needs the fp64 preamble.
        own = (own_math_source(self.d.own_math, filled + "".join(used))
               if self.d.own_math else "")
        preamble = self.d.fp64_preamble if self.uses_fp64 or own else ""
        if used:
            preamble += "".join(used) + "\n"
        preamble += own + self.struct_definition
        return template.format(preamble=preamble, helpers=helpers, **slots)

    def epilogue_loop(self) -> str:
        """``KernelIR.epilogue`` in its loop (``reduce.EPILOGUE``; none without one): the
        statements of the step's grid, whose checks report as they fail."""
        if not self.ir.epilogue:
            return ""
        kept = self.remember_errors, self.row, self.col, self.grid
        self.remember_errors, self.row, self.col, self.grid = False, "i", "j", "gid"
        body = "".join(self.statement(s) for s in self.ir.epilogue)
        self.remember_errors, self.row, self.col, self.grid = kept
        return reduce.EPILOGUE.format(index_t=self.index_t, body=indent(body))

    def walked_twice(self, body: str, checks_only_noted: bool = False) -> list[str]:
        """The trigonometric functions (weft's own) a walk's ``body`` calls, where it walks
        twice (``elementwise.WALK_TWICE``); empty where it cannot: where a second pass would
        not rewrite the same values (a buffer the kernel both reads and writes), or would
        repeat a side effect (a check's record, a scatter's add, a gather's error).
        ``checks_only_noted``: the walk only notes whether a check failed (a band's
        ``failed``, reset with the accumulators), and records the failure after it."""
        names = [n for n in ("sin", "cos", "tan")
                 if n in self.d.own_math and re.search(rf"\b{n}\(", body)]
        if not names or (self.ir.checked and not checks_only_noted) or any(
                isinstance(p, BufferParam) and p.read and p.written for p in self.ir.params):
            return []
        if any(isinstance(s, (Gather, Scatter)) for s in self.per_element):
            return []
        return names

    @staticmethod
    def trig_macros(names: list[str]) -> dict[str, str]:
        """A two-pass walk's ``fast_macros`` and ``general_macros``: ``names`` sent to their
        fast versions (which note a huge argument in ``weft_huge``), then back."""
        return {"fast_macros": "".join(f"#undef {n}\n#define {n}(x) weft_{n}_fast((x), "
                                       "&weft_huge)\n" for n in names),
                "general_macros": "".join(f"#undef {n}\n#define {n}(x) weft_{n}(x)\n"
                                          for n in names)}

    def render_elementwise(self) -> str:
        slots = self.frame()
        body = "".join(self.statement(s) for s in self.per_element)
        slots["global_id"] = self.d.global_id
        slots["index_setup"] = self.index_setup()
        if self.variant.tiled:
            return self.render_tiled(slots, body)
        if self.variant.vector > 1:
            return self.render_vector(slots, body)
        if self.variant.walk:
            twice = self.walked_twice(body)
            setup = slots["index_setup"]
            slots.update(global_size=self.d.global_size,
                         kernel_qualifier=self.d.one_item_kernel_qualifier)
            if not twice and self.ir.ndim == 2 and self.ir.uses_rows:
                slots.update(body=indent(body, 2), index_setup=indent(setup, 2),
                             row_walk_columns=str(elementwise.ROW_WALK_COLUMNS))
            spans = span_walk(self, slots, body, setup, twice)
            if spans is not None:
                return spans
            if not twice and self.ir.ndim == 2 and self.ir.uses_rows:
                return self.finish(elementwise.WALK_BY_ROWS, slots)
            if twice:
                slots.update(self.trig_macros(twice), index_setup_twice=indent(setup, 2),
                             body_twice=indent(body, 2))
            slots.update(body=indent(body), index_setup=indent(setup))
            return self.finish(elementwise.WALK_TWICE if twice else elementwise.WALK, slots)
        k = self.variant.per_thread
        if k == 1:
            slots["body"] = body
            slots["bounds_check"] = elementwise.PER_ELEMENT_CHECK
            return self.finish(elementwise.ELEMENTWISE, slots)
        slots.update(
            body=indent(body), index_setup=indent(slots["index_setup"]), per_thread=str(k),
            group=str(reduce.WORK_GROUP), span=str(reduce.WORK_GROUP * k),
            group_id=self.d.group_id, local_id=self.d.local_id)
        return self.finish(elementwise.SEVERAL_PER_THREAD, slots)

    def render_tiled(self, slots: dict[str, str], body: str) -> str:
        if self.variant.walk:
            return self.render_tile_walk(slots, body)
        tile_decls = tile_loads = ""
        tile = elementwise.TILE
        for m, load in enumerate(self.ir.tileable_loads):
            tile_decls += elementwise.TILE_DECL.format(
                local=self.d.local_qualifier, storage=self.storage(load.dtype), m=m, tile=tile)
            tile_loads += elementwise.TILE_LOAD.format(m=m, buffer=load.buffer, view=load.view)
        slots.update(
            body=indent(body, 2), tile_decls=tile_decls, tile_loads=tile_loads,
            tile=str(tile), tile_rows=str(reduce.WORK_GROUP // tile), barrier=self.d.barrier,
            group_id=self.d.group_id, local_id=self.d.local_id)
        return self.finish(elementwise.TILED, slots)

    def render_tile_walk(self, slots: dict[str, str], body: str) -> str:
        tile_decls = tile_loads = ""
        for m, load in enumerate(self.ir.tileable_loads):
            tile_decls += elementwise.PRIVATE_TILE_DECL.format(
                storage=self.storage(load.dtype), m=m, tile=self.variant.tile_edge)
            tile_loads += elementwise.PRIVATE_TILE_LOAD.format(m=m, buffer=load.buffer,
                                                               view=load.view)
        slots.update(body=indent(body, 2), tile_decls=tile_decls, tile_loads=tile_loads,
                     tile=str(self.variant.tile_edge),
                     kernel_qualifier=self.d.one_item_kernel_qualifier)
        return self.finish(elementwise.TILE_WALK, slots)

    def unroll(self) -> int:
        """Elements per lane in flight: enough bytes for the narrowest loaded type."""
        sizes = [s.dtype.itemsize for s in self.ir.body if isinstance(s, (Load, Gather))]
        return reduce.unroll_for(min(sizes) if sizes else 8)

    def render_vector(self, slots: dict[str, str], body: str) -> str:
        width = self.variant.vector
        flat = [s for s in self.ir.body if isinstance(s, (Load, Store))
                and s.access == FLAT]
        vector = {s.var: m for m, s in enumerate(s for s in flat if isinstance(s, Load))}
        outputs = {id(s): m for m, s in enumerate(s for s in flat if isinstance(s, Store))}
        # Every flat buffer's first element of the view must sit on a vector boundary.
        bases = {f"{s.buffer} + {s.view}_off": width * self.types[s.buffer].itemsize - 1
                 for s in flat}
        aligned = " &&\n            ".join(f"({self.d.pointer_as_int.format(b)} & {mask}) == 0"
                                          for b, mask in bases.items())

        owned = lane_owned(self.per_element, self.ir.invariants)
        copies = range(width)
        # Statement by statement, each for every element.
        lanes = vector_stores = ""
        for s in self.per_element:
            if isinstance(s, Load) and s.var in vector:
                lanes += self.vector_load(s, vector[s.var], width)
            elif isinstance(s, Store) and id(s) in outputs:
                lanes += "".join(self.lane_output(in_lane(s, c, owned), outputs[id(s)], c)
                                 for c in copies)
                vector_stores += self.vector_store(s, outputs[id(s)], width)
            elif isinstance(s, ReadIndex):  # a 1-d grid: row 0, column = position
                t = self.ctype(s.dtype)
                lanes += "".join(
                    f"    const {t} {s.var}_{c} = ({f'first + {c}' if s.axis == 'j' else '0'});\n"
                    for c in copies)
            else:
                lanes += "".join(self.statement(in_lane(s, c, owned)) for c in copies)
        body = slots["index_setup"] + body  # empty unless the scalar loop needs i and j
        slots.update(
            body=indent(body, 2), width=str(width), aligned=aligned,
            vector_stores=vector_stores, lanes=indent(lanes))
        return self.finish(elementwise.VECTOR, slots)

    def vector_load(self, s: Load, m: int, width: int) -> str:
        """One vector load of ``width`` elements, then each element's value."""
        vtype = self.vector_type(self.types[s.buffer], width)
        read = elementwise.VECTOR_READ.format(vtype=vtype, global_ptr=self.d.global_ptr,
                                              buffer=s.buffer, view=s.view)
        text = elementwise.VECTOR_LOAD.format(vtype=vtype, m=m, read=read)
        return text + self.vector_elements(s, f"q{m}", width)

    def vector_elements(self, s: Load, vector: str, width: int) -> str:
        """Load ``s``'s value for each element of ``vector``: ``v3_0``, ``v3_1``, ..."""
        return "".join(
            f"    const {self.ctype(s.dtype)} {s.var}_{c} = "
            f"{self.to_bool_if(s.dtype, f'{vector}.{elementwise.COMPONENTS[c]}')};\n"
            for c in range(width))

    def lane_output(self, s: Store, m: int, c: int) -> str:
        """Element ``c``'s value of output ``m`` (``s`` is its copy, ``lanes.in_lane``)."""
        storage = self.storage(self.types[s.buffer])
        text = f"    const {storage} o{m}_{c} = ({storage}){s.var};\n"
        if s.when is not None:
            text += f"    const bool p{m}_{c} = {s.when};\n"
        return text

    def vector_store(self, s: Store, m: int, width: int) -> str:
        """The vector store of output ``m``; a masked store writes the whole vector only where
        all its elements are selected, else element by element."""
        vtype = self.vector_type(self.types[s.buffer], width)
        value = self.d.vector_make.format(
            type=vtype, args=", ".join(f"o{m}_{c}" for c in range(width)))
        store = elementwise.VECTOR_STORE.format(
            vtype=vtype, global_ptr=self.d.global_ptr, buffer=s.buffer, view=s.view,
            value=value)
        if s.when is None:
            return store
        one_by_one = "".join(elementwise.LANE_STORE_WHEN.format(
            when=f"p{m}_{c}", buffer=s.buffer, view=s.view, c=c, value=f"o{m}_{c}")
            for c in range(width))
        every = " && ".join(f"p{m}_{c}" for c in range(width))
        return elementwise.VECTOR_STORE_WHEN.format(every=every, store=store, each=one_by_one)

    def render(self) -> tuple[str, str]:
        if self.ir.skeleton == ELEMENTWISE:
            source = self.render_elementwise()
        elif self.ir.skeleton == SCAN:
            source = render_scan(self)
        elif self.ir.skeleton == ROW_WALK:
            teams = any(name == "lane_columns" for name, _ in self.variant.fixed)
            source = render_row_walk_team(self) if teams else render_row_walk(self)
        else:
            source = Reductions(self).render_reduction()
        return source, self.kernel_name()


def render(ir: KernelIR, dialect: Dialect, wide_float32: bool = False,
           variant: Variant = PLAIN) -> tuple[str, str]:
    """The source text and the kernel name for ``ir`` launched as ``variant`` in
    ``dialect``. ``wide_float32``: the device has doubles, so the float32 forms of the special
    functions in ``THROUGH_DOUBLE`` compute in double."""
    return Renderer(ir, variant, dialect, wide_float32).render()
