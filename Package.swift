// swift-tools-version:6.0
import PackageDescription

// Language mode 5: the GTK/cairo C callbacks are single-threaded by contract and
// Swift 6 strict concurrency would force noise onto every C boundary.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

// Libraries the static Foundation needs that the modules, compiled against the shared one, do not name.
let staticFoundation: [LinkerSetting] = ["FoundationInternationalization", "FoundationEssentials", "CoreFoundation",
                                         "_FoundationCollections", "_FoundationCShims", "_FoundationICU", "swiftSynchronization"]
    .map { .linkedLibrary($0) }

let package = Package(
    name: "Oekaki",
    products: [
        .executable(name: "oekaki", targets: ["oekaki"]),
        .executable(name: "oekaki-thumbnailer", targets: ["oekaki-thumbnailer"]),
        .executable(name: "oekaki-bench", targets: ["oekaki-bench"]),
        .library(name: "InkCore", targets: ["InkCore"]),
    ],
    targets: [
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", path: "Sources/CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        // GL through libepoxy (GTK's loader): which driver GL renders with, to keep GTK off software GL.
        .systemLibrary(name: "CEpoxy", path: "Sources/CEpoxy", pkgConfig: "epoxy", providers: [.apt(["libepoxy-dev"])]),
        .systemLibrary(name: "CPango", path: "Sources/CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CNats", path: "Sources/CNats", pkgConfig: "libnats", providers: [.apt(["libnats-dev"])]),

        .target(name: "InkCore", swiftSettings: swift5),
        // PDF files through poppler: page count and sizes (for import) and rendering (for backgrounds and export).
        // Poppler is loaded with dlopen when a PDF is first opened (PDFSource.swift), not linked.
        .target(name: "InkPDF", dependencies: ["InkCore"], swiftSettings: swift5),
        .target(name: "InkRender", dependencies: ["InkCore", "InkPDF", "CCairo", "CPango", "CGdkPixbuf", "CZlib", "CDeflate"], swiftSettings: swift5),
        .target(name: "Localization", dependencies: ["CIntl"], swiftSettings: swift5),
        .target(name: "InkStore", dependencies: ["InkCore", "InkPDF", "CSQLite", "CZlib", "CDeflate", "Localization"], swiftSettings: swift5),
        .target(name: "InkSync", dependencies: ["InkCore", "InkStore", "CNats"], swiftSettings: swift5),
        .target(name: "OekakiApp", dependencies: ["InkCore", "InkRender", "InkStore", "InkSync", "Localization", "CGtk", "CCairo", "CEpoxy"], swiftSettings: swift5),
        // The command line's one argument parser and failure type, for `oekaki` and `oekaki-thumbnailer`.
        .target(name: "Commands", dependencies: ["Localization"], swiftSettings: swift5),
        .target(name: "Thumbnailer", dependencies: ["InkCore", "InkRender", "InkStore", "Localization", "Commands"], swiftSettings: swift5),
        // A `.oekaki` page to PNG straight from the file: the CLI's export and the bench's in-process figure.
        .target(name: "PageExport", dependencies: ["InkCore", "InkRender", "InkStore"], swiftSettings: swift5),
        .executableTarget(name: "oekaki", dependencies: ["InkCore", "InkPDF", "InkRender", "InkStore", "InkSync", "OekakiApp", "Localization", "Thumbnailer", "Commands", "PageExport"], swiftSettings: swift5),
        // What a file manager runs for every thumbnail: no GTK, and the Swift runtime linked in, so starting it
        // costs a few milliseconds of dynamic linking instead of tens (see BENCHMARKS.md, thumbnail_ms_1m).
        .executableTarget(name: "oekaki-thumbnailer", dependencies: ["Thumbnailer", "Localization", "Commands"], swiftSettings: swift5,
                          linkerSettings: [.unsafeFlags(["-static-stdlib"])] + staticFoundation),
        // Generated ink, PDFs and Xournal++ files for the bench and the tests; the product never links it.
        .target(name: "InkSamples", dependencies: ["InkCore", "InkRender", "InkStore"], swiftSettings: swift5),
        // Bench and window-test hooks (trace, layout report, floor window): linked only into `oekaki-instrumented`,
        // which oekaki-bench and AppTests launch; the shipped `oekaki` has none of it.
        .target(name: "AppInstruments", dependencies: ["OekakiApp", "InkRender", "CGtk"], swiftSettings: swift5),
        .executableTarget(name: "oekaki-instrumented", dependencies: ["OekakiApp", "AppInstruments"], swiftSettings: swift5),
        .executableTarget(name: "oekaki-bench", dependencies: ["InkCore", "InkRender", "InkStore", "InkSync", "Thumbnailer", "InkSamples", "PageExport"], swiftSettings: swift5),

        .testTarget(name: "InkCoreTests", dependencies: ["InkCore", "TestSupport"], exclude: ["Fixtures"], swiftSettings: swift5),
        .testTarget(name: "InkRenderTests", dependencies: ["InkCore", "InkRender", "InkStore", "InkPDF", "TestSupport", "InkSamples"], swiftSettings: swift5),
        .testTarget(name: "InkStoreTests", dependencies: ["InkCore", "InkStore", "InkRender", "InkSamples"], swiftSettings: swift5),
        .testTarget(name: "InkSyncTests", dependencies: ["InkCore", "InkStore", "InkSync", "InkSamples"], swiftSettings: swift5),
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swift5),
        .testTarget(name: "CLITests", dependencies: ["InkCore", "TestSupport", "InkSamples"], resources: [.copy("Fixtures")], swiftSettings: swift5),
        .testTarget(name: "AppTests", dependencies: ["OekakiApp", "InkCore", "InkRender", "InkStore", "CGtk", "TestSupport", "InkSamples"], swiftSettings: swift5),
    ]
)
