"""PoCL's builds without the standard header (backends/opencl/declarations.py): each declared
built-in function resolves to the library function the whole header's declaration reaches,
and weft's kernels build that way where they call only declared functions."""

from __future__ import annotations

import re

import numpy as np
import pytest

import weft as wf
from conftest import REAL_DEVICES
from weft.backends.opencl import declarations, pocl_builds

POCL = [d for d in REAL_DEVICES if d.kind == "opencl" and d.handle.platform == pocl_builds.POCL]
pytestmark = pytest.mark.skipif(not POCL, reason="needs a PoCL device")

_DECLARATION = re.compile(r"^(\w+) __attribute__\(\(overloadable, const\)\) (\w+)\(([^)]*)\);$")
# Arguments of each type: inside every declared function's domain or at a pole (a NaN or an
# infinity is a result to compare too).
_ARGUMENTS = {"float": ("0.75f", "2.5f", "-1.25f"), "double": ("0.75", "2.5", "-1.25"),
              "int": ("5", "3", "-7"), "uint": ("5u", "3u", "7u"), "long": ("5L", "3L", "-7L"),
              "ulong": ("5UL", "3UL", "7UL"), "char": ("(char)5", "(char)3", "(char)-7"),
              "uchar": ("(uchar)5", "(uchar)3", "(uchar)7"),
              "short": ("(short)5", "(short)3", "(short)-7"),
              "ushort": ("(ushort)5", "(ushort)3", "(ushort)7")}


def _calls() -> list[str]:
    """A call of every declared pure function, each overload, as a double."""
    calls = []
    for text in declarations.DECLARATIONS.values():
        for line in text.splitlines():
            match = _DECLARATION.match(line)
            if match is None:
                continue
            _result, name, params = match.groups()
            types = [p.strip() for p in params.split(",")]
            args = ", ".join(_ARGUMENTS["uint"][0] if name.startswith("get_") else
                             _ARGUMENTS[t][k] for k, t in enumerate(types))
            calls.append(f"(double){name}({args})")
    return calls


def _run(device, source: str, options: list[str], count: int) -> np.ndarray:
    cl = device.handle.cl
    context = device.handle.context
    program = cl.Program(context, source).build(options=options)
    queue = cl.CommandQueue(context, device.handle.device)
    out = np.zeros(count)
    buffer = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, out.nbytes)
    program.every_declaration(queue, (1,), (1,), buffer)
    cl.enqueue_copy(queue, out, buffer)
    queue.finish()
    return out


@pytest.mark.parametrize("device", POCL, ids=str)
def test_every_declared_function_computes_what_the_whole_header_s_does(device):
    calls = _calls()
    assert len(calls) > 200  # every overload of every pure function in the table
    body = "".join(f"    out[{k}] = {call};\n" for k, call in enumerate(calls))
    source = ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
              f"__kernel void every_declaration(__global double* out) {{\n{body}}}\n")
    lean = declarations.lean_source(source)
    assert lean is not None and lean.count("overloadable") > len(calls) // 2
    whole = _run(device, source, [], len(calls))
    skipped = _run(device, lean, [declarations.BUILD_OPTION], len(calls))
    differ = [call for call, a, b in zip(calls, whole, skipped, strict=True)
              if not (a == b or (np.isnan(a) and np.isnan(b)))]
    assert not differ
    assert np.isfinite(whole).sum() > len(calls) // 2  # the calls computed something


@pytest.mark.parametrize("device", POCL, ids=str)
def test_pocl_builds_weft_s_kernels_lean_and_they_compute_right(device):
    with wf.device(device):
        x = np.linspace(0.5, 4.0, 301)
        a = wf.asarray(x)
        got = np.asarray(wf.fmod(a * 3.0, 1.25) + wf.where(wf.isnan(a), 0.0, wf.floor(a)))
        source = wf.kernel_source(wf.fmod(a * 3.0, 1.25) + wf.floor(a))
    assert device.handle.lean_builds
    np.testing.assert_array_equal(got, np.fmod(x * 3.0, 1.25) + np.floor(x))
    # What wf.kernel_source shows is the kernel as generated, without the declarations.
    assert "get_global_id(uint);" not in source
    assert declarations.lean_source(source) is not None


def test_a_call_the_table_does_not_declare_takes_the_whole_header():
    source = "__kernel void k(__global int* a) { a[0] = convert_int_rte(1.5f) + abs(-2); }"
    assert declarations.called_builtins(source) == ({"abs"}, {"convert_int_rte"})
    assert declarations.lean_source(source) is None
    commented = "__kernel void k(__global int* a) { a[0] = 1; } // convert_int_rte(x)"
    assert declarations.lean_source(commented) is not None


@pytest.mark.parametrize("device", POCL, ids=str)
def test_pocl_s_disk_entries_hold_source_for_its_own_cache(device, monkeypatch, tmp_path,
                                                            disk_cache):
    from weft import cache, lower, realize

    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))
    folder = tmp_path / f"kernels-v{cache.CACHE_VERSION}"
    with wf.device(device):
        x = wf.asarray([1.0, 2.0, 4.0])
        out = realize.new_leaf(device, x._node)
        ir, *_ = lower.lower([((x * 3 - 1)._node, out)])
        cache.KernelCache().program(device, ir)
        (entry,) = folder.glob("*.bin")
        assert b"__kernel void" in entry.read_bytes()
        again = cache.KernelCache()  # a new process: built from the source PoCL has cached
        program = again.program(device, ir)
        assert again.stats["disk_hits"] == 1 and again.stats["compiles"] == 0
        assert program.name in program.program.kernel_names.split(";")
        np.testing.assert_array_equal((x * 3 - 1).to_numpy(), [2.0, 5.0, 11.0])
        monkeypatch.setenv("WEFT_OPENCL_KEEP_BINARIES", "1")
        assert not pocl_builds.leaves_binaries_to_pocl(device)
        before = set(folder.glob("*.bin"))
        other, *_ = lower.lower([((x * 5 + 1)._node, out)])
        cache.KernelCache().program(device, other)
    binaries = list(set(folder.glob("*.bin")) - before)
    assert len(binaries) == 1 and pocl_builds.recorded_source(binaries[0].read_bytes()) is None


@pytest.mark.parametrize("device", POCL, ids=str)
def test_a_failed_lean_build_says_whose_fault_it_is(device, monkeypatch):
    """A kernel that does not compile fails with the whole header's error (the line numbers
    of the source weft saves); one that compiles only with the whole header names the
    declarations."""
    cl = device.handle.cl

    def build(source: str) -> None:
        kernel, _ = device.backend.compile(device, source, "k", [], keep_binary=False)
        assert kernel.program is not None  # (with PoCL's companion, built at first use)

    broken = "__kernel void k(__global double* a) {\n    a[0] = fmod(1.0, 2.0) +;\n}\n"
    with pytest.raises((cl.Error, RuntimeError), match=r":2:\d+: error|:2:\d+:"):
        build(broken)
    monkeypatch.setitem(declarations.DECLARATIONS, "fmod",
                        "double __attribute__((overloadable, const)) fmod(double);\n")
    good = "__kernel void k(__global double* a) { a[0] = fmod(7.5, 2.0); }\n"
    with pytest.raises(RuntimeError, match="not with weft's declarations"):
        build(good)
