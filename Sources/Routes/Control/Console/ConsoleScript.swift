/// The console's script. It reads the admin API (docs/endpoints.md, docs/control-plane.md), feature-detects the control
/// plane (journal, faults, clock, tokens, event stream) with `OPTIONS` probes, listens to
/// `/__mock/events` when it is there and polls every second when it is not. Everything a client
/// sent is put in the page as text, never as markup. State-changing calls carry
/// `X-Mock-Admin: 1`, which the admin guard requires.
enum ConsoleScript {
    static let js = #"""
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  // The server writes the systems into the drop-downs, in its order, with their titles.
  const SYSTEM_OPTIONS = Array.from($("fault-system").options).filter((o) => o.value);
  const SYSTEMS = SYSTEM_OPTIONS.map((o) => o.value);
  const TITLES = Object.fromEntries(SYSTEM_OPTIONS.map((o) => [o.value, o.dataset.title || o.value]));
  const state = {
    features: { requests: false, faults: false, clock: false, tokens: false, events: false, instances: false, stubs: false },
    smsText: null, emailText: null, accountsText: null, faultsText: null, clockText: null, instancesText: null, stubsText: null,
    seenSMS: new Set(), seenEmail: new Set(), firstInbox: true,
    journal: [], journalSince: 0, selected: null, socket: null, pollTimer: null, busy: false, clockAt: null,
  };

  // ---- small helpers -------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }
  async function api(method, path, body, onResponse) {
    const headers = { "X-Mock-Admin": "1", "Accept": "application/json" };
    const init = { method, headers, cache: "no-store", credentials: "same-origin" };
    // A string is sent as it is (an imported document); anything else as JSON.
    if (body !== undefined) { headers["Content-Type"] = "application/json"; init.body = typeof body === "string" ? body : JSON.stringify(body); }
    const response = await fetch(path, init);
    if (onResponse) onResponse(response);
    const text = await response.text();
    if (!response.ok) {
      let reason = text;
      try { const j = JSON.parse(text); reason = j.error || j.reason || text; } catch (_) {}
      // A refused stub's body is WireMock's error document; the server's own sentence is the hint.
      reason = response.headers.get("X-Mock-Hint") || reason;
      throw new Error(response.status + " " + (reason || response.statusText));
    }
    return text;
  }
  async function exists(path) {
    try { const r = await fetch(path, { method: "OPTIONS", cache: "no-store" }); return r.status !== 404; }
    catch (_) { return false; }
  }
  let toastTimer = null;
  function toast(message, isError) {
    const t = $("toast");
    t.textContent = message; t.className = "toast" + (isError ? " error" : ""); t.hidden = false;
    clearTimeout(toastTimer); toastTimer = setTimeout(() => { t.hidden = true; }, isError ? 5000 : 2200);
  }
  function time(iso) {
    const d = new Date(iso);
    if (isNaN(d)) return iso || "";
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  }
  function dateTime(iso) {
    const d = new Date(iso);
    return isNaN(d) ? (iso || "") : d.toLocaleString([], { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  }
  function prettyPhone(p) {
    return /^\d{10}$/.test(p || "") ? "+7 (" + p.slice(0, 3) + ") " + p.slice(3, 6) + "-" + p.slice(6, 8) + "-" + p.slice(8) : (p || "");
  }
  function safeLink(url) { return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null; }
  function debounce(fn, ms) { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; }
  function setEmpty(listId, emptyId, n) { $(emptyId).hidden = n > 0; $(listId).hidden = n === 0; }

  // ---- tabs ------------------------------------------------------------------------------
  // WAI-ARIA tabs: one tab in the Tab order (the selected one); arrows, Home and End move
  // between tabs and select as they go.
  function tabButtons() { return [...document.querySelectorAll('#tabs [role="tab"]')].filter((b) => !b.hidden); }
  function showTab(name, focus) {
    for (const b of document.querySelectorAll('#tabs [role="tab"]')) {
      const on = b.dataset.tab === name;
      b.classList.toggle("active", on);
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    }
    for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === name);
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
    if (name === "controls") tickClock();
  }
  $("tabs").addEventListener("click", (e) => { const b = e.target.closest('[role="tab"]'); if (b) showTab(b.dataset.tab); });
  $("tabs").addEventListener("keydown", (e) => {
    const tabs = tabButtons(), i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    showTab(tabs[(next + tabs.length) % tabs.length].dataset.tab, true);
  });

  // ---- inbox -----------------------------------------------------------------------------
  async function loadInbox() {
    const phone = $("phone-filter").value.trim(), to = $("email-filter").value.trim();
    const [sms, emails] = await Promise.all([
      api("GET", "/__mock/sms" + (phone ? "?phone=" + encodeURIComponent(phone) : "")),
      api("GET", "/__mock/emails" + (to ? "?to=" + encodeURIComponent(to) : "")),
    ]);
    if (sms !== state.smsText) { state.smsText = sms; renderSMS(JSON.parse(sms)); }
    if (emails !== state.emailText) { state.emailText = emails; renderEmails(JSON.parse(emails)); }
    state.firstInbox = false;
  }
  function renderSMS(items) {
    const list = $("sms-list");
    list.replaceChildren(...items.slice().reverse().map((m) => {
      const key = m.phone + "|" + m.sentAt + "|" + m.text;
      const fresh = !state.firstInbox && !state.seenSMS.has(key);
      state.seenSMS.add(key);
      const code = m.code ? el("div", { class: "code-row" },
        el("span", { class: "code", "data-code": m.code, title: "Click to select" }, m.code),
        el("button", { type: "button", class: "copy", onclick: () => copy(m.code) }, "Copy")) : null;
      return el("li", { class: "card sms" + (fresh ? " fresh" : ""), "data-phone": m.phone },
        el("div", { class: "card-head" }, el("span", { class: "who" }, prettyPhone(m.phone)), el("span", { class: "when", title: m.sentAt }, time(m.sentAt))),
        code, el("p", { class: "sms-text" }, m.text));
    }));
    $("sms-count").textContent = items.length;
    setEmpty("sms-list", "sms-empty", items.length);
  }
  function renderEmails(items) {
    const list = $("email-list");
    list.replaceChildren(...items.slice().reverse().map((m) => {
      const key = m.to + "|" + m.sentAt + "|" + m.subject;
      const fresh = !state.firstInbox && !state.seenEmail.has(key);
      state.seenEmail.add(key);
      const link = safeLink(m.link);
      return el("li", { class: "card email" + (fresh ? " fresh" : "") },
        el("div", { class: "card-head" }, el("span", { class: "who" }, m.to), el("span", { class: "when", title: m.sentAt }, time(m.sentAt))),
        el("div", { class: "subject" }, m.subject),
        el("div", { class: "body" }, m.body),
        link ? el("a", { class: "mail-link", href: link, target: "_blank", rel: "noopener noreferrer" }, "Open the link") : null,
        link ? el("span", { class: "mail-url" }, link) : null);
    }));
    $("email-count").textContent = items.length;
    setEmpty("email-list", "email-empty", items.length);
  }
  async function copy(text) {
    try { await navigator.clipboard.writeText(text); toast("Copied " + text); }
    catch (_) { toast("Select the code and copy it", true); }
  }
  $("inbox-clear").addEventListener("click", () => Promise.all([api("DELETE", "/__mock/sms"), api("DELETE", "/__mock/emails")])
    .then(() => { state.smsText = state.emailText = null; return loadInbox(); }).then(() => toast("Inbox cleared")).catch(report));
  const refilter = debounce(() => { state.smsText = state.emailText = null; loadInbox().catch(report); }, 250);
  $("phone-filter").addEventListener("input", refilter);
  $("email-filter").addEventListener("input", refilter);

  // ---- accounts --------------------------------------------------------------------------
  async function loadAccounts() {
    // X-Mock-Truncated names each system listed only in part, with its total ("skyzone=1234").
    let truncated = "";
    const text = await api("GET", "/__mock/accounts", undefined, (r) => { truncated = r.headers.get("X-Mock-Truncated") || ""; });
    if (text + truncated === state.accountsText) return;
    state.accountsText = text + truncated;
    const totals = {};
    for (const part of truncated.split(",")) { const [name, total] = part.trim().split("="); if (name && total) totals[name] = total; }
    renderAccounts(JSON.parse(text), totals);
  }
  const COLUMNS = [
    ["login", "Login"], ["name", "Name"], ["phone", "Phone"], ["email", "E-mail"],
    ["isConfirmed", "Confirmed"], ["sessions", "Sessions"], ["id", "Id"], ["note", "Note"],
  ];
  function cell(key, a) {
    const v = a[key];
    if (key === "isConfirmed") return v === undefined ? "" : el("span", { class: "badge " + (v ? "yes" : "no"), "data-confirmed": String(v) }, v ? "confirmed" : "not confirmed");
    if (key === "sessions") return v === undefined ? "" : (v.length ? v.map((s) => el("span", { class: "chip", title: s.expiresAt ? "expires " + dateTime(s.expiresAt) : "" }, s.token)) : el("span", { class: "note" }, "none"));
    if (key === "phone") return prettyPhone(v);
    if (key === "note") return v ? el("span", { class: "note" }, v) : "";
    return v === undefined || v === null ? "" : String(v);
  }
  // The systems whose accounts the form creates (and a row's button deletes).
  const ADMINISTERED = new Set(Array.from($("account-system").options).map((o) => o.value));
  function deleteButton(name, a) {
    const id = a.id || a.login;
    if (!ADMINISTERED.has(name) || !id) return null;
    return el("button", { type: "button", class: "delete", "aria-label": "Delete " + name + " account " + (a.login || id),
      onclick: () => api("DELETE", "/__mock/accounts/" + encodeURIComponent(name) + "/" + encodeURIComponent(id))
        .then(() => { toast("Account deleted"); state.accountsText = null; return loadAccounts(); }).catch(report) }, "Delete");
  }
  function renderAccounts(bySystem, totals) {
    const body = $("accounts-body");
    const names = SYSTEMS.filter((s) => bySystem[s]).concat(Object.keys(bySystem).filter((s) => !SYSTEMS.includes(s)));
    body.replaceChildren(el("div", { class: "systems" }, names.map((name) => {
      const accounts = bySystem[name] || [];
      const used = COLUMNS.filter(([k]) => accounts.some((a) => a[k] !== undefined && a[k] !== null && !(k === "email" && a.login === a.email)));
      const deletable = ADMINISTERED.has(name);
      const table = el("table", {},
        el("thead", {}, el("tr", {}, used.map(([, t]) => el("th", {}, t)), deletable ? el("th", {}, el("span", { class: "muted" }, "Actions")) : null)),
        el("tbody", {}, accounts.map((a) => el("tr", { "data-login": a.login || "", "data-id": a.id || "" },
          used.map(([k, t]) => { const c = cell(k, a); return el("td", { "data-label": t, class: (c === "" ? "blank " : "") + "c-" + k }, el("div", {}, c)); }),
          deletable ? el("td", { "data-label": "Actions", class: "c-actions" }, el("div", {}, deleteButton(name, a))) : null))));
      return el("div", { class: "system", id: "accounts-" + name },
        el("h2", {}, TITLES[name] || name, " ", el("span", { class: "count", title: totals[name] ? "the first " + accounts.length + " of " + totals[name] + " are listed" : "" },
          totals[name] ? accounts.length + " of " + totals[name] : accounts.length)),
        accounts.length ? el("div", { class: "table-wrap accounts" }, table) : el("p", { class: "empty" }, "No accounts."));
    })));
  }

  // Created directly, in the state the test needs (POST /__mock/accounts); the server names a bad field.
  // Each system's own fields (the server writes them from its registry); only the picked
  // system's are enabled, so the others' required fields do not block the form.
  function accountFieldsets() { return [...document.querySelectorAll("#account-form .account-fields")]; }
  function showAccountFields() {
    for (const f of accountFieldsets()) { const on = f.dataset.system === $("account-system").value; f.hidden = !on; f.disabled = !on; }
  }
  $("account-system").addEventListener("change", showAccountFields);
  showAccountFields();
  $("account-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const system = $("account-system").value, fields = { system };
    const set = accountFieldsets().find((f) => f.dataset.system === system);
    for (const input of set ? set.querySelectorAll("input") : []) {
      if (input.type === "checkbox") { if (input.checked) fields[input.name] = true; }
      else if (input.value.trim()) fields[input.name] = input.value.trim();
    }
    api("POST", "/__mock/accounts", fields).then(() => {
      toast("Account created"); if (set) for (const input of set.querySelectorAll("input")) { input.value = ""; input.checked = false; }
      state.accountsText = null; return loadAccounts();
    }).catch(report);
  });

  // ---- instances -------------------------------------------------------------------------
  async function loadInstances() {
    const text = await api("GET", "/__mock/instances");
    if (text === state.instancesText) return;
    state.instancesText = text;
    const instances = JSON.parse(text);
    $("instances-count").textContent = instances.length;
    $("instances-list").replaceChildren(...instances.map((i) => el("li", {},
      el("a", { href: safeLink(i.baseURL + "/__mock/") || "#", target: "_blank", rel: "noopener" }, i.baseURL),
      el("button", { type: "button", onclick: () => api("DELETE", "/__mock/instances/" + encodeURIComponent(i.id)).then(refreshInstances).catch(report) }, "Stop"))));
    if (!instances.length) $("instances-list").append(el("li", { class: "note" }, "No instances."));
  }
  function refreshInstances() { state.instancesText = null; return loadInstances(); }
  $("instance-start").addEventListener("click", () => api("POST", "/__mock/instances", {}).then(refreshInstances).then(() => toast("Instance started")).catch(report));

  // ---- journal (control plane) -----------------------------------------------------------
  function entryHeaders(h) {
    if (!h) return "";
    if (Array.isArray(h)) return h.map((p) => Array.isArray(p) ? p.join(": ") : (p.name + ": " + p.value)).join("\n");
    return Object.entries(h).map(([k, v]) => k + ": " + v).join("\n");
  }
  function addJournal(entries) {
    if (!entries.length) return;
    const known = new Set(state.journal.map((e) => e.id));
    for (const e of entries) if (!known.has(e.id)) state.journal.push(e);
    state.journal.sort((a, b) => a.id - b.id);
    if (state.journal.length > 500) state.journal.splice(0, state.journal.length - 500);
    state.journalSince = Math.max(state.journalSince, ...entries.map((e) => e.id || 0));
    renderJournal();
  }
  async function loadJournal() {
    const text = await api("GET", "/__mock/requests?limit=200" + (state.journalSince ? "&since=" + state.journalSince : ""));
    addJournal(JSON.parse(text));
  }
  // The answer as a row shows it. A request cut without one (status null: a fault's close or
  // reset, a stub's fault) says "closed" or "reset", not an empty cell; a WebSocket message
  // (status 101, always) says the type of its reply (replies are JSON messages, one a line).
  function cutLabel(e) { return e.fault && e.fault.action && e.fault.action.reset ? "reset" : "closed"; }
  function replyType(line) {
    try { const m = JSON.parse(line); return m && typeof m.type === "string" ? m.type : ""; } catch (_) { return ""; }
  }
  function wsAnswer(e) {
    const action = (e.fault && e.fault.action) || {};
    if (action.closeCode !== undefined) return "closed " + action.closeCode;
    const types = (e.responseBody || "").split("\n").map(replyType).filter(Boolean);
    return types.length ? types.join(", ") : "no reply";
  }
  function statusLabel(e) {
    if (e.status === null || e.status === undefined) return cutLabel(e);
    return String(e.status);
  }
  function pathLabel(e) {
    const path = e.path + (e.query ? "?" + e.query : "");
    return e.method === "WS" ? path + " → " + wsAnswer(e) : path;
  }
  function renderJournal() {
    const q = $("journal-filter").value.trim().toLowerCase();
    const shown = state.journal.filter((e) => !q || [pathLabel(e), e.system, statusLabel(e), e.method, e.hint].some((v) => (v || "").toString().toLowerCase().includes(q)));
    // Rows are buttons (reachable with Tab, opened with Enter or Space); a re-render keeps the
    // keyboard focus on the row it was on.
    const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest("#journal-list .entry") : null;
    const focusedId = focused ? Number(focused.dataset.id) : null;
    $("journal-list").replaceChildren(...shown.slice().reverse().map((e) => {
      const s = e.status ? "s" + Math.floor(e.status / 100) : "s-cut";
      return el("li", {}, el("button", { type: "button", class: "entry" + (state.selected === e.id ? " selected" : ""), "data-id": e.id,
        "aria-expanded": String(state.selected === e.id), "aria-controls": "journal-detail", onclick: () => select(e.id) },
        el("span", { class: "when when-cell" }, time(e.at)),
        el("span", { class: "sys" }, e.system || "—"),
        el("span", { class: "method" }, e.method),
        el("span", { class: e.method === "WS" ? "path ws" : "path", title: pathLabel(e) }, pathLabel(e)),
        el("span", { class: "status " + s }, statusLabel(e)),
        el("span", { class: "dur" }, e.durationMs !== undefined ? (Math.round(e.durationMs * 10) / 10) + " ms" : ""),
        e.hint || e.fault ? el("span", { class: "hint" }, (e.fault ? "fault " + JSON.stringify(e.fault.action) + " " : "") + (e.hint ? "hint: " + e.hint : "")) : null));
    }));
    if (focusedId !== null) { const again = document.querySelector('#journal-list .entry[data-id="' + focusedId + '"]'); if (again) again.focus(); }
    $("journal-count").textContent = state.journal.length;
    setEmpty("journal-list", "journal-empty", shown.length);
    renderDetail();
  }
  function select(id) { state.selected = state.selected === id ? null : id; renderJournal(); }
  function renderDetail() {
    const d = $("journal-detail"), e = state.journal.find((x) => x.id === state.selected);
    d.parentElement.classList.toggle("with-detail", !!e);
    if (!e) { d.hidden = true; return; }
    d.hidden = false;
    const part = (title, text) => text ? [el("h3", {}, title), el("pre", {}, text)] : [];
    d.replaceChildren(
      el("button", { type: "button", class: "close", onclick: () => { select(e.id); const row = document.querySelector('#journal-list .entry[data-id="' + e.id + '"]'); if (row) row.focus(); } }, "Close"),
      el("h2", {}, e.method + " " + (e.method === "WS" ? pathLabel(e) : e.path)),
      ...(state.features.stubs && e.method !== "WS" ? [el("button", { type: "button", id: "journal-keep", onclick: () => keepAsStub(e.id) }, "Keep as stub")] : []),
      el("p", { class: "muted" }, "#" + e.id + " · " + (e.system || "no system") + " · " + statusLabel(e) + " · " + (e.durationMs ?? "?") + " ms · " + dateTime(e.at) + (e.truncated ? " · bodies truncated" : "")),
      ...part("Hint", e.hint),
      ...part("Fault", e.fault ? JSON.stringify(e.fault, null, 2) : ""),
      ...part("Query", e.query),
      ...part("Request headers", entryHeaders(e.requestHeaders)),
      ...part("Request body", e.requestBody),
      ...part("Response body", e.responseBody));
  }
  // The entry's answer becomes a stub mapping (POST /__mock/requests/{id}/stub); a refusal says why.
  function keepAsStub(id) {
    api("POST", "/__mock/requests/" + encodeURIComponent(id) + "/stub", {})
      .then((text) => { const m = JSON.parse(text); toast("Kept as stub " + (m.name || m.id)); })
      .then(refreshStubs).catch(report);
  }
  $("journal-filter").addEventListener("input", debounce(renderJournal, 150));
  $("journal-clear").addEventListener("click", () => api("DELETE", "/__mock/requests").then(() => { state.journal = []; state.selected = null; renderJournal(); }).catch(report));

  // ---- controls (control plane) ----------------------------------------------------------
  async function loadClock() {
    const text = await api("GET", "/__mock/clock");
    if (text === state.clockText) return;
    state.clockText = text;
    const c = JSON.parse(text);
    // The mock's time keeps running between loads: shown as the server's answer plus the time
    // elapsed here since (ticks once a second while the Controls tab is open).
    state.clockAt = { now: Date.parse(c.now), here: performance.now() };
    tickClock();
    $("clock-offset").textContent = c.offsetSeconds ? "+" + c.offsetSeconds + " s ahead of real time" : "real time";
  }
  function tickClock() {
    if (!state.clockAt || isNaN(state.clockAt.now)) return;
    $("clock-now").textContent = dateTime(new Date(state.clockAt.now + performance.now() - state.clockAt.here).toISOString());
  }
  setInterval(() => { if ($("controls").classList.contains("active")) tickClock(); }, 1000);
  async function advance(seconds) {
    await api("POST", "/__mock/clock", { advanceSeconds: seconds });
    state.clockText = null; await loadClock(); toast("Clock advanced " + seconds + " s");
  }
  for (const b of document.querySelectorAll("[data-advance]")) b.addEventListener("click", () => advance(Number(b.dataset.advance)).catch(report));
  $("clock-form").addEventListener("submit", (e) => { e.preventDefault(); advance(Number($("clock-seconds").value)).catch(report); });
  $("clock-real").addEventListener("click", () => api("DELETE", "/__mock/clock").then(() => { state.clockText = null; return loadClock(); }).then(() => toast("Back to real time")).catch(report));

  async function loadFaults() {
    const text = await api("GET", "/__mock/faults");
    if (text === state.faultsText) return;
    state.faultsText = text;
    const faults = JSON.parse(text);
    $("faults-count").textContent = faults.length;
    $("faults-list").replaceChildren(...faults.map((f) => el("li", {},
      el("span", {}, [f.method || "any", f.system || "", f.path, "→", JSON.stringify(f.action), f.remaining === null || f.remaining === undefined ? "(until removed)" : "(" + f.remaining + " left)"].filter(Boolean).join(" ")),
      el("button", { type: "button", onclick: () => api("DELETE", "/__mock/faults/" + encodeURIComponent(f.id)).then(refreshFaults).catch(report) }, "Remove"))));
    if (!faults.length) $("faults-list").append(el("li", { class: "note" }, "No faults: every request is answered normally."));
  }
  function refreshFaults() { state.faultsText = null; return loadFaults(); }

  // ---- stubs -----------------------------------------------------------------------------
  async function loadStubs() {
    const [text, refusedText] = await Promise.all([api("GET", "/__mock/stubs"), api("GET", "/__admin/mappings/refused")]);
    if (text + refusedText === state.stubsText) return;
    state.stubsText = text + refusedText;
    const stubs = JSON.parse(text);
    const refused = JSON.parse(refusedText).refused || [];
    $("stubs-refused-count").textContent = refused.length;
    $("stubs-refused").replaceChildren(...refused.map((r) => el("li", {},
      el("code", {}, r.file + (r.pointer && r.pointer !== "/" ? " " + r.pointer : "")), " · " + r.reason)));
    $("stubs-refused-box").hidden = refused.length === 0;
    $("stubs-count").textContent = stubs.length;
    $("stubs-list").replaceChildren(...stubs.map((s) => el("li", {},
      el("code", {}, s.method + " " + (s.url === null ? "any URL" : s.url) + (s.urlMatch && s.urlMatch.endsWith("Pattern") ? " (pattern)" : "")),
      " → " + s.status + " · " + (s.name || s.id) + " · priority " + s.priority + " · " + s.hits + (s.hits === 1 ? " hit" : " hits")
        + (s.scenario ? " · scenario " + s.scenario + ": " + s.scenarioState + (s.requiredScenarioState ? " (answers in " + s.requiredScenarioState + ")" : "") : "")
        + (s.fromFiles ? " · from --mappings" : ""),
      el("button", { type: "button", onclick: () => api("DELETE", "/__admin/mappings/" + encodeURIComponent(s.id)).then(refreshStubs).catch(report) }, "Remove"))));
    setEmpty("stubs-list", "stubs-empty", stubs.length);
  }
  function refreshStubs() { state.stubsText = null; return Promise.all([loadStubs(), loadRecording()]); }

  // ---- recording (WireMock's recorder) ----------------------------------------------------
  async function loadRecording() {
    const status = JSON.parse(await api("GET", "/__admin/recordings/status")).status;
    const recording = status === "Recording";
    $("recording-status").textContent = recording ? "recording" : status === "Stopped" ? "stopped" : "not started";
    $("recording-start").hidden = recording;
    $("recording-target").disabled = recording;
    $("recording-stop").hidden = !recording;
  }
  $("recording-form").addEventListener("submit", (e) => {
    e.preventDefault();
    api("POST", "/__admin/recordings/start", { targetBaseUrl: $("recording-target").value.trim() })
      .then(loadRecording).then(() => toast("Recording: what no stub answers goes to the backend")).catch(report);
  });
  $("recording-stop").addEventListener("click", () => api("POST", "/__admin/recordings/stop", {})
    .then((text) => { const kept = (JSON.parse(text).mappings || []).length; toast(kept + (kept === 1 ? " stub" : " stubs") + " kept"); })
    .then(refreshStubs).catch(report));
  const refreshStubsSoon = debounce(() => { refreshStubs().catch(() => {}); }, 300);
  $("stubs-scenarios-reset").addEventListener("click", () => api("POST", "/__admin/scenarios/reset", {}).then(refreshStubs).then(() => toast("Scenarios back to Started")).catch(report));
  $("fault-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const kind = $("fault-action").value, value = $("fault-value").value.trim();
    const action = {};
    if (kind === "status") { action.status = Number(value || 503); }
    else if (kind === "delayMs" || kind === "closeCode") { action[kind] = Number(value || (kind === "delayMs" ? 1000 : 1011)); }
    else if (kind === "reply") { action.reply = value; }
    else { action[kind] = true; }
    const rule = { path: $("fault-path").value.trim(), action };
    if ($("fault-method").value) rule.method = $("fault-method").value;
    if ($("fault-system").value) rule.system = $("fault-system").value;
    if ($("fault-times").value) rule.times = Number($("fault-times").value);
    api("POST", "/__mock/faults", rule).then(refreshFaults).then(() => toast("Fault added")).catch(report);
  });
  $("faults-clear").addEventListener("click", () => api("DELETE", "/__mock/faults").then(refreshFaults).then(() => toast("Faults removed")).catch(report));
  $("tokens-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const op = (e.submitter && e.submitter.dataset.op) || "expire", body = {};
    if ($("tokens-system").value) body.system = $("tokens-system").value;
    if ($("tokens-token").value.trim()) body.token = $("tokens-token").value.trim();
    api("POST", "/__mock/tokens/" + op, body).then(() => { toast("Tokens " + op + "d"); state.accountsText = null; return loadAccounts(); }).catch(report);
  });

  // State: exported by the link (a download of GET /__mock/state), imported from a file.
  $("state-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const file = $("state-file").files[0];
    if (!file) { report(new Error("Choose a state document first")); return; }
    file.text().then((text) => api("PUT", "/__mock/state", text)).then(() => {
      toast("State imported"); $("state-file").value = "";
      state.smsText = state.emailText = state.accountsText = state.clockText = null;
      return refreshAll();
    }).catch(report);
  });

  // Reset asks first (it empties everything, with no undo); the dialog is modal, Escape cancels.
  $("reset").addEventListener("click", () => { $("reset-dialog").returnValue = ""; $("reset-dialog").showModal(); });
  $("reset-cancel").addEventListener("click", () => $("reset-dialog").close("cancel"));
  $("reset-confirm").addEventListener("click", () => $("reset-dialog").close("reset"));
  $("reset-dialog").addEventListener("close", () => {
    $("reset").focus();
    if ($("reset-dialog").returnValue !== "reset") return;
    api("POST", "/__mock/reset").then(() => {
      state.journal = []; state.journalSince = 0; state.selected = null;
      state.smsText = state.emailText = state.accountsText = state.faultsText = state.clockText = state.stubsText = null;
      toast("Reset to the seed");
      return refreshAll();
    }).catch(report);
  });

  // ---- live updates ----------------------------------------------------------------------
  function report(err) { toast(err && err.message ? err.message : String(err), true); }
  function setLive(mode, text) { const p = $("live"); p.className = "pill " + mode; p.textContent = text; }
  async function refreshAll() {
    const jobs = [loadInbox(), loadAccounts()];
    if (state.features.requests) jobs.push(loadJournal());
    if (state.features.faults) jobs.push(loadFaults());
    if (state.features.clock) jobs.push(loadClock());
    if (state.features.instances) jobs.push(loadInstances());
    if (state.features.stubs) jobs.push(loadStubs(), loadRecording());
    await Promise.all(jobs);
  }
  async function poll() {
    if (state.busy) return;
    state.busy = true;
    try { await refreshAll(); if (!state.socket) setLive("poll", "polling every 1 s"); }
    catch (err) { setLive("down", "server unreachable"); }
    finally { state.busy = false; }
  }
  function startPolling() { if (!state.pollTimer) state.pollTimer = setInterval(poll, 1000); }
  function stopPolling() { clearInterval(state.pollTimer); state.pollTimer = null; }
  const refreshSoon = debounce(() => { refreshAll().catch(() => {}); }, 200);
  function connectEvents() {
    if (!state.features.events || state.socket) return;
    let socket;
    try { socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/__mock/events"); }
    catch (_) { return; }
    socket.onopen = () => { state.socket = socket; stopPolling(); setLive("live", "live"); refreshSoon(); };
    socket.onmessage = (m) => {
      let event;
      try { event = JSON.parse(m.data); } catch (_) { return; }
      if (!event || typeof event.kind !== "string") return;
      if (event.kind === "request" && event.data) { addJournal([event.data]); refreshAccountsSoon(); if (event.data.stub) refreshStubsSoon(); }
      else if (event.kind === "stubs") { refreshStubsSoon(); }
      else if (event.kind === "sms" || event.kind === "email") { loadInbox().catch(() => {}); }
      else if (event.kind === "fault" || event.kind.startsWith("fault.")) { refreshFaults().catch(() => {}); }
      else if (event.kind.startsWith("account.")) { state.accountsText = null; loadAccounts().catch(() => {}); }
      else if (event.kind.startsWith("instance.")) { if (state.features.instances) refreshInstances().catch(() => {}); }
      else if (event.kind === "outbox.cleared") { loadInbox().catch(() => {}); }
      else if (event.kind === "journal.cleared") { state.journal = []; state.journalSince = 0; state.selected = null; renderJournal(); }
      else if (event.kind === "state.replaced" || event.kind.startsWith("stubs.")) { state.smsText = state.emailText = state.accountsText = null; refreshSoon(); }
      else if (event.kind === "clock") { state.clockText = null; loadClock().catch(() => {}); }
      else if (event.kind === "reset") { state.journal = []; state.journalSince = 0; state.selected = null; renderJournal(); refreshSoon(); }
    };
    socket.onclose = () => {
      if (state.socket === socket) state.socket = null;
      startPolling();
      setTimeout(connectEvents, 3000);
    };
  }
  const refreshAccountsSoon = debounce(() => { loadAccounts().catch(() => {}); }, 300);

  async function detect() {
    const [requests, faults, clock, expire, events, openapi, instances, stubs] = await Promise.all(
      ["/__mock/requests", "/__mock/faults", "/__mock/clock", "/__mock/tokens/expire", "/__mock/events", "/__mock/openapi.json", "/__mock/instances", "/__mock/stubs"].map(exists));
    Object.assign(state.features, { requests, faults, clock, tokens: expire, events, instances, stubs });
    document.querySelector('[data-tab="stubs"]').hidden = !stubs;
    $("instances-box").hidden = !instances;
    document.querySelector('[data-tab="journal"]').hidden = !requests;
    $("faults-box").hidden = !faults;
    $("clock-box").hidden = !clock;
    $("tokens-box").hidden = !expire;
    if (openapi) $("links").append(el("li", {}, el("a", { href: "/__mock/openapi.json" }, "/__mock/openapi.json")));
    const missing = Object.entries({ journal: requests, faults, clock, tokens: expire, "event stream": events }).filter(([, v]) => !v).map(([k]) => k);
    $("missing").textContent = missing.length ? "Not served by this build: " + missing.join(", ") + "." : "";
    document.body.dataset.features = Object.entries(state.features).filter(([, v]) => v).map(([k]) => k).join(" ");
  }

  async function start() {
    const wanted = location.hash.slice(1);
    await detect();
    if (wanted && $(wanted) && !document.querySelector('[data-tab="' + wanted + '"]').hidden) showTab(wanted);
    await poll();
    startPolling();
    connectEvents();
    document.body.dataset.ready = "1";
  }
  start().catch(report);
})();
"""#
}
