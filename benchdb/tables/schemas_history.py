"""Column specs of the history tables (issue 26): ``/changes/`` (one row per version of
a published result) and ``/ids/`` (one row per result ID and source), in the
``name | type | description`` form of :mod:`benchdb.tables.schemas`, which registers them
in ``SCHEMAS``. Pure: no Django."""

from __future__ import annotations

CHANGES_SPEC = """
seen | string | when benchdb recorded the change (ISO 8601, UTC)
suite | string | "training", "hpc" or "inference"
round | string | round version, e.g. "v5.1"
submitter | string | submitter folder of the result (inference: "<division>/<submitter>")
path | string | the result folder in its round's repository (the key that outlives the row)
kinds | string | kinds of change, "; "-joined: withdrawn, moved-to-open, renamed, restored,
    value, status, id, division, availability, submitter, system, links, files
changes | string | each change as "field: old -> new", "; "-joined
commit | string | source commit of the new state ("" for a plain folder)
commit_before | string | source commit of the previous state ("" when unknown)
committed | string | the commit's date (ISO 8601; back-filled versions only, else "")
origin | string | "ingest" (an ingest or sync saw it) or "backfill" (the repository's git history)
claims | string | claims checked again after it: "claim <id>: <verdict before> -> <verdict>",
    "; "-joined
url | string | path of the result page ("" when the result was never stored here)
"""

IDS_SPEC = """
result_id | string | the MLPerf result ID, e.g. "5.1-0088"
suite | string | "training", "hpc" or "inference"
round | string | round version
origin | string | "summary_results.json", "imported", "vendor-cited", "derived", "cited" (a vendor
    page cites it; no stored result carries it) or "former" (a result carried it before a change)
source | string | where it was read: "summary_results.json at <commit>", the citing page's URL,
    the rule, or the change that replaced it
result | string | the result folder it names ("" when none is known)
url | string | path of the result page, or of the citing claim ("" when none)
"""

#: Table name -> spec (registered as ``benchdb.<name>/1``).
SPECS = {"changes": CHANGES_SPEC, "result_ids": IDS_SPEC}
