/// The console's stylesheet: system fonts that carry Cyrillic, light and dark schemes, and a
/// layout that folds to one column at a phone's width.
enum ConsoleStyle {
    static let css = #"""
:root {
  --bg: #f5f6f8; --surface: #ffffff; --surface-2: #f0f2f5; --text: #1b1f24; --muted: #646d78;
  --border: #dde1e6; --accent: #2a63d9; --accent-text: #ffffff; --danger: #c43232; --danger-text: #ffffff;
  --ok: #17773f; --warn: #8f5b00; --err: #c43232; --code-bg: #eef3ff; --code: #173a8a;
  --shadow: 0 1px 2px rgba(20, 30, 50, .06), 0 2px 8px rgba(20, 30, 50, .05);
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif;
  --mono: ui-monospace, "SF Mono", SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1216; --surface: #171b21; --surface-2: #1e232b; --text: #e6e9ee; --muted: #9aa3ae;
    --border: #2a313b; --accent: #5b8ef5; --accent-text: #0b0e12; --danger: #f06464; --danger-text: #0b0e12;
    --ok: #4cc27f; --warn: #e0a849; --err: #f06464; --code-bg: #1b2540; --code: #a9c4ff;
    --shadow: 0 1px 2px rgba(0, 0, 0, .4);
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.45 var(--sans); }
a { color: var(--accent); }
h2 { font-size: 1.05rem; margin: 0; font-weight: 650; letter-spacing: .01em; }
.muted { color: var(--muted); font-weight: 400; }
button, input, select { font: inherit; color: inherit; }
button {
  background: var(--surface-2); border: 1px solid var(--border); border-radius: 8px;
  padding: .4rem .8rem; cursor: pointer; white-space: nowrap;
}
button:hover { border-color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); color: var(--danger-text); font-weight: 600; }
button.primary, form button[type=submit] { background: var(--accent); border-color: var(--accent); color: var(--accent-text); font-weight: 600; }
input, select {
  background: var(--surface); border: 1px solid var(--border); border-radius: 8px;
  padding: .4rem .6rem; min-width: 0;
}
input:focus, select:focus, button:focus-visible, a:focus-visible, .panel:focus-visible, .detail:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
dialog { background: var(--surface); color: var(--text); border: 1px solid var(--border); border-radius: 12px; box-shadow: var(--shadow); max-width: min(28rem, calc(100vw - 2rem)); padding: 1rem 1.2rem; }
dialog::backdrop { background: rgba(10, 14, 20, .45); }
dialog p { margin: .6rem 0 1rem; }
dialog .buttons { justify-content: flex-end; }

.top {
  position: sticky; top: 0; z-index: 5; display: flex; align-items: center; gap: 1rem; flex-wrap: wrap;
  padding: .6rem 1.2rem; background: var(--surface); border-bottom: 1px solid var(--border);
}
.brand { font-weight: 700; font-size: 1.1rem; white-space: nowrap; }
.logo { color: var(--accent); }
.tabs { display: flex; gap: .25rem; flex: 1; overflow-x: auto; }
.tabs button { background: none; border: none; border-radius: 8px; color: var(--muted); font-weight: 600; }
.tabs button.active { background: var(--surface-2); color: var(--text); }
.top-right { display: flex; align-items: center; gap: .6rem; }
.pill { font-size: .8rem; padding: .15rem .6rem; border-radius: 999px; border: 1px solid var(--border); color: var(--muted); white-space: nowrap; }
.pill.live { color: var(--ok); border-color: var(--ok); }
.pill.poll { color: var(--warn); border-color: var(--warn); }
.pill.down { color: var(--err); border-color: var(--err); }

main { max-width: 1280px; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
.panel { display: none; }
.panel.active { display: block; }
.columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.3fr); gap: 1.2rem; }
.column-head { display: flex; align-items: center; justify-content: space-between; gap: .8rem; margin: .3rem 0 .8rem; flex-wrap: wrap; }
.column-head input { width: 15rem; max-width: 100%; }
.row-controls { display: flex; gap: .5rem; flex-wrap: wrap; }
.count { display: inline-block; min-width: 1.6em; padding: 0 .45em; border-radius: 999px; background: var(--surface-2); color: var(--muted); font-size: .8rem; text-align: center; vertical-align: middle; }
.empty { color: var(--muted); text-align: center; padding: 2rem 1rem; border: 1px dashed var(--border); border-radius: 12px; margin: 0; }
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: .8rem; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: .9rem 1rem; box-shadow: var(--shadow); overflow-wrap: anywhere; }
.card.fresh { animation: fresh 1.6s ease-out; }
@keyframes fresh { from { box-shadow: 0 0 0 3px var(--accent); } to { box-shadow: var(--shadow); } }
.card-head { display: flex; justify-content: space-between; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
.who { font-weight: 650; }
.when { color: var(--muted); font-size: .85rem; white-space: nowrap; }
.code-row { display: flex; align-items: center; gap: .8rem; margin: .4rem 0 .2rem; flex-wrap: wrap; }
.code {
  font: 700 clamp(2.8rem, 9vw, 4rem)/1.1 var(--mono); letter-spacing: .12em; color: var(--code);
  background: var(--code-bg); border-radius: 10px; padding: .2rem .6rem; user-select: all; font-variant-numeric: tabular-nums;
}
.sms-text { color: var(--muted); margin: .2rem 0 0; }
.subject { font-weight: 650; font-size: 1.02rem; margin: .3rem 0; }
.body { white-space: pre-wrap; margin: .3rem 0 .6rem; font-size: .95rem; }
.mail-link { display: inline-block; margin-top: .2rem; padding: .45rem .9rem; border-radius: 8px; background: var(--accent); color: var(--accent-text); text-decoration: none; font-weight: 600; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.mail-url { display: block; font: .8rem var(--mono); color: var(--muted); margin-top: .35rem; }

.systems { display: grid; gap: 1.2rem; }
.system h2 { margin-bottom: .5rem; text-transform: none; }
.table-wrap { overflow-x: auto; background: var(--surface); border: 1px solid var(--border); border-radius: 12px; box-shadow: var(--shadow); }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid var(--border); vertical-align: top; }
th { font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 600; background: var(--surface-2); }
tr:last-child td { border-bottom: none; }
.badge { display: inline-block; font-size: .78rem; font-weight: 600; padding: .05rem .5rem; border-radius: 999px; border: 1px solid currentColor; white-space: nowrap; }
.badge.yes { color: var(--ok); }
.badge.no { color: var(--warn); }
.chip { display: inline-block; font: .8rem var(--mono); background: var(--surface-2); border-radius: 6px; padding: .05rem .4rem; margin: 0 .25rem .2rem 0; }
.note { color: var(--muted); font-size: .85rem; }
td.c-phone, td.c-login { white-space: nowrap; }
td.c-id { font: .8rem var(--mono); color: var(--muted); }

.journal-layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
.journal-layout.with-detail { grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); }
.journal li { display: block; border-bottom: 1px solid var(--border); }
.journal li:last-child { border-bottom: none; }
.journal { list-style: none; margin: 0; padding: 0; background: var(--surface); border: 1px solid var(--border); border-radius: 12px; overflow: hidden; box-shadow: var(--shadow); }
.entry { display: grid; grid-template-columns: 4.6rem 6.4rem 3.4rem minmax(0, 1fr) 3.2rem 4.4rem; gap: .6rem; align-items: baseline; padding: .45rem .8rem; cursor: pointer; font-size: .9rem; width: 100%; text-align: left; background: none; border: none; border-radius: 0; white-space: normal; }
.entry:focus-visible { outline-offset: -2px; }
.entry:hover, .entry.selected { background: var(--surface-2); }
.entry .when { font-variant-numeric: tabular-nums; }
.entry .path { font-family: var(--mono); font-size: .85rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
/* A message's row wraps rather than cut off the reply's type at its end. */
.entry .path.ws { white-space: normal; overflow-wrap: anywhere; }
.entry .hint { grid-column: 4 / -1; color: var(--warn); font-size: .82rem; }
.entry .dur { text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
.method { font: 600 .8rem var(--mono); }
.sys { font-size: .78rem; color: var(--muted); }
.status { font: 700 .85rem var(--mono); }
.s2 { color: var(--ok); } .s3 { color: var(--accent); } .s4 { color: var(--warn); } .s5 { color: var(--err); } .s-cut { color: var(--err); }
.detail { background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: .9rem 1rem; box-shadow: var(--shadow); align-self: start; position: sticky; top: 4.5rem; max-height: calc(100vh - 6rem); overflow: auto; }
.detail h3 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: .9rem 0 .3rem; }
.detail pre { font: .82rem/1.4 var(--mono); background: var(--surface-2); padding: .6rem; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
.detail .close { float: right; }

.control-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1.2rem; }
.box { background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 1rem; box-shadow: var(--shadow); }
.box.wide { grid-column: 1 / -1; }
.box h2 { margin-bottom: .6rem; }
.clock-now { font: 600 1.2rem var(--mono); margin: .2rem 0 .8rem; }
.clock-now .muted { display: block; font: 400 .85rem var(--sans); margin-top: .2rem; }
.buttons { display: flex; gap: .5rem; flex-wrap: wrap; margin: .4rem 0; }
.inline { display: flex; gap: .5rem; flex-wrap: wrap; }
.inline input { width: 8rem; }
.inline input#recording-target { width: auto; flex: 1 1 16rem; }
.stack { display: grid; gap: .6rem; }
label { display: grid; gap: .2rem; font-size: .82rem; color: var(--muted); }
label > input, label > select { color: var(--text); font-size: .95rem; }
.fault-form { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin-top: .8rem; }
.fault-form .grow { flex: 1 1 12rem; }
#account-form { margin: 0 0 1.2rem; }
.account-fields { display: contents; }
.account-fields[hidden] { display: none; }
label.check { display: flex; align-items: center; gap: .4rem; font-size: .9rem; color: var(--text); padding-bottom: .45rem; }
a.button {
  display: inline-block; background: var(--surface-2); border: 1px solid var(--border); border-radius: 8px;
  padding: .4rem .8rem; color: var(--text); text-decoration: none;
}
a.button:hover { border-color: var(--accent); }
.inbox-actions { justify-content: flex-end; margin: 0 0 .4rem; }
button.delete { padding: .2rem .6rem; font-size: .85rem; }
.faults { list-style: none; margin: 0; padding: 0; display: grid; gap: .4rem; }
.faults li { display: flex; gap: .6rem; align-items: center; justify-content: space-between; background: var(--surface-2); border-radius: 8px; padding: .4rem .6rem; font: .85rem var(--mono); overflow-wrap: anywhere; }
.links { margin: 0; padding-left: 1.1rem; font-family: var(--mono); font-size: .88rem; }
.toast { position: fixed; bottom: 1.2rem; left: 50%; transform: translateX(-50%); z-index: 10; background: var(--text); color: var(--bg); padding: .55rem 1rem; border-radius: 10px; box-shadow: var(--shadow); font-weight: 600; max-width: calc(100vw - 2rem); }
.toast.error { background: var(--err); color: var(--danger-text); }

@media (max-width: 760px) {
  .top { padding: .5rem .8rem; gap: .5rem; }
  .brand .muted { display: none; }
  .pill { font-size: .72rem; padding: .1rem .5rem; }
  .tabs { order: 3; flex-basis: 100%; }
  .top-right { margin-left: auto; }
  main { padding: .8rem .8rem 3rem; }
  .columns, .journal-layout.with-detail { grid-template-columns: minmax(0, 1fr); }
  .column-head input { width: 100%; }
  .entry { grid-template-columns: 3rem minmax(0, 1fr) 3.2rem 3.8rem; gap: .5rem; }
  .tabs button { padding: .35rem .55rem; }
  .entry .sys { display: none; }
  .entry .when-cell { display: none; }
  .entry .hint { grid-column: 1 / -1; }
  .detail { position: static; max-height: none; }
  .accounts table, .accounts thead, .accounts tbody, .accounts tr, .accounts td { display: block; }
  .accounts thead { display: none; }
  .accounts tr { padding: .5rem .2rem; border-bottom: 1px solid var(--border); }
  .accounts tr:last-child { border-bottom: none; }
  .accounts td { border: none; padding: .15rem .6rem; display: grid; grid-template-columns: 6.5rem minmax(0, 1fr); gap: .5rem; }
  .accounts td::before { content: attr(data-label); color: var(--muted); font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; padding-top: .15rem; }
  .accounts td.blank { display: none; }
  .accounts td.c-phone, .accounts td.c-login { white-space: normal; }
}
"""#
}
