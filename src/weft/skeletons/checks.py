"""Statements that can fail inside a kernel: gathers and scatters with bounds checks, fused
argument checks. The first failing thread claims the error buffer with an atomic and records
(error number, row or index, column, value bits); the host reads it after the kernel.

Slots: ``claim`` (the dialect's atomic compare-and-swap on the first word), ``guard``.
"""

REPORT = """\
    if ({condition} && {claim}) {{
        err[1] = {error}; err[2] = (long){a}; err[3] = (long){b}; err[4] = (long){bits};
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
