"""MLPerf Storage ingest: parsers (pure), the service and its writer."""
