import Foundation
import Commands
import Localization
import InkCore
import InkPDF
import InkStore

/// `oekaki info FILE [--page K]`: the replay summary of a `.oekaki` or `.xopp` file (every page, or page K alone),
/// plus its format and version. The file is opened read-only and never changed.
enum InfoCommand {
    static let usage = Usage("oekaki info FILE [--page K]", localized("print a document's summary as JSON"))

    static func run(_ args: [String]) throws {
        let a = try Arguments(args, command: "info", options: [Arguments.pageOption("info")])
        let page = try a.page()
        let file = try a.files(1, missing: localized("info: missing FILE"))[0]
        let doc = try DocumentArguments.load(file, page: page)
        let summary = page.map { DrawingSummary(doc.document.pages[$0 - 1]) } ?? DrawingSummary(doc.document)
        var extra = [("format", JSONText.string(doc.format)), ("version", String(doc.version))]
        if let outline = outline(of: doc.document), !outline.isEmpty { extra.append(("outline", json(outline))) }
        print(summary.json(extra: extra))
    }

    /// The outline of the PDF the document shows, placed on the document's pages; nil when there is none.
    static func outline(of document: Document) -> [OutlineEntry]? {
        guard let hash = Outline.pdf(of: document), let source = PDFSources().source(hash, in: document.files) else { return nil }
        return Outline.forDocument(document, pdf: hash, outline: source.outline())
    }

    /// `[{"title":…,"page":K,"children":[…]},…]`, pages from 1.
    static func json(_ entries: [OutlineEntry]) -> String {
        "[" + entries.map { e in
            "{\"title\":\(JSONText.string(e.title)),\"page\":\(e.page + 1),\"children\":\(json(e.children))}"
        }.joined(separator: ",") + "]"
    }
}

/// Loading as `info` and `export` do it.
enum DocumentArguments {
    /// Loads any drawing file, printing the loader's notes on stderr; bad files become exit-1 failures.
    static func load(_ path: String, page: Int?) throws -> LoadedDocument {
        do {
            let doc = try DocumentLoader.load(path: path, page: page)
            for n in doc.notes { FileHandle.standardError.write(Data("oekaki: note: \(path) \(n)\n".utf8)) }
            return doc
        } catch let e as StoreError {
            throw CommandFailure.input(e.description)
        }
    }
}
