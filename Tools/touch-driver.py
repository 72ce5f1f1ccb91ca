"""Drives a GTK app shown by gtk4-broadwayd from headless Chromium, so real GDK touch events reach it.

Used by the touch window tests (Tests/AppTests/TouchWindowTests.swift) and oekaki-bench. Started as
    touch-driver.py URL WIDTH HEIGHT
it opens URL (the Broadway page) in headless Chromium, prints one JSON line when the page has loaded,
then reads one JSON command per line on stdin and answers each with one JSON line on stdout:

  {"cmd": "perform", "sources": [{"kind": "touch" | "mouse", "actions": [["move", x, y], ["down"], ["up"],
                                                                         ["pause"], ["pause", ms]]}, ...]}
      One WebDriver action chain: every source is a finger (or the mouse); the n-th actions of all sources
      form one tick, so fingers move at once, or in turn when the others pause. Coordinates are page pixels.
      Every finger must be up at the end: Chromium does not carry a touch that is still down over to the
      next chain (its later moves reach nobody), so a chain is one whole gesture.
  {"cmd": "keys", "keys": "ctrl+z"}          a key chord
  {"cmd": "screenshot", "path": "/x.png"}    answers {"width": W, "height": H}
  {"cmd": "script", "js": "return 1"}        answers {"value": ...}
  {"cmd": "quit"}

End of input also quits, so the browser never outlives the test that started it.
"""

import json
import struct
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.keys import Keys

KEYS = {"ctrl": Keys.CONTROL, "shift": Keys.SHIFT, "alt": Keys.ALT, "escape": Keys.ESCAPE,
        "minus": "-", "plus": "+", "equal": "="}


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def start(url, width, height):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--no-first-run", "--disable-extensions", "--force-device-scale-factor=1",
              # A sideways finger would otherwise be a "back" swipe that leaves the Broadway page.
              "--overscroll-history-navigation=0", "--disable-features=OverscrollHistoryNavigation",
              f"--window-size={width},{height}"]:
        opts.add_argument(a)
    driver = webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))
    # The page's viewport is the Broadway screen: make it exactly WIDTH×HEIGHT at scale 1.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.get(url)
    deadline = time.time() + 20
    while time.time() < deadline:
        # Broadway's script keeps the windows it shows in `surfaces` (empty until an app connects).
        if driver.execute_script("return document.readyState == 'complete' && typeof surfaces == 'object'"):
            # Broadway's touch listeners are passive in Chromium, so their preventDefault() is ignored and
            # fingers would also scroll or zoom the page; with touch-action none they only reach GTK.
            driver.execute_script("document.documentElement.style.touchAction = 'none';"
                                  "document.body.style.touchAction = 'none'")
            return driver
        time.sleep(0.1)
    raise RuntimeError("the Broadway page did not load within 20 s")


def perform(driver, sources):
    builder = ActionBuilder(driver)
    ticks = max((len(s["actions"]) for s in sources), default=0)
    for n, s in enumerate(sources):
        kind = interaction.POINTER_TOUCH if s["kind"] == "touch" else interaction.POINTER_MOUSE
        pointer = builder.add_pointer_input(kind, f"{s['kind']}{n}")
        actions = s["actions"] + [["pause"]] * (ticks - len(s["actions"]))
        for a in actions:
            if a[0] == "move":
                pointer.create_pointer_move(duration=0, x=int(a[1]), y=int(a[2]))
            elif a[0] == "down":
                pointer.create_pointer_down(button=0)
            elif a[0] == "up":
                pointer.create_pointer_up(button=0)
            else:  # ["pause"] or ["pause", milliseconds]
                pointer.create_pause(a[1] / 1000 if len(a) > 1 else 0)
    builder.perform()


def keys(driver, chord):
    names = [KEYS.get(k.lower(), k) for k in chord.split("+")]
    chain = ActionChains(driver)
    for k in names[:-1]:
        chain.key_down(k)
    chain.send_keys(names[-1])
    for k in reversed(names[:-1]):
        chain.key_up(k)
    chain.perform()


def screenshot(driver, path):
    png = driver.get_screenshot_as_png()
    with open(path, "wb") as f:
        f.write(png)
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    return {"width": width, "height": height}


def main():
    url, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        driver = start(url, width, height)
    except Exception as e:  # one line for the test's failure message
        reply({"error": f"{type(e).__name__}: {e}".splitlines()[0]})
        return 1
    reply({"ready": True})
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            cmd = json.loads(line)
            try:
                if cmd["cmd"] == "perform":
                    perform(driver, cmd["sources"])
                    reply({"ok": True})
                elif cmd["cmd"] == "keys":
                    keys(driver, cmd["keys"])
                    reply({"ok": True})
                elif cmd["cmd"] == "screenshot":
                    reply(screenshot(driver, cmd["path"]))
                elif cmd["cmd"] == "script":
                    reply({"value": driver.execute_script(cmd["js"])})
                elif cmd["cmd"] == "quit":
                    reply({"ok": True})
                    break
                else:
                    reply({"error": f"unknown command {cmd['cmd']!r}"})
            except Exception as e:
                reply({"error": f"{type(e).__name__}: {e}".splitlines()[0]})
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
