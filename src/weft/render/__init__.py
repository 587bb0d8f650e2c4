"""Rendering: a kernel's IR, its launch variant and a dialect → C source.

``frame.py`` is the renderer's frame (parameters, statements from the op table, the helpers
a kernel needs) and the element-wise skeletons; ``reduce.py`` writes the reduction skeletons
into that frame; ``lanes.py`` copies a statement for each element of a vector (an IR
rewrite); ``text.py`` has the C literals and indentation both use. The skeletons'
text is in ``weft.skeletons``.

>>> import weft as wf
>>> from weft.backends.opencl.dialect import OPENCL
>>> from weft.compiler import Target, compile, temporary_leaf
>>> x = wf.asarray([1.0, 2.0], device="reference")
>>> (kernel,) = compile([((x * 2)._node, temporary_leaf((2,), x.dtype))],
...                     Target(OPENCL, wf.target.Traits())).kernels
>>> "__kernel void weft_multiply" in render(kernel.ir, OPENCL, True, kernel.variant)[0]
True
"""

from .frame import Renderer, render

__all__ = ["Renderer", "render"]
