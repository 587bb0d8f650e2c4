"""The row walk's skeletons (rowwalk.py). CPUs (``ROW_WALK``): one work-item per split of
the rows, which it walks ``ROWS_AT_ONCE`` rows at a time. For each block of rows: their
totals along the rows (one copy of the row loop's body per row and column of a step, each
in a block of its own), then the rows' own values, statement by statement for every row
side by side (stored, checked, summed, and kept for the column loop), then the rows' terms
of each column result added into the split's row of partial results in memory, together,
so that a partial row is read and written once per block and the rows are read from cache.
The rows after the last whole block go one at a time. GPUs (``ROW_WALK_TEAM``, below): teams
of lanes, each lane its columns in registers. A combining pass adds the splits.

The row totals are taken ``COLUMNS_AT_ONCE`` columns a step, each row and column its own
accumulator: one running total per row is a chain of dependent adds. On two Zen 4 cores a
hand-written kernel of this shape took a 5000 × 5000 float64 logistic GLM's value and
gradient in 12.9-14.3 ms, one row at a time in 18.0-18.4, against 22-26 ms for the row
reductions and the column reductions in passes of their own.
"""

ROWS_AT_ONCE = 4

ROW_WALK = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{invariants}    if ({local_id} != 0) return;
    const {index_t} split = {group_id};
    if (split >= splits) return;
    const {index_t} begin = split * chunk;
    const {index_t} end = begin + chunk < rows ? begin + chunk : rows;
{acc_init}    {index_t} i0 = begin;
    for (; i0 + {rows_at_once} <= end; i0 += {rows_at_once}) {{
{block}    }}
    for (; i0 < end; ++i0) {{
{single}    }}
{sum_writes}{epilogue}}}
"""
COLUMN_ACC_INIT = """\
    {global_ptr}{T}* acc{k} = {buffer} + {out}_off + split * {out}_split;
    for ({index_t} j = 0; j < cols; ++j) acc{k}[j] = {identity};
"""
SUM_INIT = "    {T} sum{k} = {identity};\n"
SUM_WRITE = "    {buffer}[{out}_off + split * {out}_split] = ({storage})sum{k};\n"
COLUMNS_AT_ONCE = 4  # row totals: columns a step, each (row, column) its own accumulator
TOTAL_INIT = "    {T} total{t}_{r}_{u} = {identity};\n"
ROW_LOOP = """\
    {index_t} j0 = 0;
    for (; j0 + {columns_at_once} <= cols; j0 += {columns_at_once}) {{
{copies}    }}
    for (; j0 < cols; ++j0) {{
{tail}    }}
{totals}"""
ROW_COPY = """\
        {{
            const {index_t} i = i0 + {r};
            const {index_t} j = j0 + {u};
            const {index_t} gid = i * cols + j;
{body}{adds}        }}
"""
TOTAL_ADD = "            total{t}_{r}_{u} = {combine};\n"
TOTAL = "    const {T} total{t}_{r} = {combine};\n"
EXPORT_DECL = "    {T} row{m}_{r};\n"
PER_ROW = """\
    {{
{rows_of}{body}{sums}{exports}    }}
"""
ROW_OF = "        const {index_t} i_{r} = i0 + {r};\n"
TOTAL_READ = "        const {T} {var} = total{t}_{r};\n"
SUM_ADD = "        sum{k} = {combine};\n"
EXPORT = "        row{m}_{r} = {var};\n"
COLUMN_LOOP = """\
    for ({index_t} j = 0; j < cols; ++j) {{
{values}{copies}{adds}    }}
"""
COLUMN_VALUE = "        {T} term{k}_{r};\n"
COLUMN_COPY = """\
        {{
            const {index_t} i = i0 + {r};
            const {index_t} gid = i * cols + j;
{imports}{body}{keeps}        }}
"""
IMPORT = "            const {T} {var} = row{m}_{r};\n"
KEEP = "            term{k}_{r} = {var};\n"
COLUMN_ADD = "        acc{k}[j] = {combine};\n"

# GPUs (CUDA, where warps shuffle): teams of ``team_lanes`` lanes filling a work-group,
# a team per split of the rows, which it walks one row at a time. Lane ``lane`` owns the
# columns ``lane + c * TEAM_LANES`` for ``c < lane_columns`` (compiled in): it adds its
# elements' terms of each row total, the warps combine theirs by shuffles and the team
# through a small array in work-group memory (two halves, by the step's parity, so one
# barrier a row suffices; the teams of a work-group take their steps together, a team past
# its last row idle), every lane computes the row's own values from the totals, and adds its
# columns' terms into accumulators in registers. Lane 0 stores, checks and sums the row's
# values. Each team then writes its row of partial results. Teams of 128 lanes, four to an
# SM, read a 100000 x 5000 float64 GLM's x at 1.05x the copy time in a hand-written kernel
# on the H200, teams of 256 at 1.41x (benchmarks/one_pass_glm.py).
TEAM_LANES = (128, 256)  # the narrower where its lanes hold their columns
ROW_WALK_TEAM = """\
{preamble}{helpers}{kernel_qualifier} {name}({params})
{{
{param_locals}{local_decls}{invariants}    const int lid = (int){local_id};
    const int team = lid / {team_lanes};
    const int lane = lid - team * {team_lanes};
    const {index_t} split = ({index_t}){group_id} * {teams} + team;
    const {index_t} begin = split * chunk;
    const {index_t} end = begin + chunk < rows ? begin + chunk : rows;
{acc_init}    for ({index_t} step = 0; step < chunk; ++step) {{
        const int active = begin + step < end;
        const {index_t} i = active ? begin + step : rows - 1;  // (an idle team reads a row)
{row_totals}        if (active) {{
{per_row}{column_terms}        }}
    }}
    if (split < splits) {{
{writes}    }}
}}
"""
TEAM_LOCAL = "    {local} {T} red{t}[{teams} * 2 * {warps}];\n"
TEAM_ACC_INIT = "    {T} acc{k}_{c} = {identity};\n"
TEAM_SUM_INIT = "    {T} sum{k} = {identity};\n"
TEAM_LANE_TOTAL = "        {T} part{t} = {identity};\n"
# A lane's column ``c``: a column past the row's end reads the last one (a branch around the
# loads would keep the compiler from issuing them together); the row totals leave it out,
# and its column result is never written. Each column's values keep names of their own
# (``v3_c``), so the column terms read the row from registers.
TEAM_POSITION = """\
        const {index_t} j_lane_{c} = lane + {c} * {team_lanes};
        const {index_t} j_{c} = j_lane_{c} < cols ? j_lane_{c} : cols - 1;
        const {index_t} gid_{c} = i * cols + j_{c};
"""
TEAM_LANE_ADD = "        if (j_lane_{c} < cols) part{t} = {combine};\n"
TEAM_SHUFFLE = "            {{ const {T} other = ({T}){shuffled}; part{t} = {combine}; }}\n"
TEAM_TOTALS = """\
        for (int o = 16; o > 0; o >>= 1) {{
{shuffles}        }}
        const int half = (team * 2 + (int)(step & 1)) * {warps};
        if ((lid & 31) == 0) {{
{spills}        }}
        {barrier};
{reads}"""
TEAM_SPILL = "            red{t}[half + (lane >> 5)] = part{t};\n"
TEAM_READ = "        {T} total{t} = red{t}[half];\n"
TEAM_READ_MORE = "        total{t} = {combine};\n"
TEAM_TOTAL_AS = "        const {T} {var} = total{t};\n"
TEAM_LANE_ZERO = """\
        if (lane == 0) {{
{body}        }}
"""
TEAM_SUM_ADD = "            sum{k} = {combine};\n"
TEAM_ACC_ADD = "            acc{k}_{c} = {combine};\n"
TEAM_WRITE = """\
        {{
            const {index_t} j = lane + {c} * {team_lanes};
            if (j < cols) {buffer}[{out}_off + split * {out}_split + j] = ({storage})acc{k}_{c};
        }}
"""
TEAM_SUM_WRITE = ("        if (lane == 0) {buffer}[{out}_off + split * {out}_split]"
                  " = ({storage})sum{k};\n")
