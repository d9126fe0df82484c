"""MLPerf Tiny (mlcommons/tiny_results_v1.2, _v1.3): the round's rules, pure.

``rules.py`` holds what the round's submission checker reads from the runner's files
(``results.txt`` of ``performance``, ``accuracy``, ``energy``) and what the final report
makes of it (latency = 1000 / median throughput, result IDs), each citing
``mlcommons/tiny`` ``tools/submission/`` at the round's commit; ``checks.py`` judges one
result folder with them. The files are read by ``ingest/tiny/``; results are stored in
Inference's tables (round suite ``tiny``).
"""
