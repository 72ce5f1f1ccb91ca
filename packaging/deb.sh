#!/usr/bin/env bash
# Builds oekaki_VERSION_amd64.deb from a binary linked with the Swift runtime inside (--static-swift-stdlib),
# so the package needs only Debian's libraries, which dpkg-shlibdeps turns into Depends. The oekaki-thumbnailer
# beside BINARY goes in too.
# Usage: packaging/deb.sh BINARY VERSION OUT.deb   (run from the package root; `make deb` calls it)
set -euo pipefail
bin=$1 version=$2 out=$3
arch=$(dpkg --print-architecture)
stage=$(mktemp -d "${TMPDIR:-/tmp}/oekaki-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/oekaki

make --no-print-directory -s install DESTDIR="$root" PREFIX=/usr OEKAKI_BIN="$bin" >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/oekaki" "$root/usr/bin/oekaki-thumbnailer"
gzip -9n "$root/usr/share/man/man1/oekaki.1" "$root/usr/share/man/man1/oekaki-thumbnailer.1"
doc=$root/usr/share/doc/oekaki
install -d "$doc"
install -m644 packaging/copyright "$doc/copyright"
# A native package's changelog, from the release notes in the metainfo.
{
  echo "oekaki ($version) unstable; urgency=medium"
  echo
  sed -nE '/<release version="'"$version"'"/,/<\/release>/ s/.*<li>(.*)<\/li>.*/\1/p' desktop/io.github.oekaki.Oekaki.metainfo.xml |
    while read -r item; do echo "$item" | fold -s -w 72 | sed -e '1s/^/  * /' -e '2,$s/^/    /' -e 's/ *$//'; done
  echo
  echo " -- The Oekaki developers <oekaki@users.noreply.github.com>  $(date -R -d "$(sed -nE 's/.*<release version="'"$version"'" date="([^"]+)".*/\1/p' desktop/io.github.oekaki.Oekaki.metainfo.xml)")"
} | gzip -9n > "$doc/changelog.gz"

# Depends: the libraries the binary links, as Debian names and versions them.
mkdir -p "$stage/debian"
printf 'Source: oekaki\n\nPackage: oekaki\nArchitecture: any\n' > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O -e oekaki/usr/bin/oekaki -e oekaki/usr/bin/oekaki-thumbnailer 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Poppler is loaded with dlopen when a PDF is first opened (InkPDF/PDFSource.swift), so no binary names it.
depends="$depends, libpoppler-glib8"

install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: oekaki
Version: $version
Architecture: $arch
Maintainer: The Oekaki developers <oekaki@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Section: graphics
Priority: optional
Homepage: https://github.com/oekaki/oekaki
Description: freehand drawing with a pen, fingers or the mouse
 Oekaki is a drawing app for pen, touch and mouse. Strokes are smoothed and
 vary in width with pressure; every finger draws its own line. It has a
 pen, a highlighter, a stroke eraser and an area eraser that keeps ink
 vector, undo and redo that survive reopening, and exports to PNG, SVG,
 PDF and Xournal++. Every finished stroke is saved at once.
 .
 The oekaki command also replays event logs, prints document summaries,
 exports and makes thumbnails for file managers.
CONTROL
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
dpkg-deb --root-owner-group -Zgzip --build "$root" "$out" >/dev/null
echo "built $out"
