"""Statements that can fail inside a kernel: gathers and scatters with bounds checks, fused
argument checks. The first failing thread claims the error buffer with an atomic and records
(error number, row or index, column, value bits) in its launch's record, then sets the
slab's failure flag (``err_seen``), which the host may read without a copy; the host reads the
records later (``pending``).

Slots: ``claim`` (the dialect's atomic compare-and-swap on the first word of the launch's
record, ``err + err_off``), ``guard``.

A reduction's lanes loop over many elements. There a failing element is only remembered in
registers (``REMEMBER``, the first one per lane), and each lane reports once after its loop
(``REPORT_REMEMBERED``): an atomic inside the loop would keep the compiler from issuing the
unrolled loads together, which halves the bandwidth. An element's remembers go together after
its other statements, behind one test of whether any of its checks failed (``REMEMBER_ANY``):
alone, each costs a test and four moves on every element (H200, a float64 density of 2^26:
422 -> 402 us, 122 -> 84 registers; docs/tuning-notes.md, 22).
"""

REPORT = """\
    if ({condition} && {claim}) {{
        err[err_off + 1] = {error}; err[err_off + 2] = ({index_t}){a};
        err[err_off + 3] = ({index_t}){b}; err[err_off + 4] = ({index_t}){bits};
        err_seen[0] = 1;
    }}
"""

INDEX = """\
    const {index_t} {var}_raw = {value};
    const {index_t} {var} = {var}_raw < 0 ? {var}_raw + {extent} : {var}_raw;
"""

GATHER = """\
    const bool {var}_ok = {inside};
    const {T} {var} = ({guard}{var}_ok) ? {read} : ({T})0;
"""

SCATTER = """\
    if ({inside}) {target} = ({storage}){var};
"""

SCATTER_ADD = """\
    if ({inside}) {add}(&{target}, ({storage}){var});
"""

REMEMBERED_DECL = """\
    {index_t} err_code = -1, err_a = 0, err_b = 0, err_bits = 0;
"""

REMEMBER = """\
    if ({condition} && err_code < 0) {{
        err_code = {error}; err_a = ({index_t}){a}; err_b = ({index_t}){b};
        err_bits = ({index_t}){bits};
    }}
"""

REMEMBER_ANY = """\
    if ({failed}) {{
{remembers}    }}
"""

REPORT_REMEMBERED = """\
    if (err_code >= 0 && {claim}) {{
        err[err_off + 1] = err_code; err[err_off + 2] = err_a;
        err[err_off + 3] = err_b; err[err_off + 4] = err_bits;
        err_seen[0] = 1;
    }}
"""
