"""Backends: each folder implements the protocol in base.py for one kind of device."""
