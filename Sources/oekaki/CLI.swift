import Foundation
import Commands
import Localization
import OekakiApp
import Thumbnailer

enum CLI {
    static let version = AppInfo.version

    /// Each line: the syntax (never translated) and what it does (translated), aligned.
    static var usage: String {
        let lines: [(String, String)] = [("oekaki [FILE]", localized("open FILE (.oekaki, or .xopp or .pdf to import) in the app"))]
            + [ReplayCommand.usage, InfoCommand.usage, ExportCommand.usage, ThumbnailCommand.usage, SearchCommand.usage, SyncCommand.usage].flatMap(\.lines)
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
        let commands: [String: Usage] = ["replay": ReplayCommand.usage, "info": InfoCommand.usage, "export": ExportCommand.usage,
                                         "thumbnail": ThumbnailCommand.usage, "search": SearchCommand.usage, "sync": SyncCommand.usage]
        guard let command, let u = commands[command] else { return localized("usage: oekaki [FILE]; every command: oekaki --help") }
        return localized("usage:") + " " + u.lines.map(\.syntax).filter { !$0.isEmpty }.joined(separator: "; ")
    }

    static func run(_ args: [String]) -> Int32 {
        do {
            switch args.first {
            case nil:
                return OekakiApplication.run(file: nil)
            case "-h", "--help", "help":
                print(usage)
                return 0
            case "--version":
                print("oekaki \(version)")
                return 0
            case "replay":
                try ReplayCommand.run(Array(args.dropFirst()))
            case "info":
                try InfoCommand.run(Array(args.dropFirst()))
            case "export":
                try ExportCommand.run(Array(args.dropFirst()))
            case "thumbnail":
                try ThumbnailCommand.run(Array(args.dropFirst()))
            case "search":
                try SearchCommand.run(Array(args.dropFirst()))
            case "sync":
                try SyncCommand.run(Array(args.dropFirst()))
            case let a? where a.hasPrefix("-"):
                throw CommandFailure.usage(localized("unknown option '{0}'", a))
            default:
                guard args.count == 1 else { throw CommandFailure.usage(localized("the app takes one FILE")) }
                return OekakiApplication.run(file: args[0])
            }
            return 0
        } catch {
            return CommandFailure.report(error, program: "oekaki", usage: usageLine(for: args.first))
        }
    }
}
