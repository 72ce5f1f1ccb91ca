import Localization

/// One command's arguments, read the one way every command reads them: options anywhere (a value option takes the
/// next argument whatever it looks like), "-" alone is a file (standard input), anything else starting with "-"
/// is an unknown option, an option given twice is a mistake (a flag may repeat). Every mistake is a
/// `CommandFailure.usage` worded "COMMAND: …".
public struct Arguments {
    /// An option a command takes: a flag, or one that takes a value.
    public struct Option {
        let names: [String]
        /// The message when the value is missing, given the spelling used; nil for a flag.
        let needsValue: ((String) -> String)?

        /// `--transparent`: present or not.
        public static func flag(_ names: String...) -> Option { Option(names: names, needsValue: nil) }
        /// `--scale S`; `missing` says what the value should be.
        public static func value(_ name: String, missing: String) -> Option { Option(names: [name], needsValue: { _ in missing }) }
        /// An option with several spellings (`-o`, `--output`); `missing` words it with the one used.
        public static func value(_ names: String..., missing: @escaping (String) -> String) -> Option { Option(names: names, needsValue: missing) }
    }

    public let command: String
    /// The arguments that are not options, in order.
    public private(set) var files: [String] = []
    /// The value of each option given, by its first name (a flag's is "").
    private var given: [String: String] = [:]

    public init(_ args: [String], command: String, options: [Option]) throws {
        self.command = command
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            guard a.hasPrefix("-"), a.count > 1 else { files.append(a); continue }
            guard let option = options.first(where: { $0.names.contains(a) }) else {
                throw CommandFailure.usage(localized("{0}: unknown option '{1}'", command, a))
            }
            let key = option.names[0]
            guard let missing = option.needsValue else { given[key] = ""; continue }
            guard i < args.count else { throw CommandFailure.usage(missing(a)) }
            guard given[key] == nil else { throw CommandFailure.usage(localized("{0}: {1} given twice", command, a)) }
            given[key] = args[i]
            i += 1
        }
    }

    public func has(_ flag: String) -> Bool { given[flag] != nil }

    public func value(_ option: String) -> String? { given[option] }

    /// The option's value read by `parse`; nil when not given, a usage failure worded by `invalid` when unreadable.
    public func value<T>(_ option: String, _ parse: (String) -> T?, invalid: (String) -> String) throws -> T? {
        guard let text = given[option] else { return nil }
        guard let v = parse(text) else { throw CommandFailure.usage(invalid(text)) }
        return v
    }

    /// Exactly `count` files: fewer is `missing`, more names the first one too many.
    public func files(_ count: Int, missing: String) throws -> [String] {
        guard files.count >= count else { throw CommandFailure.usage(missing) }
        guard files.count == count else { throw CommandFailure.usage(localized("{0}: unexpected argument '{1}'", command, files[count])) }
        return files
    }

    /// `--page K`: a page number from 1.
    public func page() throws -> Int? {
        try value("--page", { Int($0).flatMap { $0 >= 1 ? $0 : nil } }) {
            localized("{0}: --page needs a page number ≥ 1, not '{1}'", command, $0)
        }
    }

    /// The `--page` option as `info` and `export` take it.
    public static func pageOption(_ command: String) -> Option { .value("--page", missing: localized("{0}: --page needs a page number", command)) }
}

/// What a command's line in the usage says: its syntax (never translated) and what it does (translated).
public struct Usage {
    public let lines: [(syntax: String, what: String)]
    public init(_ lines: [(syntax: String, what: String)]) { self.lines = lines }
    public init(_ syntax: String, _ what: String) { lines = [(syntax, what)] }
}
