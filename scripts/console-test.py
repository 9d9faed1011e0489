#!/usr/bin/env python3
"""Drives the web console (/__mock/) in headless Chromium against a running mock-server.

Usage: console-test.py BASE_URL SCREENSHOT_DIR

A musbooking registration runs over plain HTTP (as an app would) while the page is open; the
page must show the SMS code without a reload, the e-mail's confirmation link must confirm the
account when clicked (the accounts view flips isConfirmed), and Reset must empty the inbox.
Every step is saved as a screenshot at desktop width and at a phone's width (375 px).

Accessibility: axe-core (from axe-selenium-python) runs on every tab, with the journal detail and
the Reset dialog open, at both widths in light and dark: 0 serious or critical violations. A
keyboard-only pass reaches every control with Tab, moves between tabs with the arrow keys, and
uses the filters, the journal rows, the clock, the fault and token forms and Reset (with its
confirmation) without a mouse.

Journal: a request a fault cut shows "closed" or "reset", a gateway WebSocket message the type
of its reply.

Live: a fault, an account and an instance added (and removed) through the admin API while the
page is open appear (and go) without a reload; the account form asks for each system's own
fields, a row's Delete, Clear inbox and the state's Import work.
"""
import importlib.util
import json
import os
import sys
import http.client as http_client
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BASE, SHOTS = sys.argv[1].rstrip("/"), sys.argv[2]
PHONE = "+7 (912) 345-67-89"
checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise SystemExit(f"console-test: FAILED: {what}")
    checks += 1


def http(method, path, form=None, headers=None, data=None):
    """An app's request: musbooking takes form bodies."""
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers or {})
    if form is not None:
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--lang=ru-RU", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    # Headless windows are at least 500 px wide: emulate the phone's viewport exactly.
    driver.viewport = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", driver.viewport)
    return driver


def shot(driver, name):
    path = os.path.join(SHOTS, name + ".png")
    # The whole page, not just the viewport: the CDP metrics give its full height.
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    height = int(min(metrics["cssContentSize"]["height"], 4000))
    full = dict(driver.viewport, height=max(height, driver.viewport["height"]))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", full)
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", driver.viewport)
    print(f"console-test: screenshot {path}")


def click(driver, element):
    """Clicks like a person: scrolled to the middle, so the sticky header cannot cover it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def click_current(driver, wait, selector, last=False):
    """Finds the element (the first, or the last with `last`) now and clicks it: the page
    re-renders its lists on every live event, so an element found earlier may have been replaced
    (a person clicks what is on screen)."""
    for _ in range(5):
        try:
            element = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, selector)))
            if last:
                element = driver.find_elements(By.CSS_SELECTOR, selector)[-1]
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{selector} kept being replaced before it could be clicked")


def tab(driver, name):
    driver.find_element(By.CSS_SELECTOR, f'#tabs button[data-tab="{name}"]').click()


def run(width, height, label):
    http("POST", "/__mock/reset", headers={"X-Mock-Admin": "1"})
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        # A browser opening the server's root lands on the console.
        driver.get(BASE + "/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        check(urllib.parse.urlparse(driver.current_url).path == "/__mock/", f"{label}: / redirects to the console")
        check(driver.execute_script("return window.innerWidth") == width, f"{label}: viewport is {width} px wide")
        check(driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"),
              f"{label}: nothing wider than the viewport")
        check(driver.find_element(By.ID, "sms-empty").is_displayed(), f"{label}: empty inbox says so")
        # Probes of control-plane paths this build may not serve are 404s ("network"); script
        # errors and CSP violations are not.
        logs = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE" and e.get("source") != "network"]
        check(not logs, f"{label}: no console errors (CSP violations, exceptions): {logs}")
        # The page's policy lets it open its own origin's WebSockets (the event stream's way in).
        opened = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const ws = new WebSocket("ws://" + location.host + "/__mock/echo");
            ws.onopen = () => ws.send("проверка");
            ws.onmessage = (m) => { ws.close(); done(m.data); };
            ws.onerror = () => done("error");""")
        check(opened == "проверка", f"{label}: a same-origin WebSocket passes the CSP and the guard ({opened})")
        shot(driver, f"{label}-1-empty")

        # Registration, step 1: the app asks for an SMS; the code shows up without a reload.
        status, text = http("POST", "/api/users/sms", form={"phone": PHONE})
        check(status == 200, f"sms: {status} {text}")
        code_el = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#sms-list .code")))
        code = code_el.text.strip()
        outbox = json.loads(http("GET", "/__mock/sms")[1])
        check(code == outbox[-1]["code"], f"{label}: the page shows the outbox's code ({code})")
        check(code_el.size["height"] >= 40, f"{label}: the code is large ({code_el.size})")
        shot(driver, f"{label}-2-sms-code")

        # The phone filter takes the number in any written form (the server normalises it).
        phone_filter = driver.find_element(By.ID, "phone-filter")
        phone_filter.send_keys("9000000000")
        wait.until(EC.visibility_of_element_located((By.ID, "sms-empty")))
        phone_filter.clear()
        phone_filter.send_keys("8 912 345-67-89")
        wait.until(lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#sms-list .code")] == [code])
        phone_filter.clear()
        phone_filter.send_keys(" ")
        phone_filter.send_keys("\b")

        # Step 2: register with that code, log in, ask for the confirmation e-mail.
        status, text = http("POST", "/api/users/register", form={
            "name": "Иван", "lastname": "Петров", "phone": PHONE, "code": code,
            "password": "Secret99", "email": "ivan.petrov@example.ru"})
        check(status == 200, f"register: {status} {text}")
        login = json.loads(text)["login"]
        status, text = http("POST", "/api/auth/login", form={"login": login, "password": "Secret99"})
        check(status == 200, f"login: {status} {text}")
        token = json.loads(text)["token"]
        status, text = http("POST", "/api/users/send-confirm", headers={"Authorization": "Bearer " + token})
        check(status == 200, f"send-confirm: {status} {text}")
        wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#email-list .mail-link")))
        check("Иван" in driver.page_source or "Подтверждение" in driver.find_element(By.ID, "email-list").text,
              f"{label}: Cyrillic subject shown")
        shot(driver, f"{label}-3-email")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        shot(driver, f"{label}-3-email-dark")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

        # The accounts view shows the new account, not yet confirmed, with its session.
        tab(driver, "accounts")
        row = f'#accounts-musbooking tr[data-login="{login}"]'
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, row + ' [data-confirmed="false"]')))
        check(token[:4] + "…" in driver.find_element(By.CSS_SELECTOR, row).text, f"{label}: session token shortened")
        check(token not in driver.page_source, f"{label}: the full token is never shown")
        check("Secret99" not in driver.page_source, f"{label}: no password shown")
        shot(driver, f"{label}-4-accounts-unconfirmed")

        # Step 3: click the e-mail's link, as in a mailbox (a new tab), then see isConfirmed flip.
        tab(driver, "inbox")
        console = driver.current_window_handle
        click_current(driver, wait, "#email-list .mail-link")
        wait.until(lambda d: len(d.window_handles) == 2)
        driver.switch_to.window([h for h in driver.window_handles if h != console][0])
        wait.until(lambda d: "Почта пользователя подтверждена" in d.page_source)
        shot(driver, f"{label}-5-link-opened")
        driver.close()
        driver.switch_to.window(console)
        tab(driver, "accounts")
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, row + ' [data-confirmed="true"]')))
        shot(driver, f"{label}-6-accounts-confirmed")

        # Accessibility of every tab, with content in each (a fault listed, a journal entry open).
        http("POST", "/__mock/faults", headers={"Content-Type": "application/json"},
             data=json.dumps({"path": "/nowhere/*", "action": {"status": 503}}).encode())
        audit(driver, wait, label)

        # Step 4: Reset asks first; Cancel keeps everything, Reset empties the inbox (and the
        # new account is gone).
        tab(driver, "inbox")
        driver.find_element(By.ID, "reset").click()
        wait.until(lambda d: d.execute_script("return document.getElementById('reset-dialog').open"))
        driver.find_element(By.ID, "reset-cancel").click()
        wait.until(lambda d: not d.execute_script("return document.getElementById('reset-dialog').open"))
        check(json.loads(http("GET", "/__mock/sms")[1]) != [], f"{label}: Cancel leaves the outbox alone")
        driver.find_element(By.ID, "reset").click()
        wait.until(EC.element_to_be_clickable((By.ID, "reset-confirm"))).click()
        wait.until(EC.visibility_of_element_located((By.ID, "sms-empty")))
        wait.until(EC.visibility_of_element_located((By.ID, "email-empty")))
        check(not driver.find_elements(By.CSS_SELECTOR, "#sms-list .card"), f"{label}: no SMS after reset")
        check(json.loads(http("GET", "/__mock/sms")[1]) == [], f"{label}: the server's outbox is empty")
        shot(driver, f"{label}-7-after-reset")
        tab(driver, "controls")
        shot(driver, f"{label}-8-controls")
        if driver.find_elements(By.CSS_SELECTOR, '#tabs button[data-tab="journal"]:not([hidden])'):
            tab(driver, "journal")
            shot(driver, f"{label}-9-journal")
    finally:
        driver.quit()


def scheme(driver, name):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": name}]})


def visible_tabs(driver):
    return [b.get_attribute("data-tab") for b in driver.find_elements(By.CSS_SELECTOR, '#tabs [role="tab"]') if b.is_displayed()]


def axe_run(driver, axe, what):
    result = axe.run()
    bad = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
    detail = "; ".join(f'{v["id"]} ({v["impact"]}): {v["help"]} at {[(n["target"], n.get("failureSummary")) for n in v["nodes"]][:4]}' for v in bad)
    check(not bad, f"{what}: axe found serious/critical violations: {detail}")
    print(f"console-test: axe {what}: 0 serious/critical ({len(result['violations'])} minor, {len(result['passes'])} rules passed)")


def audit(driver, wait, label):
    """axe-core on every tab in light and dark, plus the journal detail and the Reset dialog."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    tabs = visible_tabs(driver)
    check({"inbox", "accounts", "controls"} <= set(tabs), f"{label}: tabs shown ({tabs})")
    for name in ("light", "dark"):
        scheme(driver, name)
        for t in tabs:
            tab(driver, t)
            wait.until(lambda d: d.find_element(By.ID, t).is_displayed())
            if t == "journal":
                click_current(driver, wait, "#journal-list .entry")
                wait.until(EC.visibility_of_element_located((By.ID, "journal-detail")))
            axe_run(driver, axe, f"{label} {name} {t}")
            if t in ("journal", "controls"):
                shot(driver, f"{label}-a11y-{t}-{name}")
            if t == "journal":
                click_current(driver, wait, "#journal-detail .close")
        driver.find_element(By.ID, "reset").click()
        wait.until(lambda d: d.execute_script("return document.getElementById('reset-dialog').open"))
        axe_run(driver, axe, f"{label} {name} reset dialog")
        shot(driver, f"{label}-a11y-reset-dialog-{name}")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait.until(lambda d: not d.execute_script("return document.getElementById('reset-dialog').open"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# ---- keyboard only -----------------------------------------------------------------------

FOCUSABLE = """return [...document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')]
  .filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')"""


def keys(driver, *sequence):
    ActionChains(driver).send_keys(*sequence).perform()


def focused(driver, selector):
    return driver.execute_script("return !!document.activeElement && document.activeElement.matches(arguments[0])", selector)


def tab_to(driver, selector, limit=120, back=False):
    """Presses Tab (or Shift+Tab) until the focus is on `selector`, as a keyboard user would."""
    for _ in range(limit):
        if focused(driver, selector):
            return
        if back:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            keys(driver, Keys.TAB)
    raise SystemExit(f"console-test: FAILED: Tab never reached {selector}")


def select_tab_by_keyboard(driver, name):
    """Focuses the selected tab (one Tab stop) and moves with the arrow keys to `name`."""
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    tab_to(driver, '#tabs [role="tab"][aria-selected="true"]')
    for _ in range(6):
        if focused(driver, f'#tabs [data-tab="{name}"]'):
            break
        keys(driver, Keys.ARROW_RIGHT)
    check(focused(driver, f'#tabs [data-tab="{name}"][aria-selected="true"]'), f"arrow keys select the {name} tab")
    check(driver.find_element(By.ID, name).is_displayed(), f"the {name} panel shows")


def reachable(driver, label, name):
    """Every visible control on this tab (and in the header) is a Tab stop, in one pass."""
    driver.execute_script("for (const e of document.querySelectorAll('[data-kb]')) delete e.dataset.kb")
    want = driver.execute_script(FOCUSABLE + ".map((e, i) => { e.dataset.kb = String(i); return i; })")
    seen = set()
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    for _ in range(len(want) * 2 + 10):
        keys(driver, Keys.TAB)
        kb = driver.execute_script("return document.activeElement && document.activeElement.dataset.kb")
        if kb is not None:
            seen.add(int(kb))
    missed = driver.execute_script("""return [...document.querySelectorAll('[data-kb]')].filter((e) => !arguments[0].includes(Number(e.dataset.kb)))
        .map((e) => e.outerHTML.slice(0, 90))""", sorted(seen))
    # The tab bar is one Tab stop (roving tabindex): the unselected tabs are reached by arrows.
    check(not missed, f"{label} {name}: controls Tab never reached: {missed}")
    print(f"console-test: keyboard {label} {name}: {len(want)} controls reached with Tab")


def run_keyboard(width, height, label):
    """The console used with the keyboard alone."""
    http("POST", "/__mock/reset", headers={"X-Mock-Admin": "1"})
    http("POST", "/api/users/sms", form={"phone": PHONE})
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        driver.get(BASE + "/__mock/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#sms-list .code")))
        tabs = visible_tabs(driver)
        for name in tabs:
            select_tab_by_keyboard(driver, name)
            reachable(driver, label, name)
        # Home, End and wrapping arrows.
        select_tab_by_keyboard(driver, "accounts")
        keys(driver, Keys.END)
        check(focused(driver, f'#tabs [data-tab="{tabs[-1]}"][aria-selected="true"]'), f"{label}: End selects the last tab")
        keys(driver, Keys.ARROW_RIGHT)
        check(focused(driver, '#tabs [data-tab="inbox"][aria-selected="true"]'), f"{label}: Right on the last tab wraps to the first")
        keys(driver, Keys.ARROW_LEFT)
        check(focused(driver, f'#tabs [data-tab="{tabs[-1]}"]'), f"{label}: Left on the first wraps to the last")
        keys(driver, Keys.HOME)
        check(focused(driver, '#tabs [data-tab="inbox"]'), f"{label}: Home selects the first tab")

        # Inbox: the phone filter, then Copy.
        tab_to(driver, "#phone-filter")
        keys(driver, "9000000000")
        wait.until(EC.visibility_of_element_located((By.ID, "sms-empty")))
        keys(driver, *[Keys.BACKSPACE] * 10)
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#sms-list .copy")))
        tab_to(driver, "#sms-list .copy")
        keys(driver, Keys.ENTER)
        wait.until(EC.visibility_of_element_located((By.ID, "toast")))

        # Journal: a row opens its detail with Enter and closes with Space.
        if "journal" in tabs:
            select_tab_by_keyboard(driver, "journal")
            wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#journal-list .entry")))
            tab_to(driver, "#journal-list .entry")
            keys(driver, Keys.ENTER)
            wait.until(EC.visibility_of_element_located((By.ID, "journal-detail")))
            check("/api/users/sms" in driver.find_element(By.ID, "journal-detail").text, f"{label}: Enter on a row opens its detail")
            check(focused(driver, '#journal-list .entry[aria-expanded="true"]'), f"{label}: the focus stays on the open row")
            keys(driver, Keys.SPACE)
            wait.until(EC.invisibility_of_element_located((By.ID, "journal-detail")))

        # Controls: clock buttons and form, fault form and removal, token form.
        select_tab_by_keyboard(driver, "controls")
        first = driver.find_element(By.ID, "clock-now").text
        wait.until(lambda d: d.find_element(By.ID, "clock-now").text not in ("", "—", first))
        tab_to(driver, '[data-advance="60"]')
        keys(driver, Keys.ENTER)
        wait.until(lambda d: "+60 s" in d.find_element(By.ID, "clock-offset").text)
        tab_to(driver, "#clock-seconds")
        keys(driver, "30", Keys.ENTER)
        wait.until(lambda d: "+90 s" in d.find_element(By.ID, "clock-offset").text)
        tab_to(driver, "#clock-real")
        keys(driver, Keys.SPACE)
        wait.until(lambda d: d.find_element(By.ID, "clock-offset").text == "real time")

        tab_to(driver, "#fault-method")
        keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN)   # any → GET → POST
        tab_to(driver, "#fault-path")
        keys(driver, "/rsschool/authorize", Keys.TAB, "1", Keys.ENTER)
        wait.until(lambda d: "/rsschool/authorize" in d.find_element(By.ID, "faults-list").text)
        faults = json.loads(http("GET", "/__mock/faults")[1])
        check([(f.get("method"), f["path"], f["remaining"]) for f in faults] == [("POST", "/rsschool/authorize", 1)],
              f"{label}: the fault typed with the keyboard was added ({faults})")
        tab_to(driver, "#faults-list button", back=True)
        keys(driver, Keys.ENTER)
        wait.until(lambda d: json.loads(http("GET", "/__mock/faults")[1]) == [])

        tab_to(driver, "#tokens-system", back=True)
        keys(driver, Keys.ARROW_DOWN)
        tab_to(driver, '#tokens-form [data-op="revoke"]')
        keys(driver, Keys.ENTER)
        wait.until(lambda d: "revoked" in d.find_element(By.ID, "toast").text)

        # Reset: Enter opens the confirmation, Escape cancels it, Confirm resets.
        tab_to(driver, "#reset", back=True)
        keys(driver, Keys.ENTER)
        wait.until(lambda d: d.execute_script("return document.getElementById('reset-dialog').open"))
        check(focused(driver, "#reset-dialog button"), f"{label}: the dialog takes the focus")
        keys(driver, Keys.ESCAPE)
        wait.until(lambda d: not d.execute_script("return document.getElementById('reset-dialog').open"))
        check(focused(driver, "#reset"), f"{label}: Escape returns the focus to Reset")
        check(json.loads(http("GET", "/__mock/sms")[1]) != [], f"{label}: Escape resets nothing")
        keys(driver, Keys.ENTER)
        wait.until(lambda d: d.execute_script("return document.getElementById('reset-dialog').open"))
        tab_to(driver, "#reset-confirm")
        keys(driver, Keys.ENTER)
        wait.until(lambda d: json.loads(http("GET", "/__mock/sms")[1]) == [])
    finally:
        driver.quit()


def lan_address():
    """The non-loopback address console-test.sh put on the loopback of its own network namespace
    (192.0.2.1); None outside one. Never this machine's LAN address: no test traffic leaves loopback
    or a namespace the test made itself."""
    return os.environ.get("MOCK_CONSOLE_REMOTE_ADDRESS") or None


def run_remote(width, height, label):
    """The console opened from another machine's browser: 403 until the token URL, then live."""
    token, address = os.environ.get("MOCK_CONSOLE_TOKEN"), lan_address()
    if not token or not address:
        print(f"console-test: {label}: skipped (token {'set' if token else 'unset'}, namespace address {address}; needs root for its network namespace)")
        return
    port = urllib.parse.urlparse(BASE).port
    remote = f"http://{address}:{port}"
    http("POST", "/__mock/reset", headers={"X-Mock-Admin": "1"})
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        driver.get(remote + "/__mock/")
        check("?token=" in driver.find_element(By.TAG_NAME, "body").text, f"{label}: without the token the page is refused and says how")
        driver.get(remote + "/__mock/?token=" + urllib.parse.quote(token))
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        check(driver.current_url == remote + "/__mock/", f"{label}: the token leaves the address bar ({driver.current_url})")
        check("mock_admin" not in driver.execute_script("return document.cookie"), f"{label}: the cookie is HttpOnly")
        wait.until(lambda d: d.find_element(By.ID, "live").text == "live")
        status, _ = http("POST", "/api/users/sms", form={"phone": PHONE})
        check(status == 200, f"{label}: sms {status}")
        code = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#sms-list .code"))).text.strip()
        check(code == json.loads(http("GET", "/__mock/sms")[1])[-1]["code"], f"{label}: the code arrives live over the event stream")
        tab(driver, "controls")
        click(driver, driver.find_element(By.CSS_SELECTOR, '[data-advance="60"]'))
        wait.until(lambda d: "+60 s" in d.find_element(By.ID, "clock-offset").text)
        check(json.loads(http("GET", "/__mock/clock")[1])["offsetSeconds"] == 60, f"{label}: a write from the remote page went through")
        shot(driver, f"{label}-remote-signed-in")
    finally:
        driver.quit()
        http("DELETE", "/__mock/clock", headers={"X-Mock-Admin": "1"})


def admin(method, path, body=None):
    """A test's admin call, made while the page is open (JSON body, the write header)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"X-Mock-Admin": "1"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    return http(method, path, headers=headers, data=data)


def run_live(width, height, label):
    """Changes a test makes through the admin API appear in the open page without a reload; the
    page's own account form, per-account Delete, Clear inbox and state import work."""
    http("POST", "/__mock/reset", headers={"X-Mock-Admin": "1"})
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        driver.get(BASE + "/__mock/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        wait.until(lambda d: d.find_element(By.ID, "live").text == "live")
        # A marker on the window: a reload would lose it.
        driver.execute_script("window.__noReload = 1")

        tab(driver, "controls")
        status, text = admin("POST", "/__mock/faults", {"path": "/live/*", "times": 3, "action": {"status": 503}})
        check(status == 201, f"{label}: fault {status} {text}")
        wait.until(lambda d: "/live/*" in d.find_element(By.ID, "faults-list").text and "3 left" in d.find_element(By.ID, "faults-list").text)
        http("GET", "/live/1")
        wait.until(lambda d: "2 left" in d.find_element(By.ID, "faults-list").text)
        admin("DELETE", "/__mock/faults")
        wait.until(lambda d: "/live/*" not in d.find_element(By.ID, "faults-list").text)

        status, text = admin("POST", "/__mock/instances", {})
        check(status == 201, f"{label}: instance {status} {text}")
        instance = json.loads(text)
        wait.until(lambda d: instance["baseURL"] in d.find_element(By.ID, "instances-list").text)
        admin("DELETE", "/__mock/instances/" + instance["id"])
        wait.until(lambda d: instance["baseURL"] not in d.find_element(By.ID, "instances-list").text)

        tab(driver, "accounts")
        status, text = admin("POST", "/__mock/accounts", {"system": "rows", "email": "live@example.com", "password": "pw1"})
        check(status == 201, f"{label}: account {status} {text}")
        row = '#accounts-rows tr[data-login="live@example.com"]'
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, row)))
        admin("DELETE", "/__mock/accounts/rows/live@example.com")
        wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, row)))

        # The form asks for the picked system's own fields: musbooking's phone, then rows' e-mail.
        Select = __import__("selenium.webdriver.support.ui", fromlist=["Select"]).Select
        Select(driver.find_element(By.ID, "account-system")).select_by_value("musbooking")
        check(driver.find_element(By.ID, "account-musbooking-phone").is_displayed(), f"{label}: musbooking asks for a phone")
        check(not driver.find_element(By.ID, "account-rows-email").is_displayed(), f"{label}: rows' fields hidden meanwhile")
        driver.find_element(By.ID, "account-musbooking-phone").send_keys("+7 912 000-00-07")
        driver.find_element(By.ID, "account-musbooking-password").send_keys("pass123")
        driver.find_element(By.ID, "account-musbooking-email").send_keys("live@example.ru")
        click(driver, driver.find_element(By.ID, "account-musbooking-isConfirmed"))
        click(driver, driver.find_element(By.CSS_SELECTOR, "#account-form button[type=submit]"))
        made = '#accounts-musbooking tr[data-login="9120000007"]'
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, made + ' [data-confirmed="true"]')))
        Select(driver.find_element(By.ID, "account-system")).select_by_value("rows")
        driver.find_element(By.ID, "account-rows-email").send_keys("form@example.com")
        driver.find_element(By.ID, "account-rows-password").send_keys("pw2")
        click(driver, driver.find_element(By.CSS_SELECTOR, "#account-form button[type=submit]"))
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, '#accounts-rows tr[data-login="form@example.com"]')))
        status, _ = http("POST", "/auth/login", headers={"Content-Type": "application/json"},
                         data=json.dumps({"email": "form@example.com", "password": "pw2"}).encode())
        check(status == 200, f"{label}: the account made in the form logs in ({status})")
        shot(driver, f"{label}-live-accounts")
        click_current(driver, wait, '#accounts-musbooking tr[data-login="9120000007"] button.delete')
        wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, made)))
        check("9120000007" not in http("GET", "/__mock/accounts")[1], f"{label}: Delete removed the account on the server")

        # Clear inbox; then a state exported before it comes back through Import.
        tab(driver, "inbox")
        http("POST", "/api/users/sms", form={"phone": PHONE})
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#sms-list .code")))
        exported = http("GET", "/__mock/state")[1]
        click(driver, driver.find_element(By.ID, "inbox-clear"))
        wait.until(EC.visibility_of_element_located((By.ID, "sms-empty")))
        check(json.loads(http("GET", "/__mock/sms")[1]) == [], f"{label}: Clear inbox emptied the server's outbox")
        tab(driver, "controls")
        check(driver.find_element(By.ID, "state-export").get_attribute("href").endswith("/__mock/state"), f"{label}: Export links the state")
        path = os.path.join(SHOTS, f"state-{label}.json")
        with open(path, "w") as f:
            f.write(exported)
        driver.find_element(By.ID, "state-file").send_keys(path)
        click(driver, driver.find_element(By.CSS_SELECTOR, "#state-form button[type=submit]"))
        wait.until(lambda d: "imported" in d.find_element(By.ID, "toast").text)
        check(len(json.loads(http("GET", "/__mock/sms")[1])) == 1, f"{label}: Import put the exported outbox back")
        tab(driver, "inbox")
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#sms-list .code")))
        check(driver.execute_script("return window.__noReload") == 1, f"{label}: every change arrived without a reload")
        shot(driver, f"{label}-live-inbox")
    finally:
        driver.quit()


def cut(path):
    """A request whose connection a fault closes or resets: no answer at all."""
    try:
        http("GET", path)
    except (urllib.error.URLError, ConnectionError, http_client.HTTPException) as error:
        return error
    return None


def run_journal_answers(width, height, label):
    """The journal's rows say what each request got: a connection a fault cut shows "closed" or
    "reset" (its entry has no status), a gateway WebSocket message the type of its reply."""
    http("POST", "/__mock/reset", headers={"X-Mock-Admin": "1"})
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        driver.get(BASE + "/__mock/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        tab(driver, "journal")
        for path, action in (("/rows/701", {"close": True}), ("/rows/702", {"reset": True})):
            status, text = admin("POST", "/__mock/faults", {"path": path, "times": 1, "action": action})
            check(status == 201, f"{label}: fault {status} {text}")
            check(cut(path) is not None, f"{label}: {path} was cut")
        entries = json.loads(admin("GET", "/__mock/requests?path=/rows/70*")[1])
        check([e["status"] for e in entries] == [None, None], f"{label}: cut requests are journaled without a status ({entries})")
        # A gateway message from the page itself (the browser's WebSocket), answered CUSTOMER_API_TOKEN.
        reply = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/customer-gateway/customer");
            ws.onopen = () => ws.send(JSON.stringify({type: "LOGIN_CUSTOMER", sequence_id: "console-1",
                                                      data: {email: "fpi@bk.ru", password: "123123"}}));
            ws.onmessage = (m) => { ws.close(); done(m.data); };
            ws.onerror = () => done("error");""")
        check("CUSTOMER_API_TOKEN" in reply, f"{label}: the gateway answered {reply}")

        def row(path):
            rows = [r for r in driver.find_elements(By.CSS_SELECTOR, "#journal-list .entry") if path in r.find_element(By.CSS_SELECTOR, ".path").text]
            return rows[0] if rows else None
        wait.until(lambda d: row("/rows/701") and row("/rows/702") and row("LOGIN_CUSTOMER"))
        for path, word in (("/rows/701", "closed"), ("/rows/702", "reset")):
            shown = row(path).find_element(By.CSS_SELECTOR, ".status").text
            check(shown == word, f"{label}: {path}'s status cell says {word!r}, not {shown!r}")
        ws = row("LOGIN_CUSTOMER")
        check(ws.find_element(By.CSS_SELECTOR, ".method").text == "WS", f"{label}: the message's row is a WS row")
        check("LOGIN_CUSTOMER → CUSTOMER_API_TOKEN" in ws.find_element(By.CSS_SELECTOR, ".path").get_attribute("title"),
              f"{label}: the WS row names its reply's type ({ws.text!r})")
        # The filter finds rows by what they show.
        driver.find_element(By.ID, "journal-filter").send_keys("reset")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#journal-list .entry")) == 1)
        check(row("/rows/702") is not None, f"{label}: filtering on \"reset\" keeps the reset row")
        driver.find_element(By.ID, "journal-filter").clear()
        driver.find_element(By.ID, "journal-filter").send_keys(" ")
        wait.until(lambda d: row("/rows/701") is not None)
        click(driver, row("/rows/702"))
        detail = wait.until(EC.visibility_of_element_located((By.ID, "journal-detail")))
        check(" · reset · " in detail.text, f"{label}: the detail says reset ({detail.text[:120]!r})")
        shot(driver, f"{label}-journal-answers")
    finally:
        driver.quit()


def run_control_panels(width, height, label):
    """The journal and control panels against the §6.1 stand-in (when the build has no control plane)."""
    global BASE
    spec = importlib.util.spec_from_file_location("stub", os.path.join(os.path.dirname(__file__), "console-control-stub.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stub = module.Stub(BASE)
    server = stub.serve()
    upstream, BASE = BASE, f"http://127.0.0.1:{server.server_address[1]}"
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        driver.get(BASE + "/__mock/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        features = driver.execute_script("return document.body.dataset.features")
        check(all(f in features for f in ("requests", "faults", "clock", "tokens")), f"{label}: control plane detected ({features})")
        http("POST", "/api/users/sms", form={"phone": "89123456789"})
        http("POST", "/api/users/sms", form={"phone": ""})
        http("POST", "/auth/login", form={"email": "johndown@exmample.com"})
        tab(driver, "journal")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#journal-list .entry")) >= 3)
        click_current(driver, wait, "#journal-list .entry", last=True)
        detail = wait.until(EC.visibility_of_element_located((By.ID, "journal-detail")))
        check("/api/users/sms" in detail.text and "response body" in detail.text.lower(), f"{label}: entry detail shown")
        shot(driver, f"{label}-10-journal-detail")

        tab(driver, "controls")
        driver.find_element(By.ID, "fault-path").send_keys("/rows/*")
        driver.find_element(By.ID, "fault-times").send_keys("2")
        driver.find_element(By.ID, "fault-value").send_keys("503")
        click(driver, driver.find_element(By.CSS_SELECTOR, "#fault-form button[type=submit]"))
        wait.until(lambda d: "/rows/*" in d.find_element(By.ID, "faults-list").text)
        check(("POST", "/__mock/faults", {"path": "/rows/*", "action": {"status": 503}, "times": 2}) in stub.calls,
              f"{label}: the fault is posted in §6.1's shape ({stub.calls})")
        click(driver, driver.find_element(By.CSS_SELECTOR, '[data-advance="3600"]'))
        wait.until(lambda d: "3600" in d.find_element(By.ID, "clock-offset").text)
        click(driver, driver.find_element(By.CSS_SELECTOR, '#tokens-form button[data-op="revoke"]'))
        wait.until(lambda d: any(c[1] == "/__mock/tokens/revoke" for c in stub.calls))
        shot(driver, f"{label}-11-controls")
    finally:
        driver.quit()
        server.shutdown()
        BASE = upstream


def run_recording(width, height, label):
    """The Stubs tab's recorder: a backend on loopback (started here) recorded from the page, its
    exchange kept as a stub on Stop and answered by it afterwards."""
    import http.server as http_server
    import threading

    class Backend(http_server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"items": ["A-1"]}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    backend = http_server.ThreadingHTTPServer(("127.0.0.1", 0), Backend)
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    http("POST", "/__mock/reset", headers={"X-Mock-Admin": "1"})
    driver = browser(width, height)
    wait = WebDriverWait(driver, 10)
    try:
        driver.get(BASE + "/__mock/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        tab(driver, "stubs")
        # "not started", or "stopped" after an earlier run: a reset leaves the recorder's status (as WireMock's).
        wait.until(lambda d: d.find_element(By.ID, "recording-status").text in ("not started", "stopped"))
        driver.find_element(By.ID, "recording-target").send_keys(f"http://127.0.0.1:{backend.server_address[1]}")
        click(driver, driver.find_element(By.ID, "recording-start"))
        wait.until(lambda d: d.find_element(By.ID, "recording-status").text == "recording")
        check(driver.find_element(By.ID, "recording-stop").is_displayed(), f"{label}: Stop shown while recording")
        status, body = http("GET", "/catalog/items")
        check(status == 200 and "A-1" in body, f"{label}: proxied to the backend while recording ({status} {body[:80]})")
        shot(driver, f"{label}-12-recording")
        click(driver, driver.find_element(By.ID, "recording-stop"))
        wait.until(lambda d: d.find_element(By.ID, "recording-status").text == "stopped")
        wait.until(lambda d: "/catalog/items" in d.find_element(By.ID, "stubs-list").text)
        backend.shutdown()
        status, body = http("GET", "/catalog/items")
        check(status == 200 and "A-1" in body, f"{label}: the kept stub answers with the backend gone ({status} {body[:80]})")
        shot(driver, f"{label}-13-recorded")
        # A journal entry kept as a stub from its detail: the Stubs tab lists a second mapping.
        tab(driver, "journal")
        wait.until(lambda d: any("/catalog/items" in r.text for r in d.find_elements(By.CSS_SELECTOR, "#journal-list .entry")))
        for _ in range(5):
            try:
                row = [r for r in driver.find_elements(By.CSS_SELECTOR, "#journal-list .entry") if "/catalog/items" in r.text][0]
                click(driver, row)
                break
            except (StaleElementReferenceException, IndexError):
                continue
        keep = wait.until(EC.element_to_be_clickable((By.ID, "journal-keep")))
        click(driver, keep)
        wait.until(lambda d: "Kept as stub" in d.find_element(By.ID, "toast").text)
        tab(driver, "stubs")
        wait.until(lambda d: d.find_element(By.ID, "stubs-count").text == "2")
        shot(driver, f"{label}-14-kept")
    finally:
        driver.quit()
        backend.server_close()
        admin("DELETE", "/__admin/mappings")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    run_live(1280, 900, "desktop")
    run_live(375, 812, "phone")
    run_journal_answers(1280, 900, "desktop")
    run_journal_answers(375, 812, "phone")
    run(1280, 900, "desktop")
    run(375, 812, "phone")
    run_remote(375, 812, "phone")
    run_keyboard(1280, 900, "desktop")
    run_keyboard(375, 812, "phone")
    run_recording(1280, 900, "desktop")
    run_recording(375, 812, "phone")
    if http("OPTIONS", "/__mock/requests")[0] == 404:
        run_control_panels(1280, 900, "desktop-stub")
        run_control_panels(375, 812, "phone-stub")
    print(f"console-test: {checks} checks passed; screenshots in {SHOTS}")


main()
