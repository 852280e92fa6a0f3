"""Wrappers for external programs, one module per program."""
