#!/usr/bin/env python3
"""Writes the PDF fuzz seeds (Fuzz/corpus/pdf/): small hand-written PDFs reaching poppler's main paths:
text with a standard font, several pages with a shared resource, a compressed content stream, an object
stream with an xref stream, a rotated page, an encrypted one, and one with a broken xref (reconstructed)."""
import os, zlib

OUT = os.path.join(os.path.dirname(__file__), "corpus", "pdf")

def pdf(objects, trailer=""):
    out = b"%PDF-1.5\n"
    offs = []
    for i, o in enumerate(objects):
        offs.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offs:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer.encode(), x)
    return out

def stream(data, extra=b""):
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"

font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
text = b"BT /F1 18 Tf 40 700 Td (Seed page text) Tj ET 0.2 0.3 0.8 rg 40 740 200 30 re f"
seeds = {}
seeds["text.pdf"] = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    stream(text), font])
seeds["three-pages.pdf"] = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 /MediaBox [0 0 300 400] /Resources << /Font << /F1 7 0 R >> >> >>",
    b"<< /Type /Page /Parent 2 0 R /Contents 6 0 R >>",
    b"<< /Type /Page /Parent 2 0 R /Contents 6 0 R /Rotate 90 >>",
    b"<< /Type /Page /Parent 2 0 R /Contents 6 0 R /CropBox [10 10 200 200] >>",
    stream(text), font])
seeds["deflated.pdf"] = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    stream(zlib.compress(text * 3), b"/Filter /FlateDecode"), font])
junk = b"<" + b"4f" * 32 + b">"
seeds["encrypted.pdf"] = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
    b"<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O " + junk + b" /U " + junk + b" >>"],
    "/Encrypt 4 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]")
broken = bytearray(seeds["text.pdf"])
i = broken.rfind(b"startxref")
broken[i + 10:i + 14] = b"9999"
seeds["broken-xref.pdf"] = bytes(broken)
seeds["many-count.pdf"] = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 100000 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>"])
os.makedirs(OUT, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
