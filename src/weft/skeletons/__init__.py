"""C text of kernels: skeletons with named slots and device helper functions."""
