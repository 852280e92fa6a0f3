"""The `gazette` command line: a thin layer over the library (``pipeline``) and the
Prefect flows (``flows``). Nothing in the library imports it."""
