import Foundation
import Commands
import Localization
import OekakiApp
import Thumbnailer

enum CLI {
    static let version = AppInfo.version

    /// The commands by name, each with its usage and what runs it: the dispatch, `--help` and the usage errors'
    /// line all read this one table.
    static var commands: [(name: String, usage: Usage, run: ([String]) throws -> Void)] { [
        ("replay", ReplayCommand.usage, ReplayCommand.run), ("info", InfoCommand.usage, InfoCommand.run),
        ("export", ExportCommand.usage, ExportCommand.run), ("thumbnail", ThumbnailCommand.usage, ThumbnailCommand.run),
        ("search", SearchCommand.usage, SearchCommand.run), ("sync", SyncCommand.usage, SyncCommand.run),
    ] }

    /// Each line: the syntax (never translated) and what it does (translated), aligned.
    static var usage: String {
        let lines: [(String, String)] = [("oekaki [FILE]", localized("open FILE (.oekaki, or .xopp or .pdf to import) in the app"))]
            + commands.flatMap(\.usage.lines)
            + [("oekaki --help | --version", "")]
        let head = localized("usage:")
        // Columns on a terminal: CJK characters take two.
        func columns(_ s: String) -> Int { s.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 2 : 1) } }
        let indent = String(repeating: " ", count: columns(head) + 1)
        return lines.enumerated().map { i, line in
            let syntax = (i == 0 ? head + " " : indent) + line.0
            guard !line.1.isEmpty else { return syntax }
            let column = indent.count + 35, used = columns(syntax)
            return used < column ? syntax + String(repeating: " ", count: column - used) + line.1
                : syntax + "   " + line.1
        }.joined(separator: "\n")
    }

    /// One line for a usage error: the syntax of the command that failed, or where to find every command's.
    static func usageLine(for command: String?) -> String {
        guard let u = commands.first(where: { $0.name == command })?.usage else { return localized("usage: oekaki [FILE]; every command: oekaki --help") }
        return localized("usage:") + " " + u.lines.map(\.syntax).filter { !$0.isEmpty }.joined(separator: "; ")
    }

    static func run(_ args: [String]) -> Int32 {
        do {
            if let command = commands.first(where: { $0.name == args.first }) {
                try command.run(Array(args.dropFirst()))
                return 0
            }
            switch args.first {
            case nil:
                return OekakiApplication.run(file: nil)
            case "-h", "--help", "help":
                print(usage)
                return 0
            case "--version":
                print("oekaki \(version)")
                return 0
            case let a? where a.hasPrefix("-"):
                throw CommandFailure.usage(localized("unknown option '{0}'", a))
            default:
                guard args.count == 1 else { throw CommandFailure.usage(localized("the app takes one FILE")) }
                return OekakiApplication.run(file: args[0])
            }
        } catch {
            return CommandFailure.report(error, program: "oekaki", usage: usageLine(for: args.first))
        }
    }
}
