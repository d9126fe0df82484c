"""Pure parsers of MLPerf Storage files (DLIO summary.json, configs, reports, systems)."""
