"""Gazette editions: cut into their acts (``acts``, ``cut``), the treaties among them
(``treaties``), and what identifies a document (``identity``)."""
