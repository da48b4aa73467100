// Cairn board: live updates over Server-Sent Events, and sign-in with a
// token from the URL fragment. No framework: the server renders every page;
// on a change this script fetches the page again and swaps its <main>.
(function () {
  "use strict";
  var base = document.body.dataset.base || "/";
  var page = document.body.dataset.page;

  // A token in the fragment (#token=…) never reaches a server log: trade
  // it for the HttpOnly cookie, then drop it from the address bar.
  var m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    history.replaceState(null, "", location.pathname + location.search);
    var body = new URLSearchParams();
    body.set("token", decodeURIComponent(m[1]));
    fetch(base + "login", { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
      .then(function () { location.replace(location.pathname + location.search); });
    return;
  }
  if (page === "login") return;

  var live = document.getElementById("live");
  function state(s, text) {
    if (!live) return;
    live.dataset.state = s;
    live.textContent = text;
  }

  var dropped = false;
  var seen = document.body.dataset.version || null, pending = false, busy = false;

  // editing reports whether the person is typing in a form on the page:
  // a refresh then waits, so it does not throw their input away.
  function editing() {
    var a = document.activeElement;
    return a && a.closest && a.closest("main form") && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName) && a.type !== "submit";
  }

  function refresh() {
    if (busy || editing()) { pending = true; return; }
    busy = true; pending = false;
    fetch(location.href, { credentials: "same-origin", headers: { "X-Cairn-Refresh": "1" } })
      .then(function (r) { return r.ok || r.status === 422 || r.status === 404 ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var next = doc.getElementById("main"), cur = document.getElementById("main");
        if (!next || !cur) return;
        var open = Array.prototype.map.call(cur.querySelectorAll("details[open]"), function (d) { return d.className; });
        // A refusal stays on screen until the person moves on.
        var alert = cur.querySelector("#refusal");
        cur.replaceChildren.apply(cur, Array.prototype.slice.call(next.childNodes));
        if (alert && !cur.querySelector("#refusal")) cur.prepend(alert);
        open.forEach(function (c) { if (c) { var d = cur.querySelector("details." + c.split(" ")[0]); if (d) d.open = true; } });
        document.title = doc.title;
      })
      .catch(function () { pending = true; })
      .finally(function () { busy = false; if (pending) setTimeout(refresh, 200); });
  }

  document.addEventListener("focusout", function () {
    setTimeout(function () { if (pending && !editing()) refresh(); }, 0);
  });

  function connect() {
    var es = new EventSource(base + "events");
    es.addEventListener("open", function () {
      state("live", "live");
      // After a drop, catch up at once: a restarted server's versions
      // may not follow the old one's.
      if (dropped) { dropped = false; refresh(); }
    });
    es.addEventListener("change", function (e) {
      state("live", "live");
      if (seen !== null && e.data !== seen) refresh();
      seen = e.data;
    });
    es.addEventListener("error", function () {
      // EventSource reconnects by itself; a closed stream (the server
      // refused it) is reopened after a pause.
      state("down", "reconnecting…");
      dropped = true;
      if (es.readyState === EventSource.CLOSED) {
        es.close();
        setTimeout(connect, 2000);
      }
    });
  }
  if (window.EventSource) connect(); else state("down", "not live");
})();
