#!/usr/bin/env python3
"""Regenerates the hostile-file corpus (small files; the gzip bomb is made at test time instead).
Run from this folder: python3 make-hostile.py"""
import gzip, os, random, sqlite3

random.seed(1234)
here = os.path.dirname(os.path.abspath(__file__))
def path(n): return os.path.join(here, n)
def write(n, data):
    with open(path(n), 'wb') as f: f.write(data)

OEKI = 0x4F454B49
SCHEMA = """
CREATE TABLE document(id INTEGER PRIMARY KEY CHECK (id = 1), page_width REAL NOT NULL, page_height REAL NOT NULL, background INTEGER NOT NULL);
CREATE TABLE strokes(id INTEGER PRIMARY KEY, tool TEXT NOT NULL, rgba INTEGER NOT NULL, width REAL NOT NULL, points BLOB NOT NULL, present INTEGER NOT NULL DEFAULT 1);
CREATE TABLE edits(id INTEGER PRIMARY KEY, stack INTEGER NOT NULL, position INTEGER NOT NULL, kind INTEGER NOT NULL);
CREATE UNIQUE INDEX edits_by_position ON edits(stack, position);
CREATE TABLE edit_strokes(edit INTEGER NOT NULL, role INTEGER NOT NULL, seq INTEGER NOT NULL, stroke INTEGER NOT NULL, PRIMARY KEY(edit, role, seq)) WITHOUT ROWID;
CREATE INDEX edit_strokes_by_stroke ON edit_strokes(stroke);
"""
def varint(v):
    out = bytearray()
    while v >= 0x80: out.append((v & 0x7f) | 0x80); v >>= 7
    out.append(v); return bytes(out)

# A valid one-point blob: version 1, count 1, x=y=t=0, pressure 128, four Rice parameters.
ONE_POINT = bytes([1]) + varint(1) + varint(0) + varint(0) + varint(0) + bytes([128, 0, 0, 0, 0])

def oekaki(name, version=2, app=OEKI, page=(640.0, 480.0), strokes=(), edits=()):
    p = path(name)
    if os.path.exists(p): os.remove(p)
    db = sqlite3.connect(p)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO document VALUES(1, ?, ?, ?)", (page[0], page[1], 0xFFFFFFFF))
    for s in strokes: db.execute("INSERT INTO strokes VALUES(?,?,?,?,?,1)", s)
    for e in edits: db.execute("INSERT INTO edit_strokes VALUES(?,?,?,?)", e)
    db.execute(f"PRAGMA application_id = {app}")
    db.execute(f"PRAGMA user_version = {version}")
    db.commit(); db.close()

write("random.oekaki", bytes(random.getrandbits(8) for _ in range(4096)))
write("text.oekaki", b"This is a shopping list, not a drawing.\nmilk\neggs\n")
write("empty.oekaki", b"")
write("sqlite-header-only.oekaki", b"SQLite format 3\x00" + bytes(84))
oekaki("newer-format.oekaki", version=999)
oekaki("other-app.oekaki", app=0x12345678)
oekaki("huge-page.oekaki", page=(1e12, 1e12))
oekaki("negative-width-stroke.oekaki", strokes=[(1, "pen", 0x000000FF, -3.0, ONE_POINT)])
oekaki("unknown-tool.oekaki", strokes=[(1, "laser", 0x000000FF, 3.0, ONE_POINT)])
oekaki("blob-claims-a-million-points.oekaki", strokes=[(1, "pen", 0x000000FF, 3.0, bytes([1]) + varint(1_000_000) + bytes(12))])
oekaki("blob-claims-2e40-points.oekaki", strokes=[(1, "pen", 0x000000FF, 3.0, bytes([1]) + varint(1 << 40) + bytes(12))])
oekaki("blob-random.oekaki", strokes=[(1, "pen", 0x000000FF, 3.0, bytes(random.getrandbits(8) for _ in range(64)))])
oekaki("history-missing-stroke.oekaki", strokes=[(1, "pen", 0x000000FF, 3.0, ONE_POINT)], edits=[(1, 1, 0, 99)])
# `strokes` as a recursive view that never ends: reading it would hang without the schema check.
p = path("endless-view.oekaki")
if os.path.exists(p): os.remove(p)
db = sqlite3.connect(p)
db.executescript("\n".join(l for l in SCHEMA.splitlines() if "CREATE TABLE strokes(" not in l))
db.execute("INSERT INTO document VALUES(1, 100, 100, 4294967295)")
db.execute("CREATE VIEW strokes AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
           "SELECT i AS id, 'pen' AS tool, 255 AS rgba, 1.0 AS width, x'00' AS points, 1 AS present FROM n")
db.execute(f"PRAGMA application_id = {OEKI}"); db.execute("PRAGMA user_version = 2"); db.commit(); db.close()
# A real-sized database cut in half.
oekaki("truncated.oekaki", strokes=[(i, "pen", 0x000000FF, 3.0, ONE_POINT + bytes(0)) for i in range(1, 3000)])
data = open(path("truncated.oekaki"), "rb").read()
write("truncated.oekaki", data[: len(data) // 2])

def xopp(name, body, page='width="612" height="792"', raw=False):
    xml = ('<?xml version="1.0" standalone="no"?>\n<xournal creator="hostile" fileversion="4">\n'
           f'<page {page}>\n<background type="solid" color="#ffffffff" style="plain"/>\n<layer>\n{body}</layer>\n</page>\n</xournal>\n')
    write(name, xml.encode() if raw else gzip.compress(xml.encode(), mtime=0))

PEN = '<stroke tool="pen" color="#000000ff" width="{w}">{pts}</stroke>\n'
xopp("nan-coordinates.xopp", PEN.format(w="1.41", pts="10 10 nan 20 30 inf 40 40 -inf 5 50 50")
     + PEN.format(w="1.41", pts="1e300 1e300 60 60 70 70"))
xopp("negative-width.xopp", PEN.format(w="-2.0", pts="10 10 20 20") + PEN.format(w="1.41 0.8 -0.5 nan", pts="10 10 20 20 30 30 40 40")
     + PEN.format(w="nan", pts="5 5 6 6"))
xopp("huge-page.xopp", PEN.format(w="1", pts="1 1 2 2"), page='width="1e12" height="1e12"')
xopp("odd-coordinates.xopp", PEN.format(w="1", pts="1 1 2"))
xopp("bad-colour.xopp", '<stroke tool="pen" color="chartreuse-ish" width="1">1 1 2 2</stroke>\n')
bomb = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
        + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n' for i in range(1, 10))
        + ']>\n<xournal><page width="100" height="100"><layer><stroke tool="pen" color="#000000ff" width="1">&lol9;</stroke></layer></page></xournal>\n')
write("entity-bomb.xopp", gzip.compress(bomb.encode(), mtime=0))
write("undeclared-entity.xopp", gzip.compress(b'<xournal><page width="1" height="1"><layer>&boom;</layer></page></xournal>', mtime=0))
deep = '<xournal><page width="10" height="10"><layer>' + "<a>" * 100000 + "</a>" * 100000 + "</layer></page></xournal>"
write("deep-nesting.xopp", gzip.compress(deep.encode(), mtime=0))
full = gzip.compress(('<?xml version="1.0"?>\n<xournal><page width="100" height="100"><layer>'
                      + PEN.format(w="1", pts=" ".join(str(i % 97) for i in range(20000))) + '</layer></page></xournal>').encode(), mtime=0)
write("truncated-gzip.xopp", full[: len(full) // 2])
write("unclosed-xml.xopp", gzip.compress(b'<?xml version="1.0"?>\n<xournal><page width="100" height="100"><layer><stroke tool="pen" color="#000000ff" width="1">1 1 2 2', mtime=0))
write("gzip-of-garbage.xopp", gzip.compress(bytes(random.getrandbits(8) for _ in range(2000)), mtime=0))
write("zip-garbage.xopp", b"PK\x03\x04" + bytes(random.getrandbits(8) for _ in range(500)))
write("no-pages.xopp", gzip.compress(b'<xournal creator="x"></xournal>', mtime=0))
write("wrong-root.xopp", gzip.compress(b'<svg xmlns="http://www.w3.org/2000/svg"></svg>', mtime=0))
