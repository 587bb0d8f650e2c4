"""What the benchmark scripts share: where a device's results go.

>>> results_dir("gpu", "NVIDIA H100 80GB HBM3").name
'gpu-NVIDIA-H100-80GB-HBM3'
"""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def results_dir(kind: str, name: str) -> Path:
    """``results/<kind>-<name>`` for a device called ``name``: ``kind`` is ``gpu`` for the
    runs on a CUDA GPU (which time its OpenCL driver and the peers on the same card too), else
    the weft device's kind (``opencl`` for PoCL). Runs of other characters than letters,
    digits, ``_``, ``.`` and ``-`` become one ``-``, so one device has one folder whichever
    script measured it."""
    return RESULTS / re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{kind}-{name}").strip("-")
