"""MLPerf Automotive (mlcommons/mlperf_automotive): the round's rules, pure.

``rules.py`` holds each round's tables as its submission checker writes them (models,
scenarios, accuracy targets, seeds, value keys, units, result IDs), each citing the
checker's file and function at the round's commit; ``checks.py`` judges one result
folder with them, as ``check_results_dir()`` does. The files are read by
``ingest/automotive/`` (LoadGen logs through the MLPerf Inference parsers: the round's
LoadGen is MLPerf Inference's, 5.0.15).
"""
