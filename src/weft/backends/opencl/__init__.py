"""OpenCL backend (PyOpenCL): any OpenCL device, PoCL on the CPU by default."""

from .backend import OpenCLBackend

BACKEND = OpenCLBackend()
