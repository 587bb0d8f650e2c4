"""CUDA backend (CuPy + NVRTC): the optional ``cuda`` extra, the default device when CuPy sees
a GPU."""

from .backend import CUDABackend

BACKEND = CUDABackend()
