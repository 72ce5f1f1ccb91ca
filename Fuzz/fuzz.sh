#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs each for FUZZ_SECONDS (default 60).
#   Fuzz/fuzz.sh [build|run|all] [target…]     targets: eventlog pointcodec document xopp pdf image boardlog
# Environment: FUZZ_SECONDS, FUZZ_BUILD (default .build/fuzz), FUZZ_SANITIZE (default fuzzer,address).
# New inputs found while running go to $FUZZ_BUILD/corpus/<target> (the committed seeds stay unchanged);
# crashes go to $FUZZ_BUILD/crashes/<target>/ and fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
SECONDS_EACH=${FUZZ_SECONDS:-60}
B=${FUZZ_BUILD:-.build/fuzz}
SAN=${FUZZ_SANITIZE:-fuzzer,address}
# Swift's own crash backtracer fights ASan's reports; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
ALL=(eventlog pointcodec document xopp pdf image boardlog)
# glib's and cairo's headers (as poppler-glib names them) for the C modules InkStore and InkRender import.
POPPLER_CFLAGS=($(pkg-config --cflags poppler-glib | sed 's/-I/-Xcc -I/g'))
mode=${1:-all}; shift || true
targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")
FLAGS=(-sanitize="$SAN" -parse-as-library -O -swift-version 5 -suppress-warnings)
# ld.gold warns about every ASan helper symbol; keep the log readable.
quiet() { grep -v -e 'Cannot export local symbol' -e '^$' || true; }

# A module's sources, in every sub-folder.
swift_files() { find "$1" -name '*.swift' | sort; }

build() {
    mkdir -p "$B"
    local stamp="$B/.sources" now
    now=$(find Sources/InkCore Sources/Localization Sources/InkPDF Sources/InkStore Sources/InkRender Sources/InkSync Fuzz -name '*.swift' | sort | xargs cat | cksum)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$now" ] && [ -x "$B/fuzz-pdf" ] && [ -x "$B/fuzz-image" ] && [ -x "$B/fuzz-boardlog" ]; then echo "fuzz: harnesses up to date"; return; fi
    echo "fuzz: building InkCore ($SAN)"
    swiftc "${FLAGS[@]}" -module-name InkCore -emit-module -emit-module-path "$B/InkCore.swiftmodule" \
        -emit-library -static -o "$B/libInkCore.a" $(swift_files Sources/InkCore) 2>&1 | quiet
    echo "fuzz: building Localization ($SAN)"
    swiftc "${FLAGS[@]}" -module-name Localization -I Sources/CIntl -emit-module -emit-module-path "$B/Localization.swiftmodule" \
        -emit-library -static -o "$B/libLocalization.a" $(swift_files Sources/Localization) 2>&1 | quiet
    echo "fuzz: building InkPDF ($SAN)"
    swiftc "${FLAGS[@]}" -module-name InkPDF -I "$B" "${POPPLER_CFLAGS[@]}" -emit-module -emit-module-path "$B/InkPDF.swiftmodule" \
        -emit-library -static -o "$B/libInkPDF.a" $(swift_files Sources/InkPDF) 2>&1 | quiet
    echo "fuzz: building InkStore ($SAN)"
    swiftc "${FLAGS[@]}" -module-name InkStore -I "$B" -I Sources/CSQLite -I Sources/CZlib -I Sources/CDeflate -I Sources/CIntl "${POPPLER_CFLAGS[@]}" \
        -emit-module -emit-module-path "$B/InkStore.swiftmodule" \
        -emit-library -static -o "$B/libInkStore.a" $(swift_files Sources/InkStore) 2>&1 | quiet
    # A shared board's log codec and replica: InkSync without its NATS client, the snapshot transfer and the board's file transfer (the parts that need libnats).
    echo "fuzz: building InkSync's log and replica ($SAN)"
    swiftc "${FLAGS[@]}" -module-name InkSync -I "$B" -I Sources/CSQLite -I Sources/CZlib -I Sources/CDeflate -I Sources/CIntl "${POPPLER_CFLAGS[@]}" \
        -emit-module -emit-module-path "$B/InkSync.swiftmodule" -emit-library -static -o "$B/libInkSync.a" \
        $(swift_files Sources/InkSync | grep -v -e /NATS.swift -e /BoardSync.swift -e /BoardSnapshot.swift -e /BoardFiles.swift) 2>&1 | quiet
    echo "fuzz: linking harnesses"
    swiftc "${FLAGS[@]}" -I "$B" Fuzz/EventLogFuzz.swift Fuzz/FuzzSupport.swift -L "$B" -lInkCore -o "$B/fuzz-eventlog" 2>&1 | quiet
    swiftc "${FLAGS[@]}" -I "$B" "${POPPLER_CFLAGS[@]}" Fuzz/PDFFuzz.swift Fuzz/FuzzSupport.swift \
        -L "$B" -lInkPDF -lInkCore -lpoppler-glib -lgobject-2.0 -lglib-2.0 -o "$B/fuzz-pdf" 2>&1 | quiet
    for t in pointcodec document xopp boardlog; do
        local src
        case $t in pointcodec) src=PointCodecFuzz;; document) src=DocumentFuzz;; xopp) src=XoppFuzz;; boardlog) src=BoardLogFuzz;; esac
        swiftc "${FLAGS[@]}" -I "$B" -I Sources/CSQLite -I Sources/CZlib -I Sources/CDeflate -I Sources/CIntl "${POPPLER_CFLAGS[@]}" \
            Fuzz/$src.swift Fuzz/FuzzSupport.swift \
            -L "$B" -lInkSync -lInkStore -lInkPDF -lLocalization -lInkCore -lsqlite3 -lz -ldeflate -lpoppler-glib -lgobject-2.0 -lglib-2.0 -o "$B/fuzz-$t" 2>&1 | quiet
    done
    build_image
    echo "$now" > "$stamp"
}

# The image harness needs InkRender (cairo, pango, gdk-pixbuf, and InkPDF built above); C modules by their system headers.
build_image() {
    local mods=() cflags=()
    for d in Sources/C*/; do mods+=(-I "${d%/}"); done
    for f in $(pkg-config --cflags-only-I cairo pangocairo gdk-pixbuf-2.0 poppler-glib); do cflags+=(-Xcc "$f"); done
    echo "fuzz: building InkRender ($SAN)"
    swiftc "${FLAGS[@]}" -module-name InkRender -I "$B" "${mods[@]}" "${cflags[@]}" -emit-module -emit-module-path "$B/InkRender.swiftmodule" \
        -emit-library -static -o "$B/libInkRender.a" $(swift_files Sources/InkRender) 2>&1 | quiet
    swiftc "${FLAGS[@]}" -I "$B" "${mods[@]}" "${cflags[@]}" Fuzz/ImageFuzz.swift Fuzz/FuzzSupport.swift \
        -L "$B" -lInkRender -lInkPDF -lInkCore $(pkg-config --libs cairo pangocairo gdk-pixbuf-2.0 poppler-glib zlib) -o "$B/fuzz-image" 2>&1 | quiet
}

run() {
    local t=$1 maxlen
    case $t in document) maxlen=65536;; xopp|pdf|image|boardlog) maxlen=16384;; *) maxlen=4096;; esac
    mkdir -p "$B/corpus/$t" "$B/crashes/$t"
    echo "fuzz: $t for ${SECONDS_EACH}s"
    local log="$B/$t.log" rc=0
    # The committed seeds come second: libFuzzer reads both and writes new inputs only to the first.
    "$B/fuzz-$t" "$B/corpus/$t" "Fuzz/corpus/$t" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
        -max_len=$maxlen -print_final_stats=1 -artifact_prefix="$B/crashes/$t/" $( [ -f Fuzz/$t.dict ] && echo -dict=Fuzz/$t.dict) \
        >"$log" 2>&1 || rc=$?
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE|pulse)' "$log" | tail -n 3 || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done ' "$log" || true
    if [ $rc -ne 0 ]; then
        echo "fuzz: $t FAILED (exit $rc); see $log and $B/crashes/$t/"
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -5 || true
        return 1
    fi
}

case $mode in
    build) build ;;
    run) fails=0; for t in "${targets[@]}"; do run "$t" || fails=1; done; exit $fails ;;
    all) build; fails=0; for t in "${targets[@]}"; do run "$t" || fails=1; done; exit $fails ;;
    *) echo "usage: Fuzz/fuzz.sh [build|run|all] [target…]" >&2; exit 2 ;;
esac
