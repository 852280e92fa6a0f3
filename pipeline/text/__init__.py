"""What text is, whatever the stage: line shapes, word lists, language evidence, and
Hindi typed in a legacy font. Knows nothing of the project's settings or stages."""
