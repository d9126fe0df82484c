"""The claims domain's ingest side: fetching and reading vendor pages, storing their claims,
checking text (the check API and form), facts of stored results, and pins (the workbench).
The frames, rules, verdicts and pages are ``benchdb.claims``; the map from a page's bytes to
a stored verdict is in ARCHITECTURE.md."""
