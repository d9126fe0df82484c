"""MLPerf Storage: rules (``rules.py``, pure), schemas, reads and pages of the suite."""
