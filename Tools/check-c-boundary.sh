#!/usr/bin/env bash
# The C boundary rule, checked: `Unsafe*`, `OpaquePointer` and calls into the C libraries (GTK/GLib/GDK, cairo,
# Pango, SQLite, libnats/JetStream, poppler, graphene, libdeflate) appear only in the wrapper files that
# ARCHITECTURE.md lists between its `c-boundary` markers. The list is read from ARCHITECTURE.md, so the document
# and the check cannot drift. Comments are ignored. Exit 1 names every file (and first lines) that crosses.
set -euo pipefail
cd "$(dirname "$0")/.."
doc=ARCHITECTURE.md
list=$(sed -n '/<!-- c-boundary -->/,/<!-- \/c-boundary -->/p' "$doc" | grep -oE '`[A-Za-z0-9_./+-]+\.swift`' | tr -d '`' | sort -u)
[ -n "$list" ] || { echo "check-c-boundary: $doc has no file list between <!-- c-boundary --> and <!-- /c-boundary -->"; exit 2; }
for f in $list; do
  [ -f "Sources/$f" ] || { echo "check-c-boundary: $doc lists Sources/$f, which does not exist"; exit 1; }
done
pattern='Unsafe[A-Za-z]*|OpaquePointer|\b(gtk|gdk|g|cairo|pango|sqlite3|poppler|graphene|libdeflate)_[A-Za-z0-9_]*[[:space:]]*\(|\b(nats|js)[A-Za-z]*_[A-Za-z0-9_]*[[:space:]]*\('
bad=0
while IFS= read -r file; do
  rel=${file#Sources/}
  grep -qxF "$rel" <<<"$list" && continue
  # Drop comments (`// …`, `/// …`) before matching.
  hits=$(sed -E 's@//.*$@@' "$file" | grep -nE "$pattern" || true)
  if [ -n "$hits" ]; then
    bad=1
    echo "$file crosses the C boundary (not a wrapper file listed in $doc):"
    head -3 <<<"$hits" | sed 's/^/    /'
  fi
done < <(find Sources -name '*.swift' | sort)
if [ $bad -ne 0 ]; then
  echo "check-c-boundary: move the C calls into a wrapper file, or (for a new C library's wrapper) list it in $doc"
  exit 1
fi
echo "check-c-boundary: ok ($(wc -l <<<"$list") wrapper files)"
