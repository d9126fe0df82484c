"""MLPerf Mobile ingest: ``parsers/`` (pure) reads the LoadGen logs, the app's
``result.json`` and the systems files, and judges each result with
``benchdb.mlperf.mobile``; ``service.py`` runs the pipeline, ``store.py`` writes one
transaction per result."""
