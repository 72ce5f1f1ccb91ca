#!/usr/bin/env bash
# Manual check (make bigdoc): a 10,000,000-point drawing opens and exports as PNG within 1 GiB peak memory.
# Generates a .xopp (10,000 strokes × 1,002 points), imports it into .oekaki, then runs `oekaki info` and
# `oekaki export … .png` on the .oekaki, measuring each child's peak resident memory (wait4 rusage).
#   OEKAKI_BIN=path/to/oekaki Fuzz/big-document.sh      (default: .build/release/oekaki, else .build/debug/oekaki)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${OEKAKI_BIN:-}
if [ -z "$BIN" ]; then
    if [ -x .build/release/oekaki ]; then BIN=.build/release/oekaki; else BIN=.build/debug/oekaki; fi
fi
# BIGDOC_DIR keeps the generated files between runs (generation and import take a minute or two).
if [ -n "${BIGDOC_DIR:-}" ]; then T=$BIGDOC_DIR; mkdir -p "$T"; else T=$(mktemp -d); trap 'rm -rf "$T"' EXIT; fi
python3 - "$BIN" "$T" <<'PY'
import gzip, os, random, subprocess, sys, time
bin_, tmp = sys.argv[1], sys.argv[2]
STROKES, POINTS = 10_000, 1_002  # a few spare: points that round to a repeat are dropped
rnd = random.Random(7)
xopp = os.path.join(tmp, "big.xopp")
oek = os.path.join(tmp, "big.oekaki")
fresh = not os.path.exists(oek)
if fresh:
  with gzip.open(xopp, "wt", compresslevel=1) as f:
      f.write('<?xml version="1.0" standalone="no"?>\n<xournal creator="big-document.sh" fileversion="4">\n')
      f.write('<page width="2000" height="3000"><background type="solid" color="#ffffffff" style="plain"/><layer>\n')
      for s in range(STROKES):
          x, y = rnd.uniform(100, 1900), rnd.uniform(100, 2900)
          dx, dy = rnd.uniform(-1, 1), rnd.uniform(-1, 1)
          pts = []
          for i in range(POINTS):
              dx = max(-2, min(2, dx + rnd.uniform(-0.3, 0.3))); dy = max(-2, min(2, dy + rnd.uniform(-0.3, 0.3)))
              x += dx; y += dy
              # Bounce off the page edges (clamping would repeat points, which strokes drop).
              if not 1 <= x <= 1999: dx = -dx; x += 2 * dx
              if not 1 <= y <= 2999: dy = -dy; y += 2 * dy
              pts.append("%.2f %.2f" % (x, y))
          f.write('<stroke tool="pen" color="#000000ff" width="1.41">%s</stroke>\n' % " ".join(pts))
      f.write('</layer></page>\n</xournal>\n')

def run(args):
    start = time.time()
    # Output to files, not pipes: waiting on the child while it blocks on a full pipe would hang.
    with open(os.path.join(tmp, "out"), "wb") as o, open(os.path.join(tmp, "err"), "wb") as e:
        p = subprocess.Popen([bin_] + args, stdout=o, stderr=e)
        _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    out, err = (open(os.path.join(tmp, n), "rb").read() for n in ("out", "err"))
    secs = time.time() - start
    peak = ru.ru_maxrss / 1024  # KiB → MiB
    print("oekaki %-40s exit %d  %6.1f s  peak RSS %6.0f MiB" % (" ".join(a if "/" not in a else os.path.basename(a) for a in args), p.returncode, secs, peak))
    if p.returncode != 0:
        print(err.decode()[-500:]); sys.exit(1)
    return peak, out

if fresh:
    run(["export", xopp, oek])
peaks = []
p, out = run(["info", oek]); peaks.append(p)
import re
pts = int(re.search(rb'"points":(\d+)', out).group(1))
print("points in the document: %d" % pts)
assert pts >= 10_000_000, out[:200]
p, _ = run(["export", oek, os.path.join(tmp, "big.png")]); peaks.append(p)
print("file sizes: .xopp %.0f MiB, .oekaki %.0f MiB, .png %.1f MiB" % tuple(os.path.getsize(os.path.join(tmp, n)) / 2**20 for n in ("big.xopp", "big.oekaki", "big.png")))
limit = 1024
print("10,000,000 points: open + export peak %.0f MiB (limit %d MiB): %s" % (max(peaks), limit, "OK" if max(peaks) <= limit else "OVER"))
sys.exit(0 if max(peaks) <= limit else 1)
PY
