import Foundation
import Commands
import Localization
import InkCore
import InkRender
import InkStore

/// `oekaki thumbnail IN OUT.png [--size N]`: the first page of a `.oekaki` or `.xopp` fitted into N×N (default 256),
/// transparent outside the page. A `.oekaki` is streamed, never loaded whole. Shared by `oekaki thumbnail` and
/// `oekaki-thumbnailer` (what the desktop's thumbnailer entry runs: the same command without GTK to link).
public enum ThumbnailCommand {
    /// The arguments after the command's name (`oekaki thumbnail` or `oekaki-thumbnailer`).
    public static let syntax = "IN OUT.png [--size N]"
    public static var usage: Usage { Usage("oekaki thumbnail " + syntax, localized("the first page fitted into N×N pixels (default 256)")) }

    public static func run(_ args: [String]) throws {
        let a = try Arguments(args, command: "thumbnail", options: [.value("--size", missing: localized("thumbnail: --size needs a number of pixels"))])
        let size = try a.value("--size", { Int($0).flatMap { (1...Thumbnail.maxSize).contains($0) ? $0 : nil } }) {
            localized("thumbnail: --size needs a whole number of pixels from 1 to {0}, not '{1}'", Thumbnail.maxSize, $0)
        }
        let files = try a.files(2, missing: localized("thumbnail: needs IN and OUT.png"))
        let (input, output) = (files[0], files[1])
        // Thumbnailers often name the output without an extension (GNOME's is a temporary file): any name is PNG.
        do {
            try write(input, to: output, size: size ?? Thumbnail.defaultSize)
        } catch let e as RenderError {
            throw CommandFailure.input(e.description)
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }

    /// Renders the thumbnail of `input` into `output`; throws the store's and the renderer's errors as they are.
    public static func write(_ input: String, to output: String, size n: Int) throws {
        // A fixed page is streamed and drawn as it is read. An endless page's frame is its ink's, known only once
        // every stroke is read, so its strokes are read first — that page's live ones only, not the other pages
        // or the undo history that opening the whole document would decode. A .xopp is loaded.
        if StrokeStream.looksLikeDocument(path: input) {
            let stream = try StrokeStream.open(path: input)
            defer { stream.close() }
            // Pictures and a PDF page are drawn from the file's embedded bytes (none: an empty table, nothing read).
            let files = try stream.files()
            ImagePainter.shared.provide(files)
            if !stream.format.isEndless {
                // Cut by stroke count from the ids alone: sizing every row first was a serial walk over the file.
                let runs = try stream.evenRuns(try LayeredExport.runCount(pageSize: stream.pageSize))
                let size = stream.pageSize
                try Thumbnail.writePNG(frame: Rect(x: 0, y: 0, width: size.width, height: size.height), background: stream.background,
                                       backdrop: PDFBackdrop.of(Page(format: stream.format), files: files), picture: stream.format.background.picture,
                                       inkRuns: runs.map { run in { ink, other in try stream.forEachStroke(in: run, ink: ink, other: other) } },
                                       size: n, to: output)
            } else {
                var strokes: [Stroke] = []
                try stream.forEachStroke { strokes.append($0) }
                let page = Page(format: stream.format, drawing: Drawing(strokes: strokes))
                try Thumbnail.writePNG(frame: page.frame, background: page.format.background.paper,
                                       runs: LayeredExport.runs(of: page.shownStrokes, count: 2), size: n, to: output)
            }
            return
        }
        // Notes (what the import left out) are for `info`; a thumbnailer should be quiet.
        let doc = try DocumentLoader.load(path: input, page: 1)
        let page = doc.document.pages[0]
        ImagePainter.shared.provide(doc.document.files)
        try Thumbnail.writePNG(frame: page.frame, background: page.format.background.paper, backdrop: PDFBackdrop.of(page, in: doc.document),
                               picture: page.size == nil ? nil : page.background.picture, runs: LayeredExport.runs(of: page.shownStrokes, count: 2), size: n, to: output)
    }
}
