"""A run composed of the stages: each stage on one document (``stages``), what a run is
to do (``plan``), pairs across documents (``crossdoc``), and the run's report."""
