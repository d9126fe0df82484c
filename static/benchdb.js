/* benchdb: draw the Plotly figures a page embeds (json_script), open a result when
   one of its points is clicked, and keep filter forms' URLs short. No inline JS. */
(function () {
  "use strict";

  function openPoint(ev) {
    var p = ev && ev.points && ev.points[0];
    var url = p && p.customdata && (Array.isArray(p.customdata) ? p.customdata[0] : p.customdata);
    // Only this site's own paths: customdata holds a result's permalink.
    if (typeof url === "string" && url.charAt(0) === "/" && url.charAt(1) !== "/") {
      window.location.assign(url);
    }
  }

  function draw(el) {
    var holder = document.getElementById(el.getAttribute("data-figure"));
    if (!holder || !window.Plotly) { return; }
    var fig = JSON.parse(holder.textContent);
    window.Plotly.newPlot(el, fig.data, fig.layout, {responsive: true, displaylogo: false}).then(function () {
      el.on("plotly_click", openPoint);
      linkRows(el);
      el.setAttribute("data-drawn", "1");
      // A chart drawn before its grid column or the scrollbar settled kept the old
      // width and was cut at the right: follow the element's own size.
      var width = el.clientWidth;
      if (window.ResizeObserver) {
        new ResizeObserver(function () {
          if (el.clientWidth !== width) {
            width = el.clientWidth;
            window.Plotly.relayout(el, {width: width});
          }
        }).observe(el);
      }
    });
  }

  function linkRows(el) {
    // A table row names its result's page (td.sys a); hovering or focusing the row
    // shows that result's marker with its hover label, so a point is found from the table.
    var table = document.getElementById(tableOf(el));
    if (!table) { return; }
    function show(row) {
      var link = row.querySelector("td.sys a");
      var path = link && link.getAttribute("href");
      var hit = [];
      (el.data || []).forEach(function (trace, c) {
        (trace.customdata || []).forEach(function (d, p) {
          if (d && d[0] === path) { hit.push({curveNumber: c, pointNumber: p}); }
        });
      });
      if (hit.length) { window.Plotly.Fx.hover(el, hit); } else { window.Plotly.Fx.unhover(el); }
    }
    table.querySelectorAll("tbody tr").forEach(function (row) {
      row.addEventListener("mouseenter", function () { show(row); });
      row.addEventListener("focusin", function () { show(row); });
      row.addEventListener("mouseleave", function () { window.Plotly.Fx.unhover(el); });
    });
  }

  function tableOf(el) {
    var caption = document.getElementById(el.getAttribute("aria-describedby") || "");
    var link = caption && caption.querySelector("a[href^='#']");
    return link ? link.getAttribute("href").slice(1) : "";
  }

  function tidyFilters(form) {
    // Drop empty parameters so that the URL holds only the filters in use.
    form.addEventListener("formdata", function (ev) {
      var empty = [];
      ev.formData.forEach(function (value, key) { if (value === "") { empty.push(key); } });
      empty.forEach(function (key) {
        var kept = ev.formData.getAll(key).filter(function (v) { return v !== ""; });
        ev.formData.delete(key);
        kept.forEach(function (v) { ev.formData.append(key, v); });
      });
    });
    form.querySelectorAll("select:not([multiple])").forEach(function (sel) {
      sel.addEventListener("change", function () { form.requestSubmit(); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-figure]").forEach(draw);
    document.querySelectorAll("form.filters").forEach(tidyFilters);
  });
})();
