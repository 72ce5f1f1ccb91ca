import CIntl
import Foundation

// gettext for every user-facing string of the app and the CLI. Translations live in po/LL.po and are compiled by
// `make` into .build/locale (found beside a binary run from .build/*/) or installed into PREFIX/share/locale.
//
// Strings are extracted by xgettext (`make pot`) from calls to `localized("…")` and `localizedPlural("…", "…", n)`,
// so the text must be a plain literal: values go in through {0}, {1}, … (never Swift interpolation), which lets a
// translation put them in its own order.

/// The translation of `text`, with `{0}`, `{1}`, … replaced by `values` in order.
public func localized(_ text: String, _ values: CustomStringConvertible...) -> String {
    Localization.fill(Localization.translate(text), values)
}

/// The translation of `singular`/`plural` chosen by the language's plural rule for `count`; `%d` is the count
/// and `{0}`, `{1}`, … are `values`.
public func localizedPlural(_ singular: String, _ plural: String, _ count: Int, _ values: CustomStringConvertible...) -> String {
    Localization.setUpOnce()
    // gettext hands back its argument when there is no translation: read it while the argument is alive.
    let chosen = singular.withCString { one in
        plural.withCString { many in String(cString: dngettext(Localization.domain, one, many, UInt(max(count, 0)))) }
    }
    return Localization.fill(chosen.replacingOccurrences(of: "%d", with: String(count)), values)
}

public enum Localization {
    public static let domain = "oekaki"

    /// The folder holding `LL/LC_MESSAGES/oekaki.mo`: `$OEKAKI_LOCALEDIR`, else `../share/locale` beside the
    /// binary (installed), else `.build/locale` (a binary in `.build/TRIPLE/debug` or `release`).
    public static var folder: String? {
        if let dir = ProcessInfo.processInfo.environment["OEKAKI_LOCALEDIR"], !dir.isEmpty { return dir }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in ["../share/locale", "../../locale"] {
            let dir = exe.appendingPathComponent(candidate).standardizedFileURL.path
            if FileManager.default.fileExists(atPath: dir) { return dir }
        }
        return nil
    }

    nonisolated(unsafe) private static var isSetUp = false
    private static let lock = NSLock()

    /// Takes the language from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and finds the catalogues.
    /// Called by the first translation; numbers keep the C locale so files and JSON never get decimal commas.
    static func setUpOnce() {
        lock.lock(); defer { lock.unlock() }
        guard !isSetUp else { return }
        isSetUp = true
        setlocale(LC_ALL, "")
        setlocale(LC_NUMERIC, "C")
        if let folder { bindtextdomain(domain, folder) }
        bind_textdomain_codeset(domain, "UTF-8")
    }

    static func translate(_ text: String) -> String {
        setUpOnce()
        // gettext hands back its argument when there is no translation: read it while the argument is alive.
        return text.withCString { String(cString: dgettext(domain, $0)) }
    }

    static func fill(_ text: String, _ values: [CustomStringConvertible]) -> String {
        guard !values.isEmpty else { return text }
        var out = text
        for (i, v) in values.enumerated() { out = out.replacingOccurrences(of: "{\(i)}", with: v.description) }
        return out
    }
}
