"""Stages 3 and 4: a document split by language (``languages``), each language
section cut into the treaty's units (``structure``) and its sentences (``sentences``)."""
