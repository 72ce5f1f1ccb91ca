import Foundation
import Commands
import Localization
import InkCore
import InkRender
import InkStore
import PageExport

/// `oekaki export IN OUT [--scale S] [--transparent] [--page K] [--annotations-only]`: IN is `.oekaki`, `.xopp` or a
/// PDF (by content; a PDF comes in as pages with the PDF's pages as backgrounds);
/// OUT's extension picks the format: `.png`, `.svg`, `.pdf`, `.oekaki` (with the history) or `.xopp`.
/// PDF, `.oekaki` and `.xopp` hold every page (a PDF only page K with `--page K`); PNG and SVG one page, K (default
/// 1), or every page when OUT contains `%d` (`out-%d.png` → `out-1.png`, `out-2.png`, …). PNG and PDF draw a
/// page's PDF background under the ink; `--annotations-only` (PDF) writes the items alone on blank pages.
enum ExportCommand {
    enum Target { case image(ExportFormat), oekaki, xopp }

    static func target(_ path: String) throws -> Target {
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "oekaki": return .oekaki
        case "xopp": return .xopp
        default:
            if let f = ExportFormat(rawValue: ext) { return .image(f) }
            let shown = ext.isEmpty ? "no extension" : "'.\(ext)'"
            throw CommandFailure.usage(localized("export: cannot write {0}; OUT must end in .png, .svg, .pdf, .oekaki or .xopp", shown))
        }
    }

    static let usage = Usage([("oekaki export IN OUT [--scale S] [--transparent] [--page K] [--annotations-only]", ""),
                              ("", localized("IN: .oekaki, .xopp or .pdf; OUT: .png .svg .pdf .oekaki .xopp"))])

    static func run(_ args: [String]) throws {
        let a = try Arguments(args, command: "export", options: [
            .value("--scale", missing: localized("export: --scale needs a number")), .flag("--transparent"),
            .flag("--annotations-only"), Arguments.pageOption("export"),
        ])
        let scale = try a.value("--scale", { Double($0).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }) {
            localized("export: --scale needs a positive number, not '{0}'", $0)
        }
        let transparent = a.has("--transparent"), annotationsOnly = a.has("--annotations-only")
        let page = try a.page()
        let files = try a.files(2, missing: localized("export: needs IN and OUT"))
        let (input, output) = (files[0], files[1])
        let target = try target(output)
        switch target {
        case .image(.png): break
        case .image:
            if scale != nil { throw CommandFailure.usage(localized("export: --scale applies to .png only")) }
        case .oekaki, .xopp:
            if scale != nil || transparent { throw CommandFailure.usage(localized("export: --scale and --transparent apply to .png, .svg and .pdf only")) }
        }

        if annotationsOnly, case .image(.pdf) = target {} else if annotationsOnly {
            throw CommandFailure.usage(localized("export: --annotations-only applies to .pdf only"))
        }
        let options = ExportOptions(scale: scale ?? 1, transparent: transparent, annotationsOnly: annotationsOnly)
        let everyPage = output.contains("%d")
        if everyPage, case .image(.pdf) = target { throw CommandFailure.usage("export: a PDF holds every page; %d is for .png and .svg") }
        if everyPage, page != nil { throw CommandFailure.usage("export: --page and %d in OUT cannot go together") }
        if case .image(.png) = target, !everyPage, StrokeStream.looksLikeDocument(path: input),
           try failingAsInput({ try StreamedPNG.write(input, page: (page ?? 1) - 1, to: output, options: options) }) {
            return
        }
        let doc = try DocumentArguments.load(input, page: page)
        ImagePainter.shared.provide(doc.document.files)
        try failingAsInput {
            switch target {
            case .image(.pdf):
                if let page {
                    let p = doc.document.pages[page - 1]
                    try Exporter.write(p, to: output, format: .pdf, options: options, backdrop: PDFBackdrop.of(p, in: doc.document))
                } else {
                    try Exporter.writePDF(doc.document, to: output, options: options)
                }
            case .image(let format):
                if everyPage {
                    for (k, p) in doc.document.pages.enumerated() {
                        try Exporter.write(p, to: output.replacingOccurrences(of: "%d", with: String(k + 1)), format: format, options: options,
                                           backdrop: PDFBackdrop.of(p, in: doc.document))
                    }
                } else {
                    let p = doc.document.pages[(page ?? 1) - 1]
                    try Exporter.write(p, to: output, format: format, options: options, backdrop: PDFBackdrop.of(p, in: doc.document))
                }
            case .oekaki:
                try DocumentFile.create(path: output, document: doc.document, history: doc.history).close()
            case .xopp:
                try XoppExport.write(doc.document, to: output, jpegAsPNG: ImageDecoder.pngBytes)
            }
        }
    }

    /// A file that cannot be read or written is bad input (exit 1, one line), for the streamed PNG as for the rest.
    private static func failingAsInput<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as RenderError {
            throw CommandFailure.input(e.description)
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }
}
