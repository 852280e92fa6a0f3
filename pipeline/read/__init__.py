"""Stage 1, read: find the documents in the inbox and read every page of each (text
layer, legacy font or OCR, decided page by page in ``pagedecision``)."""
