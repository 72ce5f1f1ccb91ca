#!/usr/bin/env bash
# Writes the translatable strings of Sources/ to OUT.pot (`make pot` and the localization test both run this):
# every localized("…") and localizedPlural("…", "…", n), and the engine's messages, which it words without gettext
# as Wording("…"), LineError("…"), SelectionError("…") and LayerError("…") (see InkCore/Wording.swift). Swift's literals parse as C's.
# Usage: Tools/extract-strings.sh OUT.pot [VERSION]   (run from the package root)
set -euo pipefail
out=$1 version=${2:-}
keywords=(localized:1 localizedPlural:1,2 Wording:1 LineError:1 SelectionError:1 LayerError:1)
mapfile -t sources < <(grep -rlE 'localized|Wording\(|LineError\(|SelectionError\(|LayerError\(' Sources --include='*.swift' | sort)
xgettext --from-code=UTF-8 --language=C "${keywords[@]/#/--keyword=}" \
  --add-comments=TRANSLATORS: --package-name=oekaki ${version:+--package-version="$version"} --no-location --sort-output \
  -o "$out" "${sources[@]}"
