import Foundation
import Localization
import InkCore
import InkStore

/// `oekaki info FILE [--page K]`: the replay summary of a `.oekaki` or `.xopp` file (every page, or page K alone),
/// plus its format and version. The file is opened read-only and never changed.
enum InfoCommand {
    static func run(_ args: [String]) throws {
        var file: String?
        var page: Int?
        var i = 0
        while i < args.count {
            let a = args[i]
            switch a {
            case "--page":
                page = try DocumentArguments.page(args, at: i, command: "info")
                i += 2
            default:
                if a.hasPrefix("-") && a.count > 1 { throw CommandFailure.usage(localized("info: unknown option '{0}'", a)) }
                guard file == nil else { throw CommandFailure.usage(localized("info: unexpected argument '{0}'", a)) }
                file = a
                i += 1
            }
        }
        guard let file else { throw CommandFailure.usage(localized("info: missing FILE")) }
        let doc = try DocumentArguments.load(file, page: page)
        let summary = page.map { DrawingSummary(doc.document.pages[$0 - 1].drawing) } ?? DrawingSummary(doc.document)
        print(summary.json(extra: [("format", JSONText.string(doc.format)), ("version", String(doc.version))]))
    }
}

/// Argument and loading helpers shared by `info` and `export`.
enum DocumentArguments {
    static func page(_ args: [String], at i: Int, command: String) throws -> Int {
        guard i + 1 < args.count else { throw CommandFailure.usage(localized("{0}: --page needs a page number", command)) }
        guard let k = Int(args[i + 1]), k >= 1 else {
            throw CommandFailure.usage(localized("{0}: --page needs a page number ≥ 1, not '{1}'", command, args[i + 1]))
        }
        return k
    }

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
