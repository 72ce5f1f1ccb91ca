import Foundation
import Localization
import InkCore
import InkRender
import InkStore

/// `oekaki export IN OUT [--scale S] [--transparent] [--page K]`: IN is `.oekaki` or `.xopp` (by content);
/// OUT's extension picks the format: `.png`, `.svg`, `.pdf`, `.oekaki` (with the history) or `.xopp`.
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

    static func run(_ args: [String]) throws {
        var files: [String] = []
        var scale: Double?
        var transparent = false
        var page: Int?
        var i = 0
        while i < args.count {
            let a = args[i]
            switch a {
            case "--scale":
                guard i + 1 < args.count else { throw CommandFailure.usage(localized("export: --scale needs a number")) }
                guard scale == nil else { throw CommandFailure.usage(localized("export: --scale given twice")) }
                guard let s = Double(args[i + 1]), s.isFinite, s > 0 else {
                    throw CommandFailure.usage(localized("export: --scale needs a positive number, not '{0}'", args[i + 1]))
                }
                scale = s
                i += 2
            case "--transparent":
                transparent = true
                i += 1
            case "--page":
                guard page == nil else { throw CommandFailure.usage(localized("export: --page given twice")) }
                page = try DocumentArguments.page(args, at: i, command: "export")
                i += 2
            default:
                if a.hasPrefix("-") && a.count > 1 { throw CommandFailure.usage(localized("export: unknown option '{0}'", a)) }
                files.append(a)
                i += 1
            }
        }
        guard files.count >= 2 else { throw CommandFailure.usage(localized("export: needs IN and OUT")) }
        guard files.count == 2 else { throw CommandFailure.usage(localized("export: unexpected argument '{0}'", files[2])) }
        let (input, output) = (files[0], files[1])
        let target = try target(output)
        switch target {
        case .image(.png): break
        case .image:
            if scale != nil { throw CommandFailure.usage(localized("export: --scale applies to .png only")) }
        case .oekaki, .xopp:
            if scale != nil || transparent { throw CommandFailure.usage(localized("export: --scale and --transparent apply to .png, .svg and .pdf only")) }
        }

        if case .image(.png) = target, page == nil || page == 1, StrokeStream.looksLikeDocument(path: input) {
            return try streamPNG(input, to: output, options: ExportOptions(scale: scale ?? 1, transparent: transparent))
        }
        let doc = try DocumentArguments.load(input, page: page)
        do {
            switch target {
            case .image(let format):
                try Exporter.write(doc.drawing, to: output, format: format,
                                   options: ExportOptions(scale: scale ?? 1, transparent: transparent))
            case .oekaki:
                try DocumentFile.create(path: output, drawing: doc.drawing, history: doc.history).close()
            case .xopp:
                try XoppExport.write(doc.drawing, to: output)
            }
        } catch let e as RenderError {
            throw CommandFailure.input(e.description)
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }

    /// `.oekaki` → PNG without loading the drawing: the strokes are read from the file one at a time, in as many
    /// contiguous runs as there are threads drawing them, so memory stays a few page rasters at any drawing size.
    static func streamPNG(_ input: String, to output: String, options: ExportOptions) throws {
        do {
            let stream = try StrokeStream.open(path: input)
            defer { stream.close() }
            let runs = try stream.runs(try LayeredExport.runCount(pageSize: stream.pageSize, scale: options.scale))
            try LayeredExport.writePNG(pageSize: stream.pageSize, background: stream.background,
                                       runs: runs.map { run in { draw in try stream.forEachStroke(in: run, draw) } },
                                       to: output, options: options)
        } catch let e as RenderError {
            throw CommandFailure.input(e.description)
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }
}
