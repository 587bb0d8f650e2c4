"""Reference backend: a NumPy interpreter of kernel IR, the oracle for tests."""

from .backend import ReferenceBackend

BACKEND = ReferenceBackend()
