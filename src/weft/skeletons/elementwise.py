"""The element-wise kernel skeleton: one thread per element of a (rows, cols) grid.

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

ROWS_AND_COLS = """\
    const {index_t} i = gid / cols;
    const {index_t} j = gid - i * cols;
"""

COLS_ONLY = """\
    const {index_t} i = 0;
    const {index_t} j = gid;
"""
