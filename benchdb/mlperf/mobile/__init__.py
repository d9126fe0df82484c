"""MLPerf Mobile (mlcommons/mobile_results_v4.0, _v4.1, _v5.0): the round's rules, pure.

``rules.py`` holds the rounds (mlcommons/mobile_app_open tag of each), the tasks and the
app's throughput formula; ``checks.py`` judges one result with them. The files are read
by ``ingest/mobile/``; results are stored in Inference's tables (round suite ``mobile``).
"""
