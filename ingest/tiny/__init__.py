"""MLPerf Tiny ingest: ``parsers/`` (pure) reads the runner's files, systems files and
``summary.csv``, and judges each result folder with ``benchdb.mlperf.tiny``;
``service.py`` runs the pipeline, ``store.py`` writes one transaction per result."""
