"""benchdb: MLPerf results and the claims made about them (Django project and app).

Empty on purpose: importing a pure module (``benchdb.vocabulary``, a suite's rules)
loads this package first, and it must load neither Django nor Celery. The Celery app
is ``benchdb.celery`` (``celery -A benchdb`` finds it; web processes load it in
``BenchdbConfig.ready``).
"""
