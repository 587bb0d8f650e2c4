"""The element-wise kernel skeletons over a (rows, cols) grid: one element per thread, or
``per_thread`` elements per thread, ``group`` apart so that every load stays coalesced and
each thread has several loads in flight (GPUs need that to reach their memory bandwidth).

Named slots: ``preamble`` (extensions), ``helpers`` (device functions the ops need), ``name``,
``params``, ``index_setup`` (row/column split of the flat id, only when some access needs it)
and ``body`` (loads, ops and stores, one statement per line).
"""

ELEMENTWISE = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
    const {index_t} gid = {global_id};
    if (gid >= n) return;
{index_setup}{body}}}
"""

SEVERAL_PER_THREAD = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
    const {index_t} first = ({index_t}){group_id} * {span} + {local_id};
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

COLS_ONLY = """\
    const {index_t} i = 0;
    const {index_t} j = gid;
"""
