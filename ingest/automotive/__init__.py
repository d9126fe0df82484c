"""MLPerf Automotive ingest, pure part: ``parsers.py`` reads a round's tree (through the
MLPerf Inference readers) and ``summary_results.json``; ``records.py`` judges every
result with ``benchdb.mlperf.automotive`` and gives plain records for a store."""
