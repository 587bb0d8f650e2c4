"""Scan kernel skeletons: the passes of a scan or an arg-reduction along rows (``ir.SCAN``),
whole templates with named slots.

A row is cut into ``splits`` splits of ``chunk`` elements; a task is one (row, split). A
long row takes three passes (scan_kernels.py): each split's total (``totals``), the
exclusive scan of the totals along each row (the carries: the same skeleton over the
totals, one split per row), and each element's running value from its split's carry. A row
that is one split takes the last pass alone.

``SERIAL``: each task is walked by one work-item, element after element (CPUs, and GPU
rows too short to fill a work-group). On CPUs a work-group's first work-item alone walks,
a task per group (``BY_GROUPS``): PoCL runs a work-group on one core, so tasks spread over
the cores only as groups; on GPUs every work-item takes tasks (``BY_ITEMS``).

``TILED`` (GPUs): a work-group walks its task a tile of ``tile`` elements at a time. The
tile is loaded coalesced into work-group memory (padded one element in 32 so a thread's
run of ``per_thread`` consecutive elements sits in distinct banks), each thread scans its
run in registers, the work-group scans the runs' totals (``group_scan``: warp shuffles
where the dialect has them, else Hillis and Steele's doubling in work-group memory), each
thread writes its run back from its prefix, and the tile is stored coalesced; the tile's
total carries into the next tile. A totals pass on GPUs is a plain work-group reduction
(``TILED_TOTALS``). ``BANDS``: down the columns of a row-major array. ``ARG_*``: argmax and
argmin, a (value, position) pair per task.

Slots: ``preamble helpers kernel_qualifier name params param_locals invariants`` as the
element-wise skeleton; ``T`` (the computation type), ``identity``, ``body`` (the statements
computing the walk's element ``(i, j)``, at grid position ``gid``) and ``value`` (its
variable, in ``T``), ``combine_acc`` (``acc`` combined with ``x``), ``carry_init``, ``emit``
(an element's step: ``STEP_INCLUSIVE``, ``STEP_EXCLUSIVE`` or ``STEP_TOTAL``),
``task_span`` (``ROW_TASK``, ``GROUP_TASK`` or ``BAND_TASK``: where the task lies),
``finish`` (a totals pass's store of ``acc``), ``task_loop``; the tiled skeleton's
``local``, ``barrier``, ``local_id``, ``group_id``, ``wg``, ``tile``, ``per_thread``,
``combine(a, b)`` texts named in the template, and ``write_back``.
"""

# A task's row ``i`` and split, and the split's columns [begin, end): where a work-item
# walks (``ROW_TASK``, indented into its loop) or a work-group (``GROUP_TASK``, the group's).
ROW_TASK = """\
const {index_t} i = task / splits;
const {index_t} split = task - i * splits;
const {index_t} begin = split * chunk;
const {index_t} end = begin + chunk < cols ? begin + chunk : cols;
"""
GROUP_TASK = "const {index_t} task = {group_id};\n" + ROW_TASK
# A band's first column ``i0`` and its ``width`` (the last band may be narrower), its split
# of the rows [begin, end).
BAND_TASK = """\
const {index_t} split = task / bands;
const {index_t} i0 = (task - split * bands) * {band};
const int width = rows - i0 < {band} ? (int)(rows - i0) : {band};
const {index_t} begin = split * chunk;
const {index_t} end = begin + chunk < cols ? begin + chunk : cols;
"""

BY_GROUPS = ("    if ({local_id} != 0) return;\n"
             "    for ({index_t} task = {group_id}; task < {tasks}; task += {group_count})\n")
BY_ITEMS = ("    for ({index_t} task = {global_id}; task < {tasks};\n"
            "         task += ({index_t}){group_count} * {wg})\n")

SERIAL = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}{task_loop}    {{
{task_span}        {T} acc = {carry_init};
        for ({index_t} j = begin; j < end; ++j) {{
            const {index_t} gid = i * cols + j;
{body}            const {T} x = {value};
{emit}        }}
{finish}    }}
}}
"""
# Down columns (``scan_band``): a task is a band of ``band`` adjacent columns (the walk's
# rows ``i0`` on) and one split of the rows, walked row by row with an accumulator per
# column, so each row's part is read and written contiguously (CPUs: it vectorizes; GPUs,
# a band of one: adjacent work-items read adjacent columns). The tasks' bands vary fastest.
BANDS = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} bands = (rows + {band} - 1) / {band};
{task_loop}    {{
{task_span}        {T} accs[{band}];
        for (int u = 0; u < width; ++u) {{
            const {index_t} i = i0 + u;
            accs[u] = {carry_init};
        }}
        for ({index_t} j = begin; j < end; ++j) {{
            for (int u = 0; u < width; ++u) {{
                const {index_t} i = i0 + u;
                const {index_t} gid = i * cols + j;
{body}                const {T} x = {value};
                {T} acc = accs[u];
{emit}                accs[u] = acc;
            }}
        }}
{band_finish}    }}
}}
"""
BAND_FINISH_TOTAL = """\
        for (int u = 0; u < width; ++u) {part}[(i0 + u) * splits + split] = ({storage})accs[u];
"""
BAND_CARRY_READ = "{carry}[i * splits + split]"

# One element's step in the serial walk: its running value before or after it, or (totals)
# none.
STEP_INCLUSIVE = ("            acc = {combine_acc};\n"
                  "            {dst}[dst_off + i * dst_s0 + j * dst_s1] = ({storage})acc;\n")
STEP_EXCLUSIVE = ("            {dst}[dst_off + i * dst_s0 + j * dst_s1] = ({storage})acc;\n"
                  "            acc = {combine_acc};\n")
STEP_TOTAL = "            acc = {combine_acc};\n"
FINISH_TOTAL = "        {part}[task] = ({storage})acc;\n"

CARRY_READ = "{carry}[task]"

TILED = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    {local} {T} tile[{tile} + {tile} / 32];
    {local} {T} sums[{wg}];
    const int lid = (int){local_id};
{task_span}    const int first = lid * {per_thread};
    {T} carry = {carry_init};
    for ({index_t} j0 = begin; j0 < end; j0 += {tile}) {{
        for (int k = 0; k < {per_thread}; ++k) {{
            const int p = k * {wg} + lid;
            const {index_t} j = j0 + p;
            {T} x = {identity};
            if (j < end) {{
                const {index_t} gid = i * cols + j;
{body}                x = {value};
            }}
            tile[p + (p >> 5)] = x;
        }}
        {barrier};
        {T} run[{per_thread}];
        {T} acc = {identity};
        for (int k = 0; k < {per_thread}; ++k) {{
            const int p = first + k;
            const {T} x = tile[p + (p >> 5)];
            acc = {combine_acc};
            run[k] = acc;
        }}
{group_scan}        const {T} before = {combine_before};
{write_back}        {barrier};
{store}        carry = {combine_carry};
        {barrier};
    }}
{finish}}}
"""
# The work-group's scan of its threads' run totals ``acc``: each thread's ``preceding``
# (the combination of the runs before its own) and the ``tile_total``. ``GROUP_SCAN_TREE``:
# Hillis and Steele's doubling in work-group memory (two barriers a step);
# ``GROUP_SCAN_SHUFFLE`` (dialects with warp shuffles): each warp scans in registers, one warp
# scans the warps' totals, two barriers in all.
GROUP_SCAN_TREE = """\
        sums[lid] = acc;
        {barrier};
        for (int s = 1; s < {wg}; s <<= 1) {{
            const {T} earlier = lid >= s ? sums[lid - s] : {identity};
            {barrier};
            const {T} mine = sums[lid];
            sums[lid] = {combine_earlier};
            {barrier};
        }}
        const {T} preceding = lid > 0 ? sums[lid - 1] : {identity};
        const {T} tile_total = sums[{wg} - 1];
"""
GROUP_SCAN_SHUFFLE = """\
        const int lane = lid & 31;
        {T} mine = acc;
        for (int o = 1; o < 32; o <<= 1) {{
            const {T} earlier = {shuffle_mine};
            if (lane >= o) mine = {combine_earlier};
        }}
        const {T} before_in_warp = {shuffle_one};
        if (lane == 31) sums[lid >> 5] = mine;
        {barrier};
        if (lid < 32) {{
            mine = lid < {warps} ? sums[lid] : {identity};
            for (int o = 1; o < {warps}; o <<= 1) {{
                const {T} earlier = {shuffle_mine};
                if (lane >= o) mine = {combine_earlier};
            }}
            if (lid < {warps}) sums[lid] = mine;
        }}
        {barrier};
        const {T} warp_before = lid >= 32 ? sums[(lid >> 5) - 1] : {identity};
        const {T} in_warp = lane > 0 ? before_in_warp : {identity};
        const {T} preceding = {combine_warp};
        const {T} tile_total = sums[{warps} - 1];
"""
# Each thread's run back into the tile: each element's running value from the thread's
# prefix ``before``, after the element (inclusive) or before it (exclusive).
WRITE_INCLUSIVE = """\
        for (int k = 0; k < {per_thread}; ++k) {{
            const int p = first + k;
            const {T} x = run[k];
            tile[p + (p >> 5)] = {combine_before_x};
        }}
"""
WRITE_EXCLUSIVE = """\
        for (int k = 0; k < {per_thread}; ++k) {{
            const int p = first + k;
            const {T} x = k > 0 ? run[k - 1] : {identity};
            tile[p + (p >> 5)] = {combine_before_x};
        }}
"""
TILE_STORE = """\
        for (int k = 0; k < {per_thread}; ++k) {{
            const int p = k * {wg} + lid;
            const {index_t} j = j0 + p;
            if (j < end) {dst}[dst_off + i * dst_s0 + j * dst_s1] = ({storage})tile[p + (p >> 5)];
        }}
"""
# A totals pass on GPUs: a work-group's reduction of its task, each thread combining the
# elements ``wg`` apart (coalesced), then the threads' values in work-group memory.
TILED_TOTALS = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    {local} {T} sums[{wg}];
    const int lid = (int){local_id};
{task_span}    {T} acc = {identity};
    for ({index_t} j = begin + lid; j < end; j += {wg}) {{
        const {index_t} gid = i * cols + j;
{body}        const {T} x = {value};
        acc = {combine_acc};
    }}
    sums[lid] = acc;
    {barrier};
    for (int s = {wg} / 2; s > 0; s >>= 1) {{
        if (lid < s) {{
            const {T} mine = sums[lid];
            const {T} other = sums[lid + s];
            sums[lid] = {combine_other};
        }}
        {barrier};
    }}
    if (lid == 0) {part}[task] = ({storage})sums[0];
}}
"""


# Arg-reductions (``argmax``/``argmin`` along rows): the same tasks, each keeping the best
# element's value ``best`` and position ``best_at`` (-1: none yet); ``better`` says whether
# ``x`` at ``at`` replaces them (walked in order: strictly better, or the first NaN), and
# ``take_other`` whether a pair from elsewhere in the row (``other``, ``other_at``) does
# (better, or as good and earlier). ``value`` and ``position`` are the walk's element's (the
# first pass) or a first-pass pair (``combining``). ``emit_best``: the totals' pair, or the
# position into the destination.
ARG_SERIAL = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}{task_loop}    {{
{task_span}        {T} best = {identity};
        long best_at = -1;
        for ({index_t} j = begin; j < end; ++j) {{
            const {index_t} gid = i * cols + j;
{body}            const {T} x = {value};
            const long at = {position};
            if (best_at < 0 || {better}) {{
                best = x;
                best_at = at;
            }}
        }}
{emit_best}    }}
}}
"""
# CPUs: a task's walk keeps ``lanes`` best values, element ``j`` in lane ``j % lanes``, so
# the lanes' updates are independent selects and vectorize. A lane keeps the block of its
# best element (an int), not its position: each lane starts at its first element (block 0)
# with the op's identity, so no "none yet" test is needed per element; the positions are
# made once, when the lanes are combined (2 Xeon cores, 2^22 float32: 2.0 -> 0.96 ms, float64
# 3.3 -> 1.3, NumPy's argmax 1.3 and 2.9).
ARG_LANES = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}{task_loop}    {{
{task_span}        {T} bests[{lanes}];
        int blocks[{lanes}];
        for (int u = 0; u < {lanes}; ++u) {{
            bests[u] = {identity};
            blocks[u] = 0;
        }}
        const int full = (int)((end - begin) / {lanes});
        for (int block = 0; block < full; ++block) {{
            for (int u = 0; u < {lanes}; ++u) {{
                const {index_t} j = begin + ({index_t})block * {lanes} + u;
                const {index_t} gid = i * cols + j;
{body}{keep_block_in_loop}            }}
        }}
        for (int u = 0; begin + ({index_t})full * {lanes} + u < end; ++u) {{
            const int block = full;
            const {index_t} j = begin + ({index_t})block * {lanes} + u;
            const {index_t} gid = i * cols + j;
{tail_body}{keep_block}        }}
        {T} best = {identity};
        long best_at = -1;
        for (int u = 0; u < {lanes}; ++u) {{
            const {index_t} j = begin + ({index_t})blocks[u] * {lanes} + u;
            if (j >= end) continue;  /* a lane the task's elements do not reach */
            const {T} other = bests[u];
            const long other_at = {position};
            if (best_at < 0 || {take_other}) {{
                best = other;
                best_at = other_at;
            }}
        }}
{emit_best}    }}
}}
"""
# A lane's step in ARG_LANES: keep the better of its value and element ``x`` (``replaces``:
# strictly better, or the first NaN), and the block it came from.
ARG_KEEP_BLOCK = """\
            const {T} x = {value};
            const {T} best = bests[u];
            const int take = {replaces};
            bests[u] = take ? x : best;
            blocks[u] = take ? block : blocks[u];
"""
# Down columns (``scan_band``, as ``BANDS``): a pair per column of the band.
ARG_BANDS = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} bands = (rows + {band} - 1) / {band};
{task_loop}    {{
{task_span}        {T} bests[{band}];
        long bests_at[{band}];
        for (int u = 0; u < {band}; ++u) {{
            bests[u] = {identity};
            bests_at[u] = -1;
        }}
        for ({index_t} j = begin; j < end; ++j) {{
            for (int u = 0; u < width; ++u) {{
                const {index_t} i = i0 + u;
                const {index_t} gid = i * cols + j;
{body}{keep_lane_best}            }}
        }}
        for (int u = 0; u < width; ++u) {{
            const {index_t} i = i0 + u;
            const {T} best = bests[u];
            const long best_at = bests_at[u];
{emit_best}        }}
    }}
}}
"""
# Down columns on GPUs (``scan_band`` 1): a column per work-item, its walk counting steps
# in an int and keeping the step of its best element (the first, until another replaces
# it), so each element costs a load, a compare and two selects; unrolled, several loads
# are in flight per work-item.
ARG_COLUMN = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    const {index_t} bands = rows;
{task_loop}    {{
{task_span}        if (i0 < rows) {{
            const {index_t} i = i0;
            {T} best = {identity};
            int best_k = 0;
            const int steps = (int)(end - begin);
            #pragma unroll 4
            for (int k = 0; k < steps; ++k) {{
                const {index_t} j = begin + k;
                const {index_t} gid = i * cols + j;
{body}                const {T} x = {value};
                const int take = {replaces};
                best = take ? x : best;
                best_k = take ? k : best_k;
            }}
            const {index_t} j = begin + best_k;
            const long best_at = steps > 0 ? {position} : -1;
{emit_best}        }}
    }}
}}
"""
# A lane's step in ARG_BANDS: keep the better of its pair and element ``x`` (selects, not a
# branch: the lanes vectorize).
ARG_KEEP_LANE = """\
                const {T} x = {value};
                const long at = {position};
                const {T} best = bests[u];
                const long best_at = bests_at[u];
                const int take = best_at < 0 || {better};
                bests[u] = take ? x : best;
                bests_at[u] = take ? at : best_at;
"""
ARG_TILED = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    {local} {T} bests[{wg}];
    {local} long bests_at[{wg}];
    const int lid = (int){local_id};
{task_span}    {T} best = {identity};
    int best_k = 0;  /* the walk's step of the best element: its first, until another */
    const int steps = begin + lid < end ? (int)((end - begin - lid + {wg} - 1) / {wg}) : 0;
    for (int k = 0; k < steps; ++k) {{
        const {index_t} j = begin + lid + ({index_t})k * {wg};
        const {index_t} gid = i * cols + j;
{body}        const {T} x = {value};
        const int take = {replaces};
        best = take ? x : best;
        best_k = take ? k : best_k;
    }}
    long best_at = -1;
    if (steps > 0) {{
        const {index_t} j = begin + lid + ({index_t})best_k * {wg};
        best_at = {position};
    }}
    bests[lid] = best;
    bests_at[lid] = best_at;
    {barrier};
    for (int s = {wg} / 2; s > 0; s >>= 1) {{
        if (lid < s) {{
            const {T} other = bests[lid + s];
            const long other_at = bests_at[lid + s];
            best = bests[lid];
            best_at = bests_at[lid];
            if (other_at >= 0 && (best_at < 0 || {take_other})) {{
                bests[lid] = other;
                bests_at[lid] = other_at;
            }}
        }}
        {barrier};
    }}
    if (lid == 0) {{
        best = bests[0];
        best_at = bests_at[0];
{emit_best}    }}
}}
"""
ARG_EMIT_PAIR = ("        part[i * splits + split] = ({storage})best;\n"
                 "        part_at[i * splits + split] = best_at;\n")
ARG_EMIT_POSITION = "        if (i < rows) dst[dst_off + i * dst_s0] = best_at;\n"
