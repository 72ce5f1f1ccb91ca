#!/usr/bin/env python3
"""Records handwriting-like strokes through the real app: starts `oekaki` on a private Xvfb with
OEKAKI_EVENT_LOG, moves the mouse with xdotool along cursive words, scribbles and loose curves (each ending
with the pointer resting 700 ms before the button lifts, as a writer pausing), and leaves the app's event log.

usage: record-handwriting.py OEKAKI_BINARY OUT.jsonl [DISPLAY_NUMBER]
"""
import math, os, random, subprocess, sys, tempfile, time

oekaki, out = sys.argv[1], os.path.abspath(sys.argv[2])
display = ":" + (sys.argv[3] if len(sys.argv) > 3 else "283")
rng = random.Random(7)
home = tempfile.mkdtemp(prefix="oekaki-rec-")
xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1)
env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11", HOME=home, XDG_CONFIG_HOME=home + "/config",
           XDG_DATA_HOME=home + "/data", NO_AT_BRIDGE="1", GSETTINGS_BACKEND="memory", OEKAKI_EVENT_LOG=out)
if os.path.exists(out):
    os.remove(out)
app = subprocess.Popen([oekaki, home + "/rec.oekaki"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(3)

def xdo(*args):
    subprocess.run(["xdotool"] + [str(a) for a in args], env=env, check=False)

def stroke(points, hold=0.7):
    xdo("mousemove", int(points[0][0]), int(points[0][1]))
    time.sleep(0.05)
    xdo("mousedown", 1)
    for x, y in points[1:]:
        xdo("mousemove", int(round(x)), int(round(y)))
    time.sleep(hold)
    xdo("mouseup", 1)
    time.sleep(0.2)

def word(x0, base, letters, size):
    """Cursive-like: loops (e, l), arches (n, m), waves, joined along a baseline."""
    pts, x = [], x0
    for _ in range(letters):
        kind, w, h = rng.randrange(4), size * rng.uniform(0.6, 1.0), size * rng.uniform(0.8, 1.7)
        for k in range(14):
            t = k / 14
            if kind == 0:
                p = (x + w * t + 0.4 * w * math.sin(2 * math.pi * t), base - h * 0.5 * (1 - math.cos(2 * math.pi * t)))
            elif kind == 1:
                p = (x + w * t, base - h * 0.6 * abs(math.sin(2 * math.pi * t)))
            elif kind == 2:
                p = (x + w * t, base - h * 0.45 * math.sin(math.pi * t) + h * 0.25 * math.sin(3 * math.pi * t))
            else:
                p = (x + w * (t + 0.25 * math.sin(2 * math.pi * t)), base - h * 0.35 * (1 - math.cos(2 * math.pi * t)) + 0.15 * h * t)
            pts.append((p[0] + rng.uniform(-0.8, 0.8), p[1] + rng.uniform(-0.8, 0.8)))
        x += w
    return pts

y = 220
for line in range(5):
    x = 60
    for _ in range(3):
        letters, size = rng.randrange(3, 8), rng.uniform(14, 30)
        stroke(word(x, y, letters, size))
        x += letters * size * 0.9 + 40
    y += 70
# Scribbles and loose curves.
for k in range(4):
    cx, cy = 200 + k * 230, 620
    pts = [(cx, cy)]
    for _ in range(40):
        pts.append((pts[-1][0] + rng.uniform(-25, 25), pts[-1][1] + rng.uniform(-18, 18)))
    stroke(pts)
stroke([(80 + i * 8, 760 + 40 * math.sin(i / 6)) for i in range(120)])
stroke([(600 + 90 * math.cos(a / 20 * 1.4 * math.pi), 760 + 60 * math.sin(a / 20 * 1.4 * math.pi)) for a in range(21)])
time.sleep(0.5)
app.terminate(); app.wait()
xvfb.terminate(); xvfb.wait()
print(out)
