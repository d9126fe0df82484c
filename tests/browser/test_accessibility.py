"""Axe-style checks (issue 13) on every MLPerf page of the demo data: each table header has
a scope, each form field a label, the page a language and a skip link to its content."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAGES = [
    "/",
    "/rounds/v2.0/",
    "/rounds/",
    "/results/?q=DGX+A100",
    "/leaderboard/v1.1/resnet/",
    "/results/training/v1.1/Graphcore/ipu-pod16-TF1/resnet/",
    "/runs/training/v1.1/Graphcore/ipu-pod16-TF1/resnet/result_1.txt/",
    "/systems/training/v1.1/Graphcore/ipu-pod16-TF1/",
    "/compare/",
    "/divisions/",
    "/api/",
    "/ingest/jobs/",
    "/inference/",
    "/inference/v5.1/",
    "/inference/v5.1/llama2-70b-99/Server/",
    "/inference/history/",
    "/inference/compare/",
    "/inference/v5.1/results/closed/AMD/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server/",
]

_CHECK = """() => {
  const out = [];
  document.querySelectorAll("th").forEach(th => {
    if (!["col", "row", "colgroup", "rowgroup"].includes(th.getAttribute("scope")))
      out.push("th without scope: " + th.outerHTML.slice(0, 80));
  });
  document.querySelectorAll("input, select, textarea").forEach(el => {
    if (el.type === "hidden" || el.type === "submit") return;
    const labelled = el.labels && el.labels.length > 0 || el.getAttribute("aria-label")
      || el.getAttribute("aria-labelledby");
    if (!labelled) out.push("field without label: " + el.outerHTML.slice(0, 80));
  });
  if (!document.documentElement.lang) out.push("no lang on <html>");
  const skip = document.querySelector("a.skip[href='#main']");
  if (!skip || !document.getElementById("main")) out.push("no skip link to #main");
  return out;
}"""


@pytest.mark.parametrize("path", PAGES)
def test_headers_have_scope_and_fields_have_labels(page, path):
    page.goto(path)
    assert page.page.evaluate(_CHECK) == []
    assert page.errors == []
    page.saved = True  # nothing to show beyond the pages' own screenshots
