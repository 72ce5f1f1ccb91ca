import InkCore
import InkRender
import InkStore

/// `.oekaki` → PNG without loading the drawing: the page's strokes are read from the file one at a time, in as many
/// contiguous runs as there are threads drawing them, so memory stays a few page rasters at any drawing size. The
/// CLI's `export` and the bench's in-process figure both call this, so the bench times what users run.
public enum StreamedPNG {
    /// False (nothing written) for an endless page, whose frame is the ink's, known only once every stroke is read,
    /// and for a page with a PDF background, drawn from the loaded document's files. `page` counts from 0.
    public static func write(_ input: String, page: Int, to output: String, options: ExportOptions) throws -> Bool {
        let stream = try StrokeStream.open(path: input, page: page)
        defer { stream.close() }
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
    }
}
