#!/usr/bin/env bash
# Regenerates the committed seed corpora under Fuzz/corpus/ (run once; the outputs are committed).
# Fuzz/corpus/boardlog is written by `OEKAKI_WRITE_FUZZ_SEEDS=1 swift test --filter OperationCodecTests` (it needs
# the codec's encoder), which checks the committed seeds on every `make test`.
# Needs a built `oekaki` (OEKAKI_BIN, default .build/debug/oekaki), sqlite3, gzip and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
OEKAKI=${OEKAKI_BIN:-.build/debug/oekaki}
C=Fuzz/corpus
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p $C/eventlog $C/pointcodec $C/document $C/xopp

# eventlog: the CLI fixtures plus a few logs that reach every event type and both erasers.
cp Tests/CLITests/Fixtures/*.jsonl $C/eventlog/
cat > $C/eventlog/everything.jsonl <<'LOG'
{"type":"canvas","width":800,"height":600}
{"type":"tool","tool":"pen","color":"#3366ccff","width":4}
{"type":"touch","phase":"began","id":1,"x":10,"y":10,"pressure":0.2,"device":"pen","t":0}
{"type":"touch","phase":"began","id":2,"x":50,"y":10,"t":1}
{"type":"touch","phase":"moved","id":1,"x":30,"y":40,"pressure":0.9,"device":"pen","t":8}
{"type":"touch","phase":"moved","id":2,"x":60,"y":90,"t":9}
{"type":"touch","phase":"ended","id":1,"x":40,"y":80,"pressure":0.5,"device":"pen","t":16}
{"type":"touch","phase":"cancelled","id":2,"x":60,"y":90,"t":17}
{"type":"tool","tool":"highlighter","color":"#ffee00"}
{"type":"touch","phase":"began","id":3,"x":0,"y":50,"device":"mouse"}
{"type":"touch","phase":"moved","id":3,"x":100,"y":50,"device":"mouse"}
{"type":"touch","phase":"ended","id":3,"x":200,"y":55,"device":"mouse"}
{"type":"tool","tool":"area-eraser","width":12}
{"type":"touch","phase":"began","id":4,"x":100,"y":0}
{"type":"touch","phase":"moved","id":4,"x":100,"y":100}
{"type":"touch","phase":"ended","id":4,"x":100,"y":200}
{"type":"undo"}
{"type":"redo"}
{"type":"tool","tool":"stroke-eraser","width":30}
{"type":"touch","phase":"began","id":5,"x":30,"y":40}
{"type":"touch","phase":"ended","id":5,"x":35,"y":45}
{"type":"clear"}
{"type":"undo"}
{"type":"undo"}
LOG
printf '\xef\xbb\xbf{"type":"touch","phase":"began","id":9,"x":1e15,"y":-1e15}\n{"type":"touch","phase":"moved","id":9,"x":-1e15,"y":1e15}\n{"type":"touch","phase":"ended","id":9,"x":0,"y":0}' > $C/eventlog/bom-huge.jsonl
printf '{"type":"touch","phase":"began","id":1,"x":1,"y":1}\n{"type":"touch","phase":"began","id":1,"x":2,"y":2}\n{"type":"touch","phase":"ended","id":1,"x":3,"y":3}\n{"type":"touch","phase":"ended","id":1,"x":3,"y":3}\n{"type":"tool","tool":"area-eraser","width":1000000}\n{"type":"touch","phase":"began","id":7,"x":0,"y":0}\n{"type":"tool","tool":"pen"}\n{"type":"touch","phase":"began","id":8,"x":5,"y":5}\n{"type":"touch","phase":"ended","id":7,"x":9,"y":9}\n{"type":"undo"}\n' > $C/eventlog/repeated-ids.jsonl

# document: small .oekaki files (512-byte pages) with history, some left in WAL mode, some in rollback mode.
# (The committed files without a suffix are format 2, kept for the upgrade path; *-v3.oekaki are format 3.)
small() { # $1 log, $2 output, $3 journal mode after vacuum
    "$OEKAKI" replay "$1" -o "$T/x.oekaki" >/dev/null
    sqlite3 "$T/x.oekaki" "PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM;" >/dev/null
    [ "$3" = wal ] && sqlite3 "$T/x.oekaki" "PRAGMA journal_mode=WAL;" >/dev/null
    mv "$T/x.oekaki" "$2"; rm -f "$T"/x.oekaki-*
}
small $C/eventlog/everything.jsonl $C/document/everything.oekaki wal
small Tests/CLITests/Fixtures/undo-redo.jsonl $C/document/undo-redo.oekaki delete
small Tests/CLITests/Fixtures/area-eraser.jsonl $C/document/area-eraser.oekaki wal
small Tests/CLITests/Fixtures/tap.jsonl $C/document/tap.oekaki delete

# pointcodec: the stroke BLOBs of those documents.
n=0
for d in $C/document/*.oekaki; do
    for id in $(sqlite3 "$d" "SELECT id FROM strokes"); do
        n=$((n + 1))
        sqlite3 "$d" "SELECT writefile('$C/pointcodec/blob-$n.bin', points) FROM strokes WHERE id = $id" >/dev/null
    done
done
printf '\x01\x01\x00\x00\x00\x80\x00\x00\x00\x00' > $C/pointcodec/one-point.bin

# xopp: the real Xournal++ files, their plain XML, and our own export of the event-log seeds.
cp /work/shared/corpus/xournalpp/Setsquare_annotations.xopp /work/shared/corpus/xournalpp/width_recovery.xopp $C/xopp/
zcat /work/shared/corpus/xournalpp/Setsquare_annotations.xopp | head -c 6000 > $C/xopp/setsquare-plain-cut.xml
"$OEKAKI" export $C/document/everything.oekaki $C/xopp/everything.xopp
zcat $C/xopp/everything.xopp > $C/xopp/everything-plain.xml

# image: small PNGs and JPEGs of every colour type and coding ImageMagick writes, a truncated JPEG and a bomb header.
mkdir -p $C/image
I=$C/image
convert -size 12x9 gradient:'#dc141e-#1e50dc' -alpha set -channel A -evaluate set 60% +channel png32:$I/rgba.png
convert -size 12x9 gradient:'#dc141e-#1e50dc' png24:$I/rgb.png
convert -size 12x9 gradient: -colors 4 png8:$I/palette.png
convert -size 12x9 gradient: -depth 16 png48:$I/rgb16.png
convert -size 12x9 gradient: -colorspace Gray $I/gray.png
convert -size 12x9 gradient: -interlace PNG png24:$I/interlaced.png
convert -size 16x16 gradient:'#dc141e-#1e50dc' -quality 80 jpg:$I/baseline.jpg
convert -size 16x16 gradient:'#dc141e-#1e50dc' -interlace JPEG jpg:$I/progressive.jpg
convert -size 16x16 gradient: -colorspace Gray jpg:$I/gray.jpg
convert -size 16x16 gradient: -colorspace CMYK jpg:$I/cmyk.jpg
head -c 200 $I/baseline.jpg > $I/truncated.jpg
python3 -c "
import struct, zlib, sys
ihdr = struct.pack('>IIBBBBB', 100000, 100000, 8, 6, 0, 0, 0)
chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
sys.stdout.buffer.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(b'\0' * 4096)) + chunk(b'IEND', b''))
" > $I/bomb.png
