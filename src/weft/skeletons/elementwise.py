"""The element-wise kernel skeletons over a (rows, cols) grid: one element per thread, or
``per_thread`` elements per thread, ``group`` apart so that every load stays coalesced and
each thread has several loads in flight (GPUs need that to reach their memory bandwidth).

Named slots: ``preamble`` (extensions), ``helpers`` (device functions the ops need), ``name``,
``params``, ``param_locals`` (the arguments a dialect passes in one struct, as locals; empty
elsewhere), ``invariants`` (values every element shares, computed once per thread:
``KernelIR.invariants``), ``index_setup`` (row/column split of the flat id, only when some
access needs it) and ``body`` (loads, ops and stores, one statement per line).

``TILED`` serves grids that read an operand down its columns (a transpose): each work-group
owns a ``TILE`` x ``TILE`` block of the grid, first copies every such operand's block into
work-group memory along the operand's own rows (coalesced), then computes the block's elements
row by row, reading those operands from the tile. Extra slots: ``tile_decls`` (one padded tile
per operand: the padding column keeps the column reads free of bank conflicts) and
``tile_loads`` (the coalesced copies).

``WALK`` (CPUs) gives each work-item a run of consecutive elements, walked in a loop with no
bounds test per element; extra slot: ``global_size`` (the launch's work-item count, from
which each run's length follows).

``TILE_WALK`` (CPUs) serves the grids ``TILED`` serves on GPUs: each work-item owns a square
block, copies each operand read down its columns into a private tile along the operand's own
rows, then computes the block row by row, reading those operands from the tiles. A CPU needs
no work-group memory or barrier for this (PoCL turns a barrier into two loops over the
work-items, with context arrays); the block stays in the core's cache. Slots as ``TILED``'s,
``tile`` being the block's edge.

``VECTOR`` gives each thread ``width`` consecutive elements. Where they are all inside the
grid and every flat buffer is aligned for it, one vector load per operand and one vector store
per output move them (a quarter of the memory instructions, which is what 4-byte types need to
reach the bandwidth); elsewhere a scalar loop does. Extra slots: ``aligned`` (the runtime
test), ``lanes`` (the body statement by statement, each once per element; a load is one
vector load, then its components) and ``vector_stores`` (a masked store writes the whole
vector only where all its elements are selected, else element by element).
"""

import re

TILE = 32

ELEMENTWISE = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} gid = {global_id};
{bounds_check}{index_setup}{body}}}
"""

# The bounds check of the one-element-per-thread skeleton.
PER_ELEMENT_CHECK = "    if (gid >= n) return;\n"

# CPUs: each work-item walks a run of consecutive elements, a loop that the compiler
# vectorizes whole with a scalar remainder, so no element tests its bounds. (In PoCL's
# vectorized loop over work-items, a bounds test predicates every load and store, and AMD runs
# masked moves as microcode: lgamma of 2^24 float64 took 1.75x as long.) The run's length
# comes from the launch's work-item count, so one program serves every grid. Where the
# dialect can ask for it, a work-group is one work-item (PoCL measured 10% faster with them
# than with groups of 256, and a small grid is walked by few work-items in vector steps).
WALK = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} items = ({index_t}){global_size};
    const {index_t} run = (n + items - 1) / items;
    const {index_t} first = ({index_t})({global_id}) * run;
    const {index_t} end = first + run < n ? first + run : n;
    for ({index_t} gid = first; gid < end; ++gid) {{
{index_setup}{body}    }}
}}
"""

# ``WALK`` in two passes where the body calls sin, cos or tan (weft's own, on CPUs): the first
# through their fast versions (skeletons/trig.py: no huge-argument path, which a select
# computed for every element), noting any argument that needs it; only then is the run
# walked again through the general ones. Extra slots: ``fast_macros`` and
# ``general_macros`` (the names sent to each version), ``index_setup_twice`` and
# ``body_twice`` (the same, indented once more). Only where walking again rewrites the same
# values (render/frame.py): no buffer both read and written, no check, gather or scatter.
_WALK_LOOP = """\
    for ({index_t} gid = first; gid < end; ++gid) {{
{index_setup}{body}    }}
"""
WALK_TWICE = WALK.replace(_WALK_LOOP, (
    "    int weft_huge = 0;\n{fast_macros}" + _WALK_LOOP
    + "{general_macros}    if (weft_huge) {{\n"
    + "        for ({index_t} gid = first; gid < end; ++gid) {{\n"
    + "{index_setup_twice}{body_twice}        }}\n    }}\n"))
assert WALK_TWICE != WALK

# ``WALK`` over a 2-d grid whose elements need their row and column: the run row by row,
# the column the inner loop's index and the row a constant there, so the compiler vectorizes
# along the row (a guarded load becomes a masked one) and no element divides. Rows shorter
# than ``ROW_WALK_COLUMNS`` keep the flat walk, whose per-row loop would cost more. Slots:
# ``row_walk_columns``, and ``index_setup`` and ``body`` indented once more.
ROW_WALK_COLUMNS = 16
_ROWS_LOOP = """\
    for ({index_t} i = first / cols, gid0 = i * cols; gid0 < end; ++i, gid0 += cols) {{
        const {index_t} j_begin = first > gid0 ? first - gid0 : 0;
        const {index_t} j_end = end - gid0 < cols ? end - gid0 : cols;
        for ({index_t} j = j_begin; j < j_end; ++j) {{
            const {index_t} gid = gid0 + j;
{body}        }}
    }}
"""
WALK_BY_ROWS = WALK.replace(_WALK_LOOP, (
    "    if (first >= end) return;\n    if (cols < {row_walk_columns}) {{\n"
    # (four more spaces on every line, after the slots that open it)
    + re.sub(r"^((?:\{\w+\})*)(?=.)", r"\1    ", _WALK_LOOP, flags=re.M)
    + "        return;\n    }}\n"
    + _ROWS_LOOP))
assert WALK_BY_ROWS != WALK

# CPU walks whose elements test affine predicates of their column (a concatenation's parts,
# a pad's borders, a view's edges): the column range cut into spans on which every predicate
# keeps its value, each walked by a loop where the predicates are constants. Per element,
# such a predicate made each guarded load a masked vector load, and AMD runs one whose
# masked-off lanes fall on unmapped pages (the other parts' addresses) as microcode: a 1-d
# concatenation of two 2^22 float64 arrays took 86-101 ms against NumPy's 10.5, with spans
# 7.5. Slots: ``span_predicates`` (each predicate at the span's first column, and the
# span's end pulled in to where one turns: ``SPAN_END``), ``body`` and ``row_body``
# (without the predicates; the flat fallback of ``WALK_BY_ROWS`` keeps ``flat_body``).
_SPANS_LOOP = """\
    for ({index_t} lo = first; lo < end; ) {{
        {index_t} hi = end;
{span_predicates}        for ({index_t} gid = lo; gid < hi; ++gid) {{
{index_setup}{body}        }}
        lo = hi;
    }}
"""
WALK_SPANS = WALK.replace(_WALK_LOOP, _SPANS_LOOP)
assert WALK_SPANS != WALK
_ROW_SPANS_LOOP = """\
    for ({index_t} i = first / cols, gid0 = i * cols; gid0 < end; ++i, gid0 += cols) {{
        const {index_t} j_begin = first > gid0 ? first - gid0 : 0;
        const {index_t} j_end = end - gid0 < cols ? end - gid0 : cols;
        for ({index_t} lo = j_begin; lo < j_end; ) {{
            {index_t} hi = j_end;
{span_predicates}            for ({index_t} j = lo; j < hi; ++j) {{
                const {index_t} gid = gid0 + j;
{row_body}            }}
            lo = hi;
        }}
    }}
"""
# Rows too short for a loop each (``cols < ROW_WALK_COLUMNS``) are walked flat; there, where
# no predicate depends on the column (``rows_only``: an n x 3 concatenation along rows), spans
# of whole rows (``row_span_predicates``, ``SPAN_ROWS_LIMIT``); else each element tests them.
_NARROW_SPANS = """\
        if ({rows_only}) {{
            const {index_t} rows_end = (end + cols - 1) / cols;
            for ({index_t} lo = first; lo < end; ) {{
                {index_t} hi = end;
                const {index_t} lo_i = lo / cols;
{row_span_predicates}                for ({index_t} gid = lo; gid < hi; ++gid) {{
{narrow_index_setup}{narrow_body}                }}
                lo = hi;
            }}
            return;
        }}
"""
WALK_BY_ROWS_SPANS = WALK_BY_ROWS.replace(_ROWS_LOOP, _ROW_SPANS_LOOP).replace(
    "{index_setup}{body}", "{index_setup}{flat_body}").replace(
    "    if (cols < {row_walk_columns}) {{\n",
    "    if (cols < {row_walk_columns}) {{\n" + _NARROW_SPANS)
assert "{row_body}" in WALK_BY_ROWS_SPANS and "{flat_body}" in WALK_BY_ROWS_SPANS
assert "{rows_only}" in WALK_BY_ROWS_SPANS

# ``WALK_TWICE`` in spans: each span walked through the fast trigonometric functions, then
# again through the general ones where an argument needed them. A 2-d grid (walked flat) has
# spans of whole rows where no predicate depends on the column (``rows_only``; the span's
# first row ``lo_i`` and the run's row end ``rows_end`` open ``span_predicates``), else its
# elements test them. ``body`` and ``body_twice`` without the predicates there;
# ``flat_body`` and ``flat_body_twice`` with them.
_TWICE_SPANS_LOOP = """\
    int weft_huge = 0;
    for ({index_t} lo = first; lo < end; ) {{
        {index_t} hi = end;
{span_predicates}{fast_macros}        for ({index_t} gid = lo; gid < hi; ++gid) {{
{index_setup}{body}        }}
{general_macros}        if (weft_huge) {{
            for ({index_t} gid = lo; gid < hi; ++gid) {{
{index_setup_twice}{body_twice}            }}
            weft_huge = 0;
        }}
        lo = hi;
    }}
"""
WALK_TWICE_SPANS = WALK.replace(_WALK_LOOP, _TWICE_SPANS_LOOP)
assert WALK_TWICE_SPANS != WALK
_TWICE_FLAT = WALK_TWICE[WALK_TWICE.index("    int weft_huge = 0;"):WALK_TWICE.rindex("}}")]
WALK_TWICE_ROWS_SPANS = WALK.replace(_WALK_LOOP, (
    "    if ({rows_only}) {{\n"
    + re.sub(r"^((?:\{\w+\})*)(?=.)", r"\1    ", _TWICE_SPANS_LOOP, flags=re.M).replace(
        "{index_setup", "{span_index_setup")
    + "        return;\n    }}\n"
    + _TWICE_FLAT.replace("{body}", "{flat_body}").replace("{body_twice}",
                                                            "{flat_body_twice}")))
WALK_TWICE_ROWS_SPANS = WALK_TWICE_ROWS_SPANS.replace(
    "        int weft_huge = 0;\n",
    "        int weft_huge = 0;\n        const {index_t} rows_end = (end + cols - 1) / cols;\n",
    1).replace("            {index_t} hi = end;\n",
               "            {index_t} hi = end;\n            const {index_t} lo_i = lo / cols;\n",
               1)
assert "{flat_body_twice}" in WALK_TWICE_ROWS_SPANS and "lo_i = lo / cols" in WALK_TWICE_ROWS_SPANS

# A predicate of a span (``AffinePredicate``, its offset ``d`` at the span's first column
# ``lo``), and where the span must end for it: the first column after ``lo`` at which
# ``d + k * (column - lo) >= t`` turns, for each threshold ``t`` the relation compares with.
SPAN_PREDICATE = """\
const {wide} {var}_d = {view}_0 + {view}_i * {row} + {view}_j * ({wide}){col};
const {bool} {var} = {test};
"""
SPAN_LIMIT = "hi = ({index_t})weft_span_end({var}_d, {view}_j, {threshold}, lo, hi);\n"
# The same over whole rows: the span ends where the first row on which it turns begins.
SPAN_ROWS_LIMIT = ("hi = ({index_t})weft_rows_end(weft_span_end({var}_d, {view}_i, {threshold}, "
                   "lo_i, rows_end), cols, hi);\n")
SPAN_ROWS_END = """\
{qualifier}{wide} weft_rows_end(const {wide} row, const {wide} cols, const {wide} hi) {{
    return row * cols < hi ? row * cols : hi;
}}
"""
SPAN_END = """\
{qualifier}{wide} weft_span_end(const {wide} d, const {wide} k, const {wide} t,
    const {wide} lo, const {wide} hi) {{
    {wide} turn = hi;
    if (k > 0 && d < t) turn = lo + (t - d + k - 1) / k;
    else if (k < 0 && d >= t) turn = lo + (d - t) / -k + 1;
    return turn < hi ? turn : hi;
}}
"""

SEVERAL_PER_THREAD = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} first = ({index_t}){group_id} * {span} + {local_id};
#pragma unroll
    for (int k = 0; k < {per_thread}; ++k) {{
        const {index_t} gid = first + k * {group};
        if (gid >= n) return;
{index_setup}{body}    }}
}}
"""

# A 32-bit division when the grid allows it: 64-bit division is slow on GPUs.
ROWS_AND_COLS = """\
    const {index_t} i = n <= 4294967295L ? ({index_t})(({u32})gid / ({u32})cols) : gid / cols;
    const {index_t} j = gid - i * cols;
"""

# The same division where every index is 32-bit (KernelIR.index32); unsigned, as it is cheaper.
ROWS_AND_COLS_32 = """\
    const {index_t} i = ({index_t})(({u32})gid / ({u32})cols);
    const {index_t} j = gid - i * cols;
"""

# The row without a division (``Variant.reciprocal_rows``, CPUs): the product with the
# reciprocal is within an ulp of gid / cols, so its truncation is the row or one less only
# where gid is a multiple of cols; the compare corrects it. (Every index is 32-bit here.)
ROWS_AND_COLS_RECIPROCAL = """\
    const {index_t} row_guess = ({index_t})((double)gid * (1.0 / (double)cols));
    const {index_t} i = row_guess + ((row_guess + 1) * cols <= gid);
    const {index_t} j = gid - i * cols;
"""

COLS_ONLY = """\
    const {index_t} i = 0;
    const {index_t} j = gid;
"""

TILED = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{tile_decls}{invariants}    const {index_t} rows = n / cols;
    const {index_t} tiles_across = (cols + {tile} - 1) / {tile};
    const {index_t} tile_i = ({index_t}){group_id} / tiles_across;
    const {index_t} tile_j = ({index_t}){group_id} - tile_i * tiles_across;
    const int tx = {local_id} % {tile};
    const int ty = {local_id} / {tile};
#pragma unroll
    for (int k = 0; k < {tile}; k += {tile_rows}) {{
        const {index_t} i = tile_i * {tile} + tx;
        const {index_t} j = tile_j * {tile} + ty + k;
        if (i < rows && j < cols) {{
{tile_loads}        }}
    }}
    {barrier};
#pragma unroll
    for (int k = 0; k < {tile}; k += {tile_rows}) {{
        const {index_t} i = tile_i * {tile} + ty + k;
        const {index_t} j = tile_j * {tile} + tx;
        const {index_t} gid = i * cols + j;
        if (i < rows && j < cols) {{
{body}        }}
    }}
}}
"""

TILE_DECL = "    {local} {storage} tile{m}[{tile}][{tile} + 1];\n"
TILE_LOAD = "            tile{m}[ty + k][tx] = {buffer}[{view}_off + i + j * {view}_s1];\n"
TILE_READ = "[tx][ty + k]"  # the element (i, j) of the block in the compute loop

# The tiles are indexed [column][row] in both skeletons: a copy reads the operand along its own
# rows into consecutive tile elements. (The padding column spreads a tile's column reads over
# cache sets on CPUs, as over banks on GPUs.)
TILE_WALK = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{tile_decls}{invariants}    const {index_t} rows = n / cols;
    const {index_t} tiles_across = (cols + {tile} - 1) / {tile};
    const {index_t} tile_i = ({index_t})({global_id}) / tiles_across;
    const {index_t} tile_j = ({index_t})({global_id}) - tile_i * tiles_across;
    const {index_t} i0 = tile_i * {tile};
    const {index_t} j0 = tile_j * {tile};
    const int tile_rows = (int)(rows - i0 < {tile} ? rows - i0 : {tile});
    const int tile_cols = (int)(cols - j0 < {tile} ? cols - j0 : {tile});
    for (int tj = 0; tj < tile_cols; ++tj) {{
        const {index_t} j = j0 + tj;
        for (int ti = 0; ti < tile_rows; ++ti) {{
            const {index_t} i = i0 + ti;
{tile_loads}        }}
    }}
    for (int ti = 0; ti < tile_rows; ++ti) {{
        const {index_t} i = i0 + ti;
        for (int tj = 0; tj < tile_cols; ++tj) {{
            const {index_t} j = j0 + tj;
            const {index_t} gid = i * cols + j;
{body}        }}
    }}
}}
"""

PRIVATE_TILE_DECL = "    {storage} tile{m}[{tile}][{tile} + 1];\n"
PRIVATE_TILE_LOAD = "            tile{m}[tj][ti] = {buffer}[{view}_off + i + j * {view}_s1];\n"
PRIVATE_TILE_READ = "[tj][ti]"

VECTOR = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} first = ({index_t})({global_id}) * {width};
    if (first >= n) return;
    if (first + {width} <= n && {aligned}) {{
{lanes}{vector_stores}    }} else {{
        for ({index_t} gid = first; gid < n && gid < first + {width}; ++gid) {{
{body}        }}
    }}
}}
"""

VECTOR_READ = "*({global_ptr}const {vtype}*)({buffer} + {view}_off + first)"
VECTOR_LOAD = "    const {vtype} q{m} = {read};\n"
VECTOR_STORE = "        *({global_ptr}{vtype}*)({buffer} + {view}_off + first) = {value};\n"
# A masked store: the whole vector where every element is selected, else element by element.
VECTOR_STORE_WHEN = """\
        if ({every}) {{
    {store}        }} else {{
{each}        }}
"""
LANE_STORE_WHEN = "            if ({when}) {buffer}[{view}_off + first + {c}] = {value};\n"
COMPONENTS = "xyzw"
