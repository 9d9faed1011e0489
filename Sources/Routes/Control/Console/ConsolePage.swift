import EmulationKit

/// The console's HTML: the frame the script fills in. No inline script or style (the page's
/// Content-Security-Policy forbids them).
enum ConsolePage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>mock-server console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__mock/console.css">
<script src="/__mock/console.js" defer></script>
</head>
<body>
<header class="top">
  <div class="brand"><span class="logo" aria-hidden="true">◆</span> mock-server <span class="muted">console</span></div>
  <div class="tabs" id="tabs" role="tablist" aria-label="Sections">
    <button type="button" role="tab" id="tab-inbox" data-tab="inbox" aria-controls="inbox" aria-selected="true" class="active">Inbox</button>
    <button type="button" role="tab" id="tab-accounts" data-tab="accounts" aria-controls="accounts" aria-selected="false" tabindex="-1">Accounts</button>
    <button type="button" role="tab" id="tab-journal" data-tab="journal" aria-controls="journal" aria-selected="false" tabindex="-1" hidden>Journal</button>
    <button type="button" role="tab" id="tab-stubs" data-tab="stubs" aria-controls="stubs" aria-selected="false" tabindex="-1" hidden>Stubs</button>
    <button type="button" role="tab" id="tab-controls" data-tab="controls" aria-controls="controls" aria-selected="false" tabindex="-1">Controls</button>
  </div>
  <div class="top-right">
    <span id="live" class="pill" title="How the page gets updates">connecting…</span>
    <button type="button" id="reset" class="danger" aria-haspopup="dialog" title="POST /__mock/reset: back to seed.json, empty outbox">Reset</button>
  </div>
</header>
<dialog id="reset-dialog" aria-labelledby="reset-title" aria-describedby="reset-what">
  <h2 id="reset-title">Reset the mock?</h2>
  <p id="reset-what">Every system goes back to the seed; the outbox, the journal, the faults and the clock are emptied. There is no undo.</p>
  <div class="buttons"><button type="button" id="reset-cancel" autofocus>Cancel</button><button type="button" id="reset-confirm" class="danger">Reset</button></div>
</dialog>
<div id="toast" class="toast" role="status" aria-live="polite" hidden></div>
<main>
  <section id="inbox" class="panel active" role="tabpanel" aria-labelledby="tab-inbox" tabindex="0">
    <div class="buttons inbox-actions"><button type="button" id="inbox-clear" title="DELETE /__mock/sms and /__mock/emails">Clear inbox</button></div>
    <div class="columns">
      <div class="column">
        <div class="column-head">
          <h2>SMS <span class="count" id="sms-count">0</span></h2>
          <input id="phone-filter" aria-label="Filter SMS by phone" type="search" placeholder="Filter by phone, any form" inputmode="tel">
        </div>
        <ol id="sms-list" class="cards"></ol>
        <p id="sms-empty" class="empty">No SMS yet. Codes appear here as soon as the server “sends” them.</p>
      </div>
      <div class="column">
        <div class="column-head">
          <h2>E-mail <span class="count" id="email-count">0</span></h2>
          <input id="email-filter" aria-label="Filter e-mail by address" type="search" placeholder="Filter by address" inputmode="email">
        </div>
        <ol id="email-list" class="cards"></ol>
        <p id="email-empty" class="empty">No e-mail yet.</p>
      </div>
    </div>
  </section>
  <section id="accounts" class="panel" role="tabpanel" aria-labelledby="tab-accounts" tabindex="0">
    <form id="account-form" class="fault-form" aria-label="Create an account">
      <label>System <select id="account-system">{{accountSystems}}</select></label>
      {{accountFields}}
      <div class="buttons"><button type="submit">Create account</button></div>
    </form>
    <div id="accounts-body"></div>
  </section>
  <section id="journal" class="panel" role="tabpanel" aria-labelledby="tab-journal" tabindex="0">
    <div class="column-head">
      <h2>Requests <span class="count" id="journal-count">0</span></h2>
      <div class="row-controls">
        <input id="journal-filter" aria-label="Filter requests" type="search" placeholder="Filter: path, system, status">
        <button type="button" id="journal-clear">Clear</button>
      </div>
    </div>
    <div class="journal-layout">
      <ol id="journal-list" class="journal"></ol>
      <aside id="journal-detail" class="detail" aria-label="Request detail" tabindex="-1" hidden></aside>
    </div>
    <p id="journal-empty" class="empty">No requests yet.</p>
  </section>
  <section id="stubs" class="panel" role="tabpanel" aria-labelledby="tab-stubs" tabindex="0">
    <div class="column-head">
      <h2>Stubs <span class="count" id="stubs-count">0</span></h2>
      <div class="row-controls"><button type="button" id="stubs-scenarios-reset">Scenarios to Started</button></div>
    </div>
    <p class="muted">WireMock mappings that answer before the systems (--mappings DIR, or POST /__admin/mappings); newest first, with their hits and scenario state.</p>
    <div class="box" id="recording-box">
      <h3>Recording: <span id="recording-status" role="status">not started</span></h3>
      <p class="muted">While recording, what no stub and no system answers goes to the backend; Stop keeps each exchange as a stub (POST /__admin/recordings/start and /stop).</p>
      <form id="recording-form" class="inline">
        <input id="recording-target" aria-label="Backend URL to record" type="url" placeholder="Backend URL (staging)" autocomplete="url" required>
        <button type="submit" id="recording-start">Start recording</button>
        <button type="button" id="recording-stop" hidden>Stop and keep</button>
      </form>
    </div>
    <ol id="stubs-list" class="faults"></ol>
    <p id="stubs-empty" class="empty">No stubs loaded: every request goes to the systems.</p>
    <div id="stubs-refused-box" hidden>
      <h3>Refused from the mappings folder <span class="count" id="stubs-refused-count">0</span></h3>
      <p class="muted">Mappings this server cannot serve as WireMock would: the rest of the folder loaded (GET /__admin/mappings/refused).</p>
      <ol id="stubs-refused" class="faults"></ol>
    </div>
  </section>
  <section id="controls" class="panel" role="tabpanel" aria-labelledby="tab-controls" tabindex="0">
    <div class="control-grid">
      <div class="box" id="clock-box" hidden>
        <h2>Clock</h2>
        <p class="clock-now"><span id="clock-now" role="timer" aria-live="off">—</span> <span class="muted" id="clock-offset"></span></p>
        <div class="buttons">
          <button type="button" data-advance="60">+1 min</button>
          <button type="button" data-advance="3600">+1 h</button>
          <button type="button" data-advance="86400">+1 day</button>
          <button type="button" data-advance="90000">+25 h</button>
        </div>
        <form id="clock-form" class="inline">
          <input id="clock-seconds" aria-label="Seconds to advance the clock" type="number" min="0" step="any" placeholder="seconds" required>
          <button type="submit">Advance</button>
          <button type="button" id="clock-real">Real time</button>
        </form>
      </div>
      <div class="box" id="tokens-box" hidden>
        <h2>Tokens</h2>
        <p class="muted">The next request with an expired token gets the system’s expired answer; a revoked one, its unknown-token answer.</p>
        <form id="tokens-form" class="stack">
          <label>System <select id="tokens-system"><option value="">every system</option>{{systems}}</select></label>
          <label>Token <input id="tokens-token" placeholder="all of them" autocomplete="off"></label>
          <div class="buttons"><button type="submit" data-op="expire">Expire</button><button type="submit" data-op="revoke">Revoke</button></div>
        </form>
      </div>
      <div class="box wide" id="faults-box" hidden>
        <h2>Faults <span class="count" id="faults-count">0</span></h2>
        <ol id="faults-list" class="faults"></ol>
        <form id="fault-form" class="fault-form">
          <label>Method <select id="fault-method"><option value="">any</option><option>GET</option><option>POST</option><option>PUT</option><option>DELETE</option><option>WS</option></select></label>
          <label>System <select id="fault-system"><option value="">any</option>{{systems}}</select></label>
          <label class="grow">Path or message type <input id="fault-path" placeholder="/path, /prefix/* or a WebSocket message type" required autocomplete="off"></label>
          <label>Times <input id="fault-times" type="number" min="1" placeholder="∞"></label>
          <label>Action <select id="fault-action">
            <option value="status">answer status</option><option value="delayMs">delay (ms)</option>
            <option value="close">close</option><option value="reset">reset (RST)</option>
            <option value="truncate">truncate</option><option value="malformedJSON">malformed JSON</option>
            <option value="reply">WebSocket: reply</option><option value="noReply">WebSocket: no reply</option>
            <option value="closeCode">WebSocket: close code</option>
          </select></label>
          <label class="grow">Value <input id="fault-value" placeholder="503" autocomplete="off"></label>
          <div class="buttons"><button type="submit">Add fault</button><button type="button" id="faults-clear">Remove all</button></div>
        </form>
      </div>
      <div class="box" id="instances-box" hidden>
        <h2>Instances <span class="count" id="instances-count">0</span></h2>
        <p class="muted">Isolated mocks on their own ports: one per parallel simulator clone or test class.</p>
        <ol id="instances-list" class="faults"></ol>
        <div class="buttons"><button type="button" id="instance-start">Start an instance</button></div>
      </div>
      <div class="box" id="state-box">
        <h2>State</h2>
        <p class="muted">Every system’s accounts, sessions and outbox as one document (GET and PUT /__mock/state).</p>
        <div class="buttons"><a id="state-export" class="button" href="/__mock/state" download="mock-state.json">Export</a></div>
        <form id="state-form" class="inline">
          <input id="state-file" type="file" accept="application/json,.json" aria-label="State document to import" required>
          <button type="submit">Import</button>
        </form>
      </div>
      <div class="box" id="about-box">
        <h2>Admin API</h2>
        <ul class="links" id="links">
          <li><a href="/__mock/sms">/__mock/sms</a></li>
          <li><a href="/__mock/emails">/__mock/emails</a></li>
          <li><a href="/__mock/accounts">/__mock/accounts</a></li>
          <li><a href="/__mock/health">/__mock/health</a></li>
        </ul>
        <p class="muted" id="missing"></p>
      </div>
    </div>
  </section>
</main>
</body>
</html>
"""#
}

extension ConsolePage {
    /// The page with the systems' options in its drop-downs (the script reads its list of
    /// systems and their titles from them, so it names none).
    package static func html(systems: [(name: String, title: String)], accountForms: [(name: String, fields: [AccountFormField])] = []) -> String {
        let options = systems.map { "<option value=\"\(escape($0.name))\" data-title=\"\(escape($0.title))\">\(escape($0.name))</option>" }.joined()
        let accountOptions = accountForms.map { "<option value=\"\(escape($0.name))\">\(escape($0.name))</option>" }.joined()
        return html.replacing("{{systems}}", with: options).replacing("{{accountSystems}}", with: accountOptions)
            .replacing("{{accountFields}}", with: AccountForm.html(accountForms))
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
