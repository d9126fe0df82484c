/* benchdb: the compare tray (issue 23). Results ticked in any leaderboard or table are
   kept in localStorage, one list per suite (training, inference, hpc), so that a result
   ticked on one page is still picked on the next; the bar at the bottom of every page
   lists them and opens the compare page of their suite with them, the first picked
   as the baseline. The page's own form (#compare-form, data-tray = its suite) still
   works without this script. No inline JS; every label is set as text, never as HTML. */
(function () {
  "use strict";

  var KEY = "benchdb.compare-tray";
  var SUITES = {training: "Training", inference: "Inference", hpc: "HPC"};
  var MAX = 20;

  function load() {
    try {
      var t = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return t && typeof t === "object" ? t : {};
    } catch (e) {
      return {};
    }
  }

  function save(tray) {
    try { window.localStorage.setItem(KEY, JSON.stringify(tray)); } catch (e) { /* private mode */ }
  }

  function items(tray, suite) {
    var list = Array.isArray(tray[suite]) ? tray[suite] : [];
    return list.filter(function (i) { return i && /^[0-9]+$/.test(String(i.id)); });
  }

  function describe(box) {
    // The row's result: its link (td.sys a) and the board the page shows.
    var row = box.closest("tr");
    var link = row && (row.querySelector("td.sys a") || row.querySelector("a[href^='/']"));
    var form = box.form;
    var board = form ? form.getAttribute("data-board") || "" : "";
    var href = link ? link.getAttribute("href") : "";
    var own = box.getAttribute("data-label");  // a round table's cell names itself
    if (own) {
      var cell = box.parentNode && box.parentNode.querySelector("a[href^='/']");
      href = cell ? cell.getAttribute("href") : "";
    }
    return {
      id: String(box.value),
      label: (own || (link ? link.textContent.trim() : "result " + box.value)) + (board ? " · " + board : ""),
      url: href && href.charAt(0) === "/" && href.charAt(1) !== "/" ? href : ""
    };
  }

  function toggle(tray, suite, item, on) {
    var list = items(tray, suite).filter(function (i) { return String(i.id) !== item.id; });
    if (on) { list.push(item); }
    tray[suite] = list.slice(-MAX);
    save(tray);
  }

  function compareUrl(bar, suite, list) {
    var base = bar.getAttribute("data-compare-" + suite) || "";
    return base + "?ids=" + encodeURIComponent(list.map(function (i) { return i.id; }).join(","));
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }

  function render(bar, tray) {
    bar.textContent = "";
    var shown = 0;
    Object.keys(SUITES).forEach(function (suite) {
      var list = items(tray, suite);
      if (!list.length) { return; }
      shown += 1;
      var group = el("div", "tray-group");
      group.setAttribute("data-suite", suite);
      group.appendChild(el("strong", "", "Compare tray · " + SUITES[suite] + ":"));
      list.forEach(function (item, n) {
        var chip = el("span", "chip");
        var name = item.url ? el("a", "", item.label) : el("span", "", item.label);
        if (item.url) { name.href = item.url; }
        chip.appendChild(name);
        if (n === 0) { chip.appendChild(el("em", "", " (baseline)")); }
        var drop = el("button", "drop", "\u00d7");
        drop.type = "button";
        drop.setAttribute("aria-label", "remove " + item.label + " from the compare tray");
        drop.addEventListener("click", function () {
          toggle(tray, suite, {id: String(item.id)}, false);
          sync(tray);
        });
        chip.appendChild(drop);
        group.appendChild(chip);
      });
      if (list.length > 1) {
        var go = el("a", "tray-compare", "Compare " + list.length);
        go.href = compareUrl(bar, suite, list);
        group.appendChild(go);
      } else {
        group.appendChild(el("span", "muted small", "tick one more to compare"));
      }
      var clear = el("button", "tray-clear small", "empty");
      clear.type = "button";
      clear.addEventListener("click", function () { tray[suite] = []; save(tray); sync(tray); });
      group.appendChild(clear);
      bar.appendChild(group);
    });
    bar.hidden = shown === 0;
  }

  function sync(tray) {
    var bar = document.getElementById("compare-tray");
    document.querySelectorAll("input[type=checkbox][name=ids][form]").forEach(function (box) {
      var suite = box.form && box.form.getAttribute("data-tray");
      if (!suite) { return; }
      box.checked = items(tray, suite).some(function (i) { return String(i.id) === box.value; });
    });
    if (bar) { render(bar, tray); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var tray = load();
    var form = document.getElementById("compare-form");
    var suite = form && form.getAttribute("data-tray");
    var boxes = document.querySelectorAll("input[type=checkbox][name=ids][form='compare-form']");
    if (suite) {
      // Rows the URL's tray (?ids=) ticked on the server join the stored tray.
      boxes.forEach(function (box) {
        var known = items(tray, suite).some(function (i) { return String(i.id) === box.value; });
        if (box.checked && !known) { toggle(tray, suite, describe(box), true); }
      });
      boxes.forEach(function (box) {
        box.addEventListener("change", function () {
          toggle(tray, suite, describe(box), box.checked);
          sync(tray);
        });
      });
      form.addEventListener("submit", function (ev) {
        // Every result of the suite's tray, in the order picked, not only this page's.
        var list = items(tray, suite);
        var bar = document.getElementById("compare-tray");
        if (list.length > 1 && bar) {
          ev.preventDefault();
          window.location.assign(compareUrl(bar, suite, list));
        }
      });
    }
    sync(tray);
  });
})();
