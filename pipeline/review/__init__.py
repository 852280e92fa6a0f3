"""Checking an alignment by eye: a self-contained HTML page (``page``) and the local
web app that takes a reviewer's decisions (``app``)."""
