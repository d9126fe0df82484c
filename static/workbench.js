// typing searches (after a pause), as the site's search box: the form is the fallback
(function () {
  var q = document.getElementById("q"), t;
  if (!q) return;
  q.addEventListener("input", function () {
    clearTimeout(t);
    if (q.value.trim().length >= 2) t = setTimeout(function () { q.form.requestSubmit(); }, 600);
  });
  if (q.value) { q.focus(); q.setSelectionRange(q.value.length, q.value.length); }
})();
