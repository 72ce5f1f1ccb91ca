import Foundation
import Commands
import Localization
import InkCore
import InkRender
import InkStore

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
           try streamPNG(input, page: (page ?? 1) - 1, to: output, options: options) {
            return
        }
        let doc = try DocumentArguments.load(input, page: page)
        ImagePainter.shared.provide(doc.document.files)
        do {
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
        } catch let e as RenderError {
            throw CommandFailure.input(e.description)
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }

    /// `.oekaki` → PNG without loading the drawing: the page's strokes are read from the file one at a time, in as
    /// many contiguous runs as there are threads drawing them, so memory stays a few page rasters at any drawing
    /// size. False for an endless page (its frame is the ink's, known only once every stroke is read).
    static func streamPNG(_ input: String, page: Int, to output: String, options: ExportOptions) throws -> Bool {
        do {
            let stream = try StrokeStream.open(path: input, page: page)
            defer { stream.close() }
            // An endless page, or one with a PDF background (drawn from the loaded document's files).
            guard let size = stream.format.size, stream.format.background.pdf == nil else { return false }
            // Pictures on the page are drawn from the file's embedded bytes.
            let files = try stream.files()
            ImagePainter.shared.provide(files)
            let paper = Paper(background: stream.format.background, frame: Rect(x: 0, y: 0, width: size.width, height: size.height), endless: false)
            // Highlighters multiply what is under them, which runs drawn apart cannot: such a page is drawn in bands,
            // each walking every stroke (still one raster in memory, not the loaded drawing).
            if try stream.hasHighlighters() {
                try LayeredExport.writePNGInBands(pageSize: size, background: stream.background, paper: paper,
                                                  walk: { band, draw in try stream.forEachStroke(lane: band + 1, draw) },
                                                  to: output, options: options, pictures: !files.isEmpty)
                return true
            }
            let runs = try stream.runs(try LayeredExport.runCount(pageSize: size, scale: options.scale))
            try LayeredExport.writePNG(pageSize: size, background: stream.background, paper: paper,
                                       runs: runs.map { run in { draw in try stream.forEachStroke(in: run, draw) } },
                                       to: output, options: options, pictures: !files.isEmpty)
            return true
        } catch let e as RenderError {
            throw CommandFailure.input(e.description)
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }
}
