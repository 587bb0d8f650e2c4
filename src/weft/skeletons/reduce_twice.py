"""The CPU reduction skeletons walked in two passes where the body calls sin, cos or tan
(weft's own, skeletons/trig.py): the first pass through their fast versions, which skip the
huge-argument reduction (a select computed it for every element) and note an argument that
needs it in ``weft_huge``; only then are the part's accumulators reset (``acc_reset``) and
the part walked again through the general ones (render/frame.py ``walked_twice``; as
elementwise.WALK_TWICE). Extra slots: ``fast_macros`` and ``general_macros`` (the names sent
to each version), ``acc_reset``, and the second walk's slots, the first's indented once
more."""

from __future__ import annotations

from .reduce import REDUCE_COLS_BAND, REDUCE_COLS_CHUNKS, REDUCE_ROWS_BAND

# Rows bands: ``lanes_twice``, ``tail_body_twice``, ``tail_accumulate_twice``. A checked
# band's walks only note whether a check failed (``failed``, reset with the accumulators);
# the first failure is found after them, as in one pass.
_BAND_WALK = """\
    {index_t} j0 = begin;
    for (; j0 + {band} <= end; j0 += {band}) {{
{lanes}    }}
    for ({index_t} j = j0; j < end; ++j) {{
        const {index_t} gid = i * cols + j;
{tail_body}{tail_accumulate}    }}
"""
_BAND_WALK_AGAIN = """\
        j0 = begin;
        for (; j0 + {band} <= end; j0 += {band}) {{
{lanes_twice}        }}
        for ({index_t} j = j0; j < end; ++j) {{
            const {index_t} gid = i * cols + j;
{tail_body_twice}{tail_accumulate_twice}        }}
"""
REDUCE_ROWS_BAND_TWICE = REDUCE_ROWS_BAND.replace(
    _BAND_WALK, "    int weft_huge = 0;\n{fast_macros}" + _BAND_WALK
    + "{general_macros}    if (weft_huge) {{\n{acc_reset}" + _BAND_WALK_AGAIN + "    }}\n")
assert REDUCE_ROWS_BAND_TWICE != REDUCE_ROWS_BAND


# Columns bands: ``body_twice``, ``accumulate_twice``.
_COLS_BAND_WALK = """\
    if (width == {band}) {{
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
"""
_COLS_BAND_WALK_AGAIN = """\
        if (width == {band}) {{
            for ({index_t} i = begin; i < end; ++i) {{
                for (int u = 0; u < {band}; ++u) {{
                    const {index_t} j = j0 + u;
                    const {index_t} gid = i * cols + j;
{body_twice}{accumulate_twice}                }}
            }}
        }} else {{
            for ({index_t} i = begin; i < end; ++i) {{
                for (int u = 0; u < width; ++u) {{
                    const {index_t} j = j0 + u;
                    const {index_t} gid = i * cols + j;
{body_twice}{accumulate_twice}                }}
            }}
        }}
"""
REDUCE_COLS_BAND_TWICE = REDUCE_COLS_BAND.replace(
    _COLS_BAND_WALK, "    int weft_huge = 0;\n{fast_macros}" + _COLS_BAND_WALK
    + "{general_macros}    if (weft_huge) {{\n{acc_reset}" + _COLS_BAND_WALK_AGAIN + "    }}\n")
assert REDUCE_COLS_BAND_TWICE != REDUCE_COLS_BAND


# Columns by row chunks: the split's partial rows in memory are what ``acc_reset`` resets;
# ``row_values_twice``, ``row_copies_twice``, ``combined_twice``, ``body_twice``,
# ``accumulate_twice``.
_CHUNK_WALK = """\
    {index_t} i0 = begin;
    for (; i0 + {rows_at_once} <= end; i0 += {rows_at_once}) {{
        for ({index_t} j = 0; j < cols; ++j) {{
{row_values}{row_copies}{combined}        }}
    }}
    for ({index_t} i = i0; i < end; ++i) {{
        for ({index_t} j = 0; j < cols; ++j) {{
            const {index_t} gid = i * cols + j;
{body}{accumulate}        }}
    }}
"""
_CHUNK_WALK_AGAIN = """\
        i0 = begin;
        for (; i0 + {rows_at_once} <= end; i0 += {rows_at_once}) {{
            for ({index_t} j = 0; j < cols; ++j) {{
{row_values_twice}{row_copies_twice}{combined_twice}            }}
        }}
        for ({index_t} i = i0; i < end; ++i) {{
            for ({index_t} j = 0; j < cols; ++j) {{
                const {index_t} gid = i * cols + j;
{body_twice}{accumulate_twice}            }}
        }}
"""
REDUCE_COLS_CHUNKS_TWICE = REDUCE_COLS_CHUNKS.replace(
    _CHUNK_WALK, "    int weft_huge = 0;\n{fast_macros}" + _CHUNK_WALK
    + "{general_macros}    if (weft_huge) {{\n{acc_reset}" + _CHUNK_WALK_AGAIN + "    }}\n")
assert REDUCE_COLS_CHUNKS_TWICE != REDUCE_COLS_CHUNKS
