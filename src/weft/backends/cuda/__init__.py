"""CUDA backend (through CuPy). Only the dialect exists yet; the backend is a later issue."""
