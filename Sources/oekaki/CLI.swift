import Foundation
import Localization
import OekakiApp
import Thumbnailer

/// Why a command failed; decides the exit code.
enum CommandFailure: Error {
    /// Wrong arguments: exit 2 with the usage.
    case usage(String)
    /// Bad input file or data: exit 1 with one line.
    case input(String)
}

enum CLI {
    static let version = AppInfo.version

    /// Each line: the syntax (never translated) and what it does (translated), aligned.
    static var usage: String {
        let lines: [(String, String)] = [
            ("oekaki [FILE]", localized("open FILE (.oekaki, or .xopp or .pdf to import) in the app")),
            ("oekaki replay LOG [-o OUT.oekaki]", localized("replay a JSON Lines event log, print the summary")),
            ("oekaki info FILE [--page K]", localized("print a document's summary as JSON")),
            ("oekaki export IN OUT [--scale S] [--transparent] [--page K] [--annotations-only]", ""),
            ("", localized("IN: .oekaki, .xopp or .pdf; OUT: .png .svg .pdf .oekaki .xopp")),
            ("oekaki thumbnail IN OUT.png [--size N]", localized("the first page fitted into N×N pixels (default 256)")),
            ("oekaki sync FILE URL [--once]", localized("keep the replica FILE in step with the board at URL")),
            ("", "URL: nats://[user:password@]host:port/BOARD"),
            ("oekaki --help | --version", ""),
        ]
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
                do { try ThumbnailCommand.run(Array(args.dropFirst())) } catch ThumbnailCommand.Failure.usage(let m) {
                    throw CommandFailure.usage(m)
                } catch ThumbnailCommand.Failure.input(let m) {
                    throw CommandFailure.input(m)
                }
            case "sync":
                try SyncCommand.run(Array(args.dropFirst()))
            case let a? where a.hasPrefix("-"):
                throw CommandFailure.usage(localized("unknown option '{0}'", a))
            default:
                guard args.count == 1 else { throw CommandFailure.usage(localized("the app takes one FILE")) }
                return OekakiApplication.run(file: args[0])
            }
            return 0
        } catch CommandFailure.usage(let m) {
            FileHandle.standardError.write(Data("oekaki: \(m)\n\(usage)\n".utf8))
            return 2
        } catch CommandFailure.input(let m) {
            FileHandle.standardError.write(Data("oekaki: \(m)\n".utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data("oekaki: \(error)\n".utf8))
            return 1
        }
    }
}
