"""The project folder's state: outputs written atomically (``store``), the run catalog
(``catalog``), and the review decisions kept as source data (``decisions``)."""
