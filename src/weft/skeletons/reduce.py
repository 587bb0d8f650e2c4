"""Reduction kernel skeletons: one whole template per kind, each readable top to bottom as
the kernel it becomes. GPUs: ``REDUCE_ROWS``, ``REDUCE_ROWS_VECTOR`` and ``REDUCE_COLS``, teams
of ``lanes`` threads, one team per (segment, split). CPUs: ``REDUCE_ROWS_BAND`` and
``REDUCE_COLS_BAND``, a work-item per band. The variants are whole blocks in slots: the team's
combining (``TREE`` or ``TREE_SHUFFLE``), the last group's ``FINISH``, the vector walk's last
vectors (``GUARDED_TAIL`` or ``SINGLE_TAIL``), a band's re-check walk. The remaining strings
are one result's lines in a per-result slot (an accumulator, its combining step, its store),
written for each result by ``render.reduce.Reductions.result_lines``.

``reduce_rows`` gives one result per row: a team walks its row's columns, interleaved
(adjacent lanes read adjacent elements: coalesced on GPUs) or, when ``contiguous`` is set
(CPUs), each lane a contiguous run, so one core streams through memory. ``reduce_cols``
gives one result per column: ``WG / lanes`` adjacent columns share a work-group, each lane
walks every ``lanes``-th row, so a warp reads consecutive addresses. A split walks one
``chunk`` of the reduced axis and writes a partial
result that a second, small pass combines. ``range`` narrows the walk to a triangular
structure, so a triangle costs what it stores.

Named slots: ``preamble helpers kernel_qualifier name params param_locals invariants`` as in the
element-wise skeleton; ``local_decls`` (one work-group array per result), ``split_span``
(``SPLIT_CHUNK`` or ``SPLIT_WOVEN``), ``lane_step`` (the element walk's), ``range``,
``acc_init``, ``body`` (loads, ops and element-wise stores for one element), ``accumulate``,
``tree``, ``write`` and ``finish`` (rows, one segment: the last work-group combines the
partial results); ``unrolled_body`` and ``unrolled_accumulate`` are the same, indented for the
main loop, which takes ``unroll`` elements per lane at a time with no bounds test between them,
so that their loads are issued together; a plain loop finishes the rest.

``REDUCE_ROWS_VECTOR`` walks rows ``width`` consecutive elements at a time: each walked operand
is read with one vector load per step (16 bytes: what float64 rows need to reach the memory
bandwidth, docs/tuning-notes.md 11), then the body runs once per element. The launch chooses it
only where every walked view starts each row on a vector boundary and a team's walk starts on
one (``chunk`` is a multiple of ``lanes * VECTOR_ALIGN``; on CPUs a lane's run is rounded up to
whole vectors). The unrolled loop issues all its vector loads before it uses any of them:
interleaved, the compiler kept only two in flight per operand (docs/tuning-notes.md, 11).
Where a lane's walk is short, its last vectors, fewer than an unrolled step, are loaded
together too, each under a guard (one at a time, they cost a memory latency each:
docs/tuning-notes.md, 12). A scalar loop takes the last elements of a row that fill no vector.
Extra slots: ``width``, ``column_t`` (the walk's column index type: ``int`` where rows allow),
``vector_decls`` (each walked operand's vectors for one unrolled step), ``row_bases`` (where
each walked operand's row starts), ``unrolled_vector_loads`` and ``unrolled_vector_body`` (the
loads of vector ``u``, then each statement once per element, ``j`` and ``gid`` of element
``c`` named ``j_c`` and ``gid_c``), and ``vector_tail`` (the last vectors: ``GUARDED_TAIL`` or
``SINGLE_TAIL``).
"""

WORK_GROUP = 256


def unroll_for(itemsize: int) -> int:
    """Elements a lane loads before it accumulates any of them: a GPU reaches its memory
    bandwidth only with about 32 bytes in flight per thread (docs/tuning-notes.md, 5)."""
    return 8 if itemsize <= 4 else 4

# Where a team's split of its row lies, and how far a lane steps in the element walk: a chunk
# of its own, or, woven (``KernelIR.woven``), the whole row, which every split's lanes walk
# together, so the groups in flight read neighbouring memory. A GPU weaves one row split
# over its groups when the row is walked element by element (a strided operand): H100,
# narrow GLM 89.0 -> 86.4 us (docs/tuning-notes.md, 17).
SPLIT_CHUNK = ("    {index_t} begin = split * chunk;\n"
               "    {index_t} end = begin + chunk < cols ? begin + chunk : cols;\n")
SPLIT_WOVEN = ("    {index_t} begin = split * lanes;\n"
               "    {index_t} end = cols;\n")
LANE_STEP = "contiguous ? 1 : lanes"
WOVEN_LANE_STEP = "splits * lanes"

# Rows on GPUs: a team of ``lanes`` work-items per (row, split). Its start finds the team,
# row and split, and the split's columns. Lane counts are powers of two up to the work-group
# size, so 32-bit arithmetic finds the team; a row that is one split needs no 64-bit division
# (on GPUs, tens of instructions: as much as a short row's loads per thread). Then each lane
# walks its elements, ``unroll`` at a time with no bounds test between them, and the team
# combines its lanes' values (``tree``) and writes the row's result.
REDUCE_ROWS = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{local_decls}{invariants}    const {index_t} lid = {local_id};
    const int team_lanes = (int)lanes;
    const {index_t} seg_local = (int)lid / team_lanes;
    const {index_t} lane = lid - seg_local * lanes;
    const {index_t} task = ({index_t}){group_id} * ({wg} / team_lanes) + seg_local;
    {index_t} i = task;
    {index_t} split = 0;
    if (splits > 1) {{
        i = task / splits;
        split = task - i * splits;
    }}
    const {index_t} segment = i;
    const {index_t} partner_step = 1;
{split_span}    if (i >= rows) end = begin;
{range}    {index_t} span = 1;
    if (contiguous) span = (end - begin + lanes - 1) / lanes;
    const {index_t} first = begin + lane * span;
    const {index_t} last = contiguous && first + span < end ? first + span : end;
    const {index_t} step = {lane_step};
{acc_init}    {index_t} j_next = first;
    for (; j_next + {unroll_less_one} * step < last; j_next += {unroll} * step) {{
#pragma unroll
        for (int u = 0; u < {unroll}; ++u) {{
            const {index_t} j = j_next + u * step;
            const {index_t} gid = i * cols + j;
{unrolled_body}{unrolled_accumulate}        }}
    }}
    for ({index_t} j = j_next; j < last; j += step) {{
        const {index_t} gid = i * cols + j;
{body}{accumulate}    }}
{tree}{write}{finish}}}
"""

# Rows on GPUs walking ``width`` consecutive elements per vector load (see the module): the
# same start as REDUCE_ROWS, then the vector walk, its last vectors and a scalar tail.
REDUCE_ROWS_VECTOR = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{local_decls}{invariants}    const {index_t} lid = {local_id};
    const int team_lanes = (int)lanes;
    const {index_t} seg_local = (int)lid / team_lanes;
    const {index_t} lane = lid - seg_local * lanes;
    const {index_t} task = ({index_t}){group_id} * ({wg} / team_lanes) + seg_local;
    {index_t} i = task;
    {index_t} split = 0;
    if (splits > 1) {{
        i = task / splits;
        split = task - i * splits;
    }}
    const {index_t} segment = i;
    const {index_t} partner_step = 1;
{split_span}    if (i >= rows) end = begin;
{range}    {index_t} span = 1;
    if (contiguous) span = ((end - begin + lanes - 1) / lanes + {width} - 1) / {width} * {width};
    const {index_t} first = begin + lane * span;
    const {index_t} last = contiguous && first + span < end ? first + span : end;
    const {index_t} step = contiguous ? 1 : lanes;
    const {column_t} vector_step = contiguous ? {width} : lanes * {width};
    const {index_t} walk_start = contiguous ? first : begin;
    const {index_t} walk = (contiguous ? last : end) - walk_start;
    const {column_t} vector_end = walk_start + (walk > 0 ? walk / {width} * {width} : 0);
{acc_init}{vector_decls}{row_bases}\
    {column_t} j_next = contiguous ? first : begin + lane * {width};
    for (; j_next + {unroll_less_one} * vector_step < vector_end;
         j_next += {unroll} * vector_step) {{
#pragma unroll
        for (int u = 0; u < {unroll}; ++u) {{
            const {column_t} j0 = j_next + u * vector_step;
            const {index_t} gid0 = i * cols + j0;
{unrolled_vector_loads}        }}
#pragma unroll
        for (int u = 0; u < {unroll}; ++u) {{
            const {column_t} j0 = j_next + u * vector_step;
            const {index_t} gid0 = i * cols + j0;
{unrolled_vector_body}        }}
    }}
{vector_tail}    for ({index_t} j = vector_end + (contiguous ? 0 : lane); j < last; j += step) {{
        const {index_t} gid = i * cols + j;
{body}{accumulate}    }}
{tree}{write}{finish}}}
"""
# The vector walk's last vectors, fewer than an unrolled step: loaded together under guards
# (``guarded_tail``), or one at a time.
GUARDED_TAIL = """\
    if (j_next < vector_end) {{
#pragma unroll
        for (int u = 0; u < {unroll_less_one}; ++u) {{
            const {column_t} j0 = j_next + u * vector_step;
            const {index_t} gid0 = i * cols + j0;
            if (j0 < vector_end) {{
{loads}            }}
        }}
#pragma unroll
        for (int u = 0; u < {unroll_less_one}; ++u) {{
            const {column_t} j0 = j_next + u * vector_step;
            const {index_t} gid0 = i * cols + j0;
            if (j0 < vector_end) {{
{body}            }}
        }}
    }}
"""
SINGLE_TAIL = """\
    for (; j_next < vector_end; j_next += vector_step) {{
        const int u = 0;
        const {column_t} j0 = j_next;
        const {index_t} gid0 = i * cols + j0;
{loads}{body}    }}
"""
# A team's walk starts on a multiple of this many elements (``chunk`` is rounded to it): the
# widest vector a rows reduction loads.
VECTOR_ALIGN = 4
# Bytes a lane has in flight from the operands it streams (those whose rows differ), per step
# of the vector walk's unrolled loop (at most 8 vectors each). H100, float64: a matrix-vector
# product 1382 us with 64, 1351 with 128 or more; a three-array density 573 us with 128 (two
# vectors each), 546 with 256 (five) (docs/tuning-notes.md, 11).
VECTOR_IN_FLIGHT = 256


def vector_unroll(streamed_bytes: int) -> int:
    """Vector steps per lane in the vector walk's unrolled loop, for operands that stream
    ``streamed_bytes`` per step."""
    return max(1, min(8, VECTOR_IN_FLIGHT // max(streamed_bytes, 1)))

# Per element of a vector step: its column and grid position.
VECTOR_ELEMENT = ("    const {index_t} j_{c} = j0 + {c};\n"
                  "    const {index_t} gid_{c} = gid0 + {c};\n")
VECTOR_DECL = "    {vtype} q{m}[{unroll}];\n"
VECTOR_WALK_LOAD = "    q{m}[u] = *({global_ptr}const {vtype}*)({buffer} + r{m} + j0);\n"
# Where a walked operand's row starts: its loads add only the column, a 32-bit index where rows
# allow. An offset, not a pointer: a pointer variable would lose the buffer's restrict in
# NVIDIA's OpenCL compiler (a float64 density 20% slower).
ROW_BASE = "    const {index_t} r{m} = {view}_off{row};\n"

REDUCE_COLS = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{local_decls}{invariants}    const {index_t} lid = {local_id};
    const {index_t} width = {wg} / lanes;
    const {index_t} lane = lid / width;
    const {index_t} seg_local = lid - lane * width;
    const {index_t} col_blocks = (cols + width - 1) / width;
    const {index_t} split = ({index_t}){group_id} / col_blocks;
    const {index_t} j = (({index_t}){group_id} - split * col_blocks) * width + seg_local;
    const {index_t} segment = j;
    const {index_t} partner_step = width;
    {index_t} begin = split * chunk;
    {index_t} end = begin + chunk < rows ? begin + chunk : rows;
    if (j >= cols) end = begin;
{range}{acc_init}    {index_t} i_next = begin + lane;
    for (; i_next + {unroll_less_one} * lanes < end; i_next += {unroll} * lanes) {{
#pragma unroll
        for (int u = 0; u < {unroll}; ++u) {{
            const {index_t} i = i_next + u * lanes;
            const {index_t} gid = i * cols + j;
{unrolled_body}{unrolled_accumulate}        }}
    }}
    for ({index_t} i = i_next; i < end; i += lanes) {{
        const {index_t} gid = i * cols + j;
{body}{accumulate}    }}
{tree}{write}}}
"""

# Columns on CPUs (``Variant.band``): each work-item owns ``band`` contiguous columns of one
# split of the rows, in private accumulators, and walks the split's rows; the loop over its
# columns is innermost, so each row's part is read contiguously and vectorizes. A full band's
# loop has a constant trip count, which the compiler vectorizes without a remainder (4096^2
# float64 sums 16.8 -> 8-10.7 ms; NumPy 7.7): only the last, partial band takes the other.
# No work-group tree: a work-item writes its columns' results itself.
REDUCE_COLS_BAND = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} item = {global_id};
    const {index_t} bands = (cols + {band} - 1) / {band};
    if (item >= bands * splits) return;
    const {index_t} split = item / bands;
    const {index_t} j0 = (item - split * bands) * {band};
    const {index_t} begin = split * chunk;
    const {index_t} end = begin + chunk < rows ? begin + chunk : rows;
    const int width = cols - j0 < {band} ? (int)(cols - j0) : {band};
{acc_init}    if (width == {band}) {{
        for ({index_t} i = begin; i < end; ++i) {{
            for (int u = 0; u < {band}; ++u) {{
                const {index_t} j = j0 + u;
                const {index_t} gid = i * cols + j;
{body}{accumulate}            }}
        }}
    }} else {{
        for ({index_t} i = begin; i < end; ++i) {{
            for (int u = 0; u < width; ++u) {{
                const {index_t} j = j0 + u;
                const {index_t} gid = i * cols + j;
{body}{accumulate}            }}
        }}
    }}
{report}    for (int u = 0; u < width; ++u) {{
        const {index_t} segment = j0 + u;
{stores}    }}
}}
"""
# Columns on CPUs by row chunks (``Variant.row_chunks``): a work-group per split of the rows,
# whose first work-item adds each of its rows, whole and in order, into the split's row of
# partial results in memory (the other work-items have nothing to do: a work-group runs on
# one core, and each split must be a work-group of its own). The loop over a row's columns
# is innermost and its accumulators are independent, so it vectorizes; a second pass adds
# the splits.
# Rows are added CHUNK_ROWS at a time: each copy of the body in a block of its own (its
# own ``i``), their values combined, then one read-modify-write of the partial row, which
# otherwise costs more than the element's load (4096^2 float32 column sums, 2 Xeon cores:
# 4.9 -> 2.8 ms with 4 rows at once; NumPy 12.4).
CHUNK_ROWS = 4
REDUCE_COLS_CHUNKS = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    if ({local_id} != 0) return;
    const {index_t} split = {group_id};
    if (split >= splits) return;
    const {index_t} begin = split * chunk;
    const {index_t} end = begin + chunk < rows ? begin + chunk : rows;
{acc_init}    {index_t} i0 = begin;
    for (; i0 + {rows_at_once} <= end; i0 += {rows_at_once}) {{
        for ({index_t} j = 0; j < cols; ++j) {{
{row_values}{row_copies}{combined}        }}
    }}
    for ({index_t} i = i0; i < end; ++i) {{
        for ({index_t} j = 0; j < cols; ++j) {{
            const {index_t} gid = i * cols + j;
{body}{accumulate}        }}
    }}
{scale}{report}}}
"""
CHUNK_ROW_COPY = """\
            {{
                const {index_t} i = i0 + {r};
                const {index_t} gid = i * cols + j;
{body}{keep}            }}
"""
CHUNK_ROW_VALUE = "            {T} row{k}_{r};\n"
CHUNK_KEEP = "                row{k}_{r} = {var};\n"
CHUNK_ACC_INIT = """\
    {global_ptr}{T}* acc{k} = {buffer} + {out}_off + split * {out}_split;
    for ({index_t} j = 0; j < cols; ++j) acc{k}[j] = {identity};
"""
CHUNK_ACCUMULATE = "            acc{k}[j] = {combine};\n"
CHUNK_ACC_RESET = "        for ({index_t} j = 0; j < cols; ++j) acc{k}[j] = {identity};\n"
CHUNK_RECHECK = """\
    if (failed) {{
        for ({index_t} i = begin; i < end; ++i) {{
            for ({index_t} j = 0; j < cols; ++j) {{
                const {index_t} gid = i * cols + j;
{body}            }}
        }}
    }}
"""

# Rows on CPUs (``Variant.band`` of a rows kernel): each work-item reduces one split of one
# row, ``band`` columns at a time into as many independent accumulators (a single running
# sum is a chain of dependent adds that cannot vectorize), then combines them. The band is
# written out as one copy of the body per column (``lanes``: ``j_c``, ``gid_c`` and every
# variable renamed, accumulating into ``acc{k}_c``): straight-line copies with consecutive
# loads are what the compiler's SLP vectorizer turns into vector code, where a loop over an
# accumulator array was left scalar (4096^2 row sums, 2 Xeon cores: float32 3.4-4.7 ->
# 2.1-2.7 ms, float64 8.0-9.5 -> 6.0-6.8), where the body reads along its row and is
# arithmetic and weft's own call-free math; ``BAND_LOOP`` otherwise. The last columns,
# fewer than a band, add into the first accumulator.
REDUCE_ROWS_BAND = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} item = {global_id};
    if (item >= rows * splits) return;
    const {index_t} i = item / splits;
    const {index_t} split = item - i * splits;
    const {index_t} segment = i;
    {index_t} begin = split * chunk;
    {index_t} end = begin + chunk < cols ? begin + chunk : cols;
{range}{acc_init}    {index_t} j0 = begin;
    for (; j0 + {band} <= end; j0 += {band}) {{
{lanes}    }}
    for ({index_t} j = j0; j < end; ++j) {{
        const {index_t} gid = i * cols + j;
{tail_body}{tail_accumulate}    }}
{totals}{report}{stores}{epilogue}}}
"""
# A rows band of one work-item: the element-wise step after it (``KernelIR.epilogue``), by
# that work-item once its results are stored, one element after another over the step's
# own grid (its ``i``, ``j`` and ``gid``).
EPILOGUE = """\
    for ({index_t} gid = 0; gid < epilogue_n; ++gid) {{
        const {index_t} i = gid / epilogue_cols;
        const {index_t} j = gid - i * epilogue_cols;
{body}    }}
"""
# The band as a loop over an accumulator array, for bodies that call weft's helper functions
# (special functions, random draws) or read across rows: there the compiler vectorizes the
# loop and not the copies (4096^2 normal draws summed by rows: 42 ms looped, 118 as copies;
# log1p_exp 17 and 80; a logistic log likelihood reading x's columns 10 apart 13.1 and 20.0).
BAND_LOOP = """\
        for (int u = 0; u < {band}; ++u) {{
            const {index_t} j = j0 + u;
            const {index_t} gid = i * cols + j;
{body}{accumulate}        }}
"""
BAND_TOTAL = ("    {T} total{k} = acc{k}[0];\n"
              "    for (int u = 1; u < {band}; ++u) total{k} = {combine};\n")
# A band's columns and positions are 64-bit: with 32-bit ones the compiler could not tell that
# ``b0[w0_off + gid_c]`` are consecutive across the band (a signed 32-bit sum, widened), and
# left the band scalar (4096^2 float32 row sums 9.0 -> 4.6 ms; float64 11.6 -> 6.9).
BAND_ROW_START = "        const {wide} gid0 = ({wide})i * cols + j0;\n"
BAND_COLUMN = "        const {wide} j_{c} = ({wide})j0 + {c};\n"
BAND_POSITION = "        const {wide} gid_{c} = gid0 + {c};\n"
BAND_LANE_ACC_INIT = "    {T} acc{k}_{c} = {identity};\n"
BAND_LANE_ACCUMULATE = "    acc{k}_{c} = {combine};\n"
BAND_TAIL_ACCUMULATE = "        {acc} = {combine};\n"  # the last columns: the first accumulator
BAND_LANE_TOTAL = "    const {T} total{k} = {tree};\n"
# A band's fused checks: the walk notes whether any failed; a work-item that saw one walks its
# part again, remembering the first failure (each element's conditional record would keep
# the walk from vectorizing: a logistic GLM's log density, 10^6 rows, went 25 -> 5 ms).
BAND_FAILED_DECL = "    int failed = 0;\n"
BAND_FAILED = "    failed = failed | ({failed});\n"
BAND_RECHECK_ROWS = """\
    if (failed) {{
        for ({index_t} j = begin; j < end; ++j) {{
            const {index_t} gid = i * cols + j;
{body}        }}
    }}
"""
BAND_RECHECK_COLS = """\
    if (failed) {{
        for ({index_t} i = begin; i < end; ++i) {{
            for (int u = 0; u < width; ++u) {{
                const {index_t} j = j0 + u;
                const {index_t} gid = i * cols + j;
{body}            }}
        }}
    }}
"""
BAND_ACC_INIT = ("    {T} acc{k}[{band}];\n"
                 "    for (int u = 0; u < {band}; ++u) acc{k}[u] = {identity};\n")
BAND_ACCUMULATE = "            acc{k}[u] = {combine};\n"

# The walk's range within a structure, per mode (lower: column <= row, upper: row <= column).
RANGES = {
    ("reduce_rows", "lower"): "    if (end > i + 1) end = i + 1;\n",
    ("reduce_rows", "upper"): "    if (begin < i) begin = i;\n",
    ("reduce_rows", "diagonal"):
        "    if (begin < i) begin = i;\n    if (end > i + 1) end = i + 1;\n",
    ("reduce_cols", "lower"): "    if (begin < j) begin = j;\n",
    ("reduce_cols", "upper"): "    if (end > j + 1) end = j + 1;\n",
    ("reduce_cols", "diagonal"):
        "    if (begin < j) begin = j;\n    if (end > j + 1) end = j + 1;\n",
}

LOCAL_DECL = "    {local} {storage} red{k}[{wg}];\n"

ACC_INIT = "    {T} acc{k} = {identity};\n"
ACC_INIT_COMPENSATED = "    {T} acc{k} = {identity};\n    {T} comp{k} = 0;\n"

ACCUMULATE = "        acc{k} = {combine};\n"
# Kahan: keep the rounding error of each addition; an infinite sum has none to keep.
ACCUMULATE_COMPENSATED = """\
        {{
            const {T} y = {var} - comp{k};
            const {T} t = acc{k} + y;
            comp{k} = isfinite(t) ? (t - acc{k}) - y : ({T})0;
            acc{k} = t;
        }}
"""

TREE_START = "    red{k}[lid] = ({storage})acc{k};\n"
TREE = """\
    {barrier};
    for ({index_t} s = lanes >> 1; s > 0; s >>= 1) {{
        if (lane < s) {{
{combines}        }}
        {barrier};
    }}
"""
# Rows on a dialect with warp shuffles (CUDA): each warp combines in registers, then the first
# lane of a team combines its warps' results; the team's result ends in red[lid] for WRITE.
TREE_SHUFFLE = """\
    const int shuffle_width = lanes < 32 ? (int)lanes : 32;
    for (int o = shuffle_width >> 1; o > 0; o >>= 1) {{
{shuffles}    }}
    if (lanes > 32) {{
        if ((lid & 31) == 0) {{
{spills}        }}
        {barrier};
        if (lane == 0) {{
            for ({index_t} w = 1; w < (lanes >> 5); ++w) {{
{gathers}            }}
        }}
    }}
    if (lane == 0) {{
{finals}    }}
"""
SHUFFLE = "        {{ const {T} other{k} = ({T}){shuffled}; acc{k} = {combine}; }}\n"
SPILL = "            red{k}[lid >> 5] = ({storage})acc{k};\n"
GATHER = ("                {{ const {T} other{k} = {read}; acc{k} = {combine}; }}\n")
FINAL = "        red{k}[lid] = ({storage})acc{k};\n"

TREE_COMBINE = """\
            const {T} lhs{k} = {read_a};
            const {T} rhs{k} = {read_b};
            red{k}[lid] = ({storage}){combine};
"""

WRITE = """\
    if (lane == 0 && segment < {segments}) {{
{stores}    }}
"""
WRITE_ONE = ("        {buffer}[{out}_off + segment * {out}_seg + split * {out}_split]"
             " = ({storage}){value};\n")

# One segment's partial results combined by the last work-group to finish (dialects with
# ``last_group_add``): every group orders its partial result's write before counting itself
# done (a fence, or the add's own release); the group that counts last reads the partials
# (volatile: written by other groups during this launch), reduces them with the same tree,
# writes the final value and resets the counter for the queue's next launch. ``fence`` is a
# whole line or empty. A work-item loads FINISH_LOADS partials before combining them: volatile
# loads used one by one wait a memory latency each.
FINISH_LOADS = 4
FINISH = """\
    {local} int last_group;
{fence}    {barrier};
    if (lid == 0) last_group = {counted} == ({index_t}){group_count} - 1;
    {global_barrier};
    if (last_group) {{
{acc_reset}        for ({index_t} p = lid; p < splits; p += {loads} * {wg}) {{
{gathers}        }}
{tree}        if (lid == 0) {{
{stores}            *{counter} = 0;
        }}
    }}
"""
ACC_RESET = "        acc{k} = {identity};\n"
PARTIAL = "((volatile {global_ptr}{storage}*){buffer})[{view}_off + {p} * {view}_split]"
LOAD_PARTIAL = "            const {T} other{k}_{b} = {p} < splits ? {read} : {identity};\n"
COMBINE_PARTIAL = "            acc{k} = {combine};\n"
FINAL_STORE = "            {buffer}[{view}_off] = ({storage}){value};\n"
