"""Where results go, and how they read: one results folder per device, one table per kind
of suite, one plot per kind.

Every suite writes ``results/<device>/<stem>.json`` (``{"meta": ..., "records": [...]}``),
``<stem>.txt`` (its table) and, with matplotlib, ``<stem>.png``.

>>> results_dir("gpu", "NVIDIA H100 80GB HBM3").name
'gpu-NVIDIA-H100-80GB-HBM3'
"""

from __future__ import annotations

import datetime
import json
import math
import platform
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

RESULTS = Path(__file__).parent / "results"


def results_dir(kind: str, name: str) -> Path:
    """``results/<kind>-<name>`` for a device called ``name``: ``kind`` is ``gpu`` for runs on
    a machine with a CUDA GPU (which time its OpenCL driver and the peers on the same card
    too), else the weft device's kind (``opencl`` for PoCL). Runs of other characters than
    letters, digits, ``_``, ``.`` and ``-`` become one ``-``, so one device has one folder."""
    return RESULTS / re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{kind}-{name}").strip("-")


def meta(title: str, **more: Any) -> dict[str, Any]:
    return {"device": title, "date": datetime.date.today().isoformat(),
            "host": platform.processor() or platform.machine(),
            "python": platform.python_version(), "numpy": np.__version__, **more}


def write(folder: Path, stem: str, info: dict[str, Any], records: list[dict], text: str
          ) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.json").write_text(json.dumps({"meta": info, "records": records},
                                                    indent=1))
    notes = "".join(f"\nskipped: {s}" for s in info.get("skipped", []))
    notes += "".join(f"\nnot measured: {k}: {v}" for k, v in info.get("not_measured",
                                                                        {}).items())
    (folder / f"{stem}.txt").write_text(f"{info['device']}, {info['date']}\n{text}\n{notes}\n")


def merged(folder: Path, stem: str, records: list[dict]) -> list[dict]:
    """``records`` after the earlier records of ``stem`` that this run did not measure (one
    suite split over several calls of the same machine)."""
    path = folder / f"{stem}.json"
    if not path.exists():
        return records
    measured = {_key(r) for r in records}
    old = [r for r in json.loads(path.read_text())["records"] if _key(r) not in measured]
    return old + records


def _key(r: dict) -> tuple:
    return (r.get("case"), r.get("impl"), r.get("dtype"), r.get("n"))


# Tables ---------------------------------------------------------------------------------


def _ms(value: float) -> str:
    return f"{value:10.4f}" if value < 10 else f"{value:10.2f}"


def throughput_table(records: list[dict]) -> str:
    """One row per (case, dtype, n, implementation): ms, GB/s, the fraction of the device's
    copy rate, and how weft compares with the best peer (or NumPy on a CPU)."""
    best: dict[tuple, float] = {}
    numpy_ms: dict[tuple, float] = {}
    for r in records:
        key = (r["case"], r["dtype"], r["n"])
        if r["impl"] == "numpy":
            numpy_ms[key] = r["ms"]
        if not r["impl"].startswith(("weft", "device")) and r["case"] != "copy":
            best[key] = min(best.get(key, math.inf), r["ms"])
    lines = [f"{'case':<26} {'dtype':<8} {'n':>10} {'impl':<14} {'ms':>10} {'GB/s':>8} "
             f"{'of copy':>8} {'best peer/this':>15}"]
    for r in records:
        key = (r["case"], r["dtype"], r["n"])
        peer = best.get(key)
        ratio = f"{peer / r['ms']:14.2f}x" if peer and r["impl"].startswith("weft") else ""
        gbps = f"{r['gbps']:8.1f}" if r.get("gbps") else f"{'':8}"
        frac = f"{r['frac_copy']:8.2f}" if r.get("frac_copy") else f"{'':8}"
        lines.append(f"{r['case']:<26} {r['dtype']:<8} {r['n']:>10} {r['impl']:<14} "
                     f"{_ms(r['ms'])} {gbps} {frac} {ratio:>15}")
    return "\n".join(lines)


def rounds_table(records: list[dict]) -> str:
    """Per case, the implementations fastest first: ms (the median of rounds) and its middle
    half, GB/s, and the ratio to the best hand-written kernel (else to the fastest)."""
    lines = []
    for case in dict.fromkeys((r["case"], r["dtype"], r["n"]) for r in records):
        rows = sorted((r for r in records if (r["case"], r["dtype"], r["n"]) == case),
                      key=lambda r: r["ms"])
        hand = [r["ms"] for r in rows if r["impl"].startswith("hand")]
        base, against = (min(hand), "best hand") if hand else (rows[0]["ms"], "fastest")
        lines += [f"\n{case[0]}, {case[1]}, n = {case[2]}",
                  f"{'impl':<16} {'ms':>10} {'GB/s':>8}   {'vs ' + against:<12}"
                  f" middle half (ms)"]
        for r in rows:
            lines.append(f"{r['impl']:<16} {_ms(r['ms'])} {r['gbps']:8.1f}   "
                         f"{r['ms'] / base:<12.3f} {r['ms_q1']:.4f}-{r['ms_q3']:.4f}")
    return "\n".join(lines)


def chains_table(records: list[dict]) -> str:
    """Fused against one kernel per operation, per chain and device: the speedup and its
    bound (the ratio of bytes moved)."""
    lines = [f"{'chain':<16} {'impl':<12} {'fused ms':>9} {'unfused ms':>11} {'speedup':>8} "
             f"{'bound':>6}"]
    unfused = {(r["case"], r["dtype"]): r["ms"] for r in records
               if r["impl"] == "weft-unfused"}
    for r in records:
        if r["impl"] == "weft-unfused" or (r["case"], r["dtype"]) not in unfused:
            continue
        slow = unfused[(r["case"], r["dtype"])]
        lines.append(f"{r['case']:<16} {r['impl']:<12} {r['ms']:9.3f} {slow:11.3f} "
                     f"{slow / r['ms']:8.2f} {r.get('bound') or 0:6.2f}")
    return "\n".join(lines)


def overhead_table(records: list[dict]) -> str:
    """µs per call (median of rounds; fastest round), a column per implementation."""
    names = list(dict.fromkeys(r["impl"] for r in records))
    lines = ["µs per call, Python included (median of rounds; fastest round)", "",
             "| case | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for case in dict.fromkeys(r["case"] for r in records):
        row = {r["impl"]: r for r in records if r["case"] == case}
        cells = [f"{1e3 * row[n]['ms']:.1f} ({1e3 * row[n]['ms_min']:.1f})" if n in row
                 else "—" for n in names]
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def compile_table(records: list[dict]) -> str:
    lines = [f"{'case':<16} {'impl':<14} {'ms':>10}"]
    lines += [f"{r['case']:<16} {r['impl']:<14} {r['ms']:10.1f}" for r in records]
    return "\n".join(lines)


def dask_table(records: list[dict]) -> str:
    lines = ["kind      gpus  n        chunk    tasks  ms        GB/s"]
    for r in records:
        lines.append(f"{r['kind']:<9} {r['gpus']:>4}  2^{int(np.log2(r['n'])):<6} "
                     f"2^{int(np.log2(r['chunk'])):<6} {r['tasks']:>5}  {r['ms']:8.1f}  "
                     f"{r['gbps']:6.1f}")
    return "\n".join(lines)


TABLES: dict[str, Callable[[list[dict]], str]] = {
    "throughput": throughput_table, "rounds": rounds_table, "chains": chains_table,
    "overhead": overhead_table, "compile": compile_table, "dask": dask_table}


# Plots ----------------------------------------------------------------------------------


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def bars_plot(plt: Any, records: list[dict], title: str) -> Any:
    """GB/s per case and implementation, a panel per dtype; dashed: the device's copy."""
    rows = [r for r in records if r.get("gbps") and r["case"] != "copy"]
    dtypes = list(dict.fromkeys(r["dtype"] for r in rows))
    fig, axes = plt.subplots(len(dtypes), 1, figsize=(13, 4 * len(dtypes)), squeeze=False)
    for ax, dtype in zip(axes[:, 0], dtypes):
        sub = [r for r in rows if r["dtype"] == dtype]
        cases = list(dict.fromkeys(r["case"] for r in sub))
        impls = list(dict.fromkeys(r["impl"] for r in sub))
        width = 0.8 / max(len(impls), 1)
        for k, impl in enumerate(impls):
            vals = [next((r["gbps"] for r in sub if r["case"] == c and r["impl"] == impl), 0)
                    for c in cases]
            ax.bar(np.arange(len(cases)) + k * width, vals, width, label=impl)
        for r in records:
            if r["case"] == "copy" and r["dtype"] == dtype and r["impl"] == "device":
                ax.axhline(r["gbps"], color="grey", ls="--", lw=0.8)
        ax.set_xticks(np.arange(len(cases)) + 0.4 - width / 2)
        ax.set_xticklabels(cases, fontsize=8)
        ax.set_ylabel(f"GB/s, {dtype}")
        ax.legend(fontsize=7, ncol=4)
    axes[0, 0].set_title(f"{title} (dashed: device copy)")
    return fig


def chains_plot(plt: Any, records: list[dict], title: str) -> Any:
    """The fused speedup against k, with its bound, per chain form and device."""
    unfused = {(r["case"], r["dtype"]): r["ms"] for r in records
               if r["impl"] == "weft-unfused"}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, form in zip(axes, ("scalar", "array")):
        rows = [r for r in records if r["case"].startswith(form)
                and r["impl"] != "weft-unfused" and (r["case"], r["dtype"]) in unfused]
        ks = sorted({int(r["case"].split()[-1]) for r in rows})
        bounds = {int(r["case"].split()[-1]): r.get("bound") for r in rows}
        ax.plot(ks, [bounds[k] for k in ks], "k--", label="bytes ratio (bound)")
        for impl in dict.fromkeys(r["impl"] for r in rows):
            pts = [r for r in rows if r["impl"] == impl]
            ax.plot([int(r["case"].split()[-1]) for r in pts],
                    [unfused[(r["case"], r["dtype"])] / r["ms"] for r in pts], "o-",
                    label=impl)
        ax.set_xlabel("operations in the chain (k)")
        ax.set_ylabel("fused speedup over fuse=False")
        ax.set_title(f"{form} chain")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    return fig


def dask_plot(plt: Any, records: list[dict], title: str) -> Any:
    """Strong and weak scaling (time against GPUs) and the cost per task against chunk."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for kind, style in (("strong", "o-"), ("weak", "s--")):
        rows = sorted((r for r in records if r["kind"] == kind), key=lambda r: r["gpus"])
        left.plot([r["gpus"] for r in rows], [r["ms"] for r in rows], style,
                  label=f"{kind} scaling")
    strong = sorted((r for r in records if r["kind"] == "strong"), key=lambda r: r["gpus"])
    if strong:
        left.plot([r["gpus"] for r in strong],
                  [strong[0]["ms"] / r["gpus"] for r in strong], "k:", label="ideal strong")
    left.set_xlabel("GPUs (one Dask worker each)")
    left.set_ylabel("ms per evaluation")
    left.legend()
    left.grid(alpha=0.3)
    rows = [r for r in records if r["kind"] == "overhead"]
    right.loglog([r["chunk"] for r in rows], [r["us_per_task"] for r in rows], "o-")
    right.set_xlabel("elements per chunk")
    right.set_ylabel("µs per task (2^26 elements, 1 GPU)")
    right.grid(alpha=0.3)
    fig.suptitle(title)
    return fig


PLOTS = {"bars": bars_plot, "chains": chains_plot, "dask": dask_plot}


def plot(kind: str, records: list[dict], path: Path, title: str) -> bool:
    """Draw ``kind`` into ``path``; False when matplotlib is missing or nothing to draw."""
    plt = _pyplot()
    if plt is None or not records:
        return False
    fig = PLOTS[kind](plt, records, title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
