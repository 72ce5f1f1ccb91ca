import Foundation

/// Why a command failed; decides the exit code. Every command of `oekaki` and `oekaki-thumbnailer` throws it.
public enum CommandFailure: Error, Equatable {
    /// Wrong arguments: exit 2, the message and the command's usage, one line.
    case usage(String)
    /// Bad input file or data: exit 1, one line.
    case input(String)

    /// Writes `error` to standard error as one line, `PROGRAM: message` (a usage failure ends with `(usage)`, the
    /// failing command's own syntax: a screen of every command's would bury the one line that says what is wrong),
    /// and returns the exit code: 2 for wrong arguments, 1 for anything else.
    public static func report(_ error: Error, program: String, usage: String) -> Int32 {
        let text: String, code: Int32
        switch error {
        case CommandFailure.usage(let m): (text, code) = ("\(program): \(m) (\(usage))\n", 2)
        case CommandFailure.input(let m): (text, code) = ("\(program): \(m)\n", 1)
        default: (text, code) = ("\(program): \(error)\n", 1)
        }
        FileHandle.standardError.write(Data(text.utf8))
        return code
    }
}
