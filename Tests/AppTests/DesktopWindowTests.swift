import Foundation
import XCTest
import TestSupport

/// The desktop side of the window under its own Xvfb (a larger screen for HiDPI): the shortcuts window and About
/// dialog, New, recent files, a dropped drawing, the remembered window size, the dark style, GDK_SCALE=2 and Japanese.
final class DesktopWindowTests: WindowTestCase {
    override class var screen: (width: Int, height: Int) { (2560, 1700) }
    override class var installHint: String { "make deps installs it" }

    var apps: [Process] = []
    var report: URL { home.appendingPathComponent("layout.txt") }

    override func tearDownWithError() throws {
        stopApps()
        try super.tearDownWithError()
    }

    private func stopApps() {
        for p in apps where p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        apps = []
    }

    // MARK: tests

    func testShortcutsWindowOpensWithCtrlQuestionMark() throws {
        try launch(home.appendingPathComponent("keys.oekaki").path)
        // Without a window manager the keyboard follows the pointer.
        xdotool(["mousemove", "600", "400", "key", "ctrl+question"])
        XCTAssertTrue(waitForWindow(named: "Keyboard Shortcuts"), "Ctrl+? opens the keyboard shortcuts window")
        let shot = try screenshot()
        // Its key caps are drawn: the window is not empty.
        XCTAssertGreaterThan(shot.darkPixels(in: (0..<1000, 0..<600)), 2000)
    }

    func testAboutOpensFromTheMainMenu() throws {
        try launch(home.appendingPathComponent("about.oekaki").path, environment: ["OEKAKI_LAYOUT_REPORT": report.path])
        let menu = try control("Preferences")
        click(menu)
        let item = try control("Version, licence and website")
        click(item)
        XCTAssertTrue(waitForWindow(named: "About Oekaki"), "About opens")
    }

    func testCtrlNOpensANewUntitledDrawingInANewWindow() throws {
        try launch(home.appendingPathComponent("first.oekaki").path)
        xdotool(["mousemove", "600", "400", "key", "ctrl+n"])
        XCTAssertTrue(waitForWindow(named: "Untitled"), "a second window with an untitled drawing")
        XCTAssertTrue(waitForWindow(named: "first.oekaki"), "the first window stays")
        let untitled = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("data/oekaki").path)
        XCTAssertEqual(untitled.filter { $0.hasSuffix(".oekaki") }.count, 1, "the new drawing is on disk at once: \(untitled)")
    }

    func testRecentFilesAreListedInTheOpenMenuAndOpen() throws {
        let first = home.appendingPathComponent("earlier.oekaki").path
        try launch(first)
        // GtkRecentManager writes its list shortly after a change.
        let xbel = home.appendingPathComponent("data/recently-used.xbel")
        XCTAssertTrue(wait { ((try? String(contentsOf: xbel, encoding: .utf8)) ?? "").contains("earlier.oekaki") }, "the drawing is in the recent list")
        stopApps()

        try launch(home.appendingPathComponent("now.oekaki").path, environment: ["OEKAKI_LAYOUT_REPORT": report.path])
        click(try control("New window and recent drawings"))
        let item = try control("~/earlier.oekaki")
        click(item)
        XCTAssertTrue(waitForWindow(named: "earlier.oekaki — Oekaki"), "choosing it opens it")
    }

    func testWindowSizeIsRememberedForTheNextLaunch() throws {
        try launch(home.appendingPathComponent("size.oekaki").path)
        let before = try windowGeometry("size.oekaki")
        xdotool(["search", "--onlyvisible", "--name", "size.oekaki", "windowsize", "%1", "900", "640"])
        let settings = home.appendingPathComponent("config/oekaki/settings")
        XCTAssertTrue(wait { ((try? String(contentsOf: settings, encoding: .utf8)) ?? "").contains("window-height=") }, "the size is saved")
        let resized = try windowGeometry("size.oekaki")
        XCTAssertNotEqual(resized.width, before.width)
        stopApps()

        try launch(home.appendingPathComponent("size2.oekaki").path)
        let again = try windowGeometry("size2.oekaki")
        XCTAssertEqual(again.width, resized.width, accuracy: 2, "the next window opens at the size the last one had")
        XCTAssertEqual(again.height, resized.height, accuracy: 2)
    }

    func testDarkStyleFollowsTheSystemButPaperAndInkKeepTheirColours() throws {
        func chrome(dark: Bool) throws -> (header: Int, paper: Int, ink: Bool) {
            stopApps()
            let config = home.appendingPathComponent("config-\(dark)")
            let keyfile = config.appendingPathComponent("glib-2.0/settings/keyfile")
            try FileManager.default.createDirectory(at: keyfile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "[org/gnome/desktop/interface]\ncolor-scheme='\(dark ? "prefer-dark" : "default")'\n".write(to: keyfile, atomically: true, encoding: .utf8)
            let file = home.appendingPathComponent("style-\(dark).oekaki").path
            try launch(file, environment: ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": config.path])
            drag(from: (300, 400), to: (700, 400))
            let shot = try screenshot()
            // The title bar between the file buttons and the title: no text there.
            let header = (320..<380).map { shot.brightness($0, 12) }.max() ?? 0
            return (header, shot.brightness(500, 600), shot.hasInk(near: 500, 400))
        }
        let light = try chrome(dark: false), dark = try chrome(dark: true)
        XCTAssertGreaterThan(light.header, 180, "light title bar")
        XCTAssertLessThan(dark.header, 100, "the title bar follows the dark preference")
        XCTAssertGreaterThan(dark.paper, 245, "the page stays paper-white in the dark style")
        XCTAssertTrue(dark.ink && light.ink, "black ink stays black on it")
    }

    /// GDK_SCALE=2: the canvas renders at device resolution, so a line's edges are one antialiased device pixel
    /// wide, as at scale 1 — a scaled-up bitmap would show each edge pixel twice.
    func testInkIsCrispAtGDKScale2() throws {
        try launch(home.appendingPathComponent("hidpi.oekaki").path, environment: ["GDK_SCALE": "2"])
        // Logical (300, 300) → device (600, 600); a long straight drag at constant speed.
        drag(from: (600, 700), to: (1800, 700), steps: 60)
        let shot = try screenshot()
        var profiles: [[Int]] = []
        for x in stride(from: 900, through: 1500, by: 100) {
            profiles.append((660..<740).map { shot.brightness(x, $0) })
        }
        for p in profiles {
            guard let top = p.firstIndex(where: { $0 < 128 }), let bottom = p.lastIndex(where: { $0 < 128 }) else {
                return XCTFail("no line in the column profile \(p)")
            }
            let thickness = bottom - top + 1
            XCTAssertGreaterThanOrEqual(thickness, 4, "a 3-unit pen is about 6 device pixels thick at scale 2: \(p)")
            // Partly covered pixels above and below the solid core.
            let upper = p[..<top].reversed().prefix { $0 < 250 }.count
            let lower = p[(bottom + 1)...].prefix { $0 < 250 }.count
            XCTAssertLessThanOrEqual(upper, 1, "edge above the line is one device pixel: \(p)")
            XCTAssertLessThanOrEqual(lower, 1, "edge below the line is one device pixel: \(p)")
        }
    }

    /// LANGUAGE=ja: the labels are Japanese and each has the room its text needs; the plural of the recovery
    /// banner comes from the catalogue (Japanese has one form: "%d 枚").
    func testJapaneseUIShowsWholeJapaneseLabels() throws {
        // Two untitled drawings with ink from an earlier session, so the recovery banner counts them.
        let data = home.appendingPathComponent("data/oekaki")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let log = home.appendingPathComponent("ink.jsonl")
        try #"""
        {"type":"touch","phase":"began","id":1,"x":100,"y":100}
        {"type":"touch","phase":"ended","id":1,"x":300,"y":200}

        """#.write(to: log, atomically: true, encoding: .utf8)
        for n in 1...2 {
            let r = try run(AppWindowTests.oekakiBinary().path, ["replay", log.path, "-o", data.appendingPathComponent("Untitled 2026-01-0\(n) 10.00.00.oekaki").path])
            XCTAssertEqual(r.status, 0, r.output)
        }
        // The catalogue `make` builds (also when the tests run without make).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        if let make = AppWindowTests.tool("make") {
            XCTAssertEqual(try run(make, ["-C", root.path, "--no-print-directory", "locale"]).status, 0)
        }
        try launch(nil, environment: ["LANGUAGE": "ja", "LANG": "C.UTF-8", "OEKAKI_LAYOUT_REPORT": report.path,
                                      "OEKAKI_LOCALEDIR": root.appendingPathComponent(".build/locale").path])
        XCTAssertTrue(waitForWindow(named: "お絵かき"), "the window title is Japanese")

        var labels: [(rect: (x: Int, y: Int, w: Int, h: Int), needed: Int, text: String)] = []
        XCTAssertTrue(wait(seconds: 10) {
            labels = ((try? String(contentsOf: self.report, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                let f = line.split(separator: " ", maxSplits: 6)
                guard f.count == 7, f[0] == "label", let x = Double(f[1]), let y = Double(f[2]), let w = Double(f[3]),
                      let h = Double(f[4]), let need = Int(f[5]) else { return nil }
                return ((Int(x), Int(y), Int(w), Int(h)), need, String(f[6]))
            }
            return labels.contains { $0.text.contains("枚") }
        }, "the recovery banner is shown: \(labels.map(\.text))")
        XCTAssertTrue(labels.contains { $0.text.contains("名前を付けずに終わった絵が 2 枚あります") }, "plural: \(labels.map(\.text))")

        // The Save As button's label: Japanese, given the width it needs, and drawn to its end.
        guard let save = labels.first(where: { $0.text == "名前を付けて保存" }) else {
            return XCTFail("no Japanese Save As label: \(labels.map(\.text))")
        }
        XCTAssertGreaterThanOrEqual(save.rect.w, save.needed, "the label is not clipped")
        for l in labels where ["開く", "書き出し", "全消去", "ペン", "蛍光ペン", "消しゴム", "範囲消しゴム"].contains(l.text) {
            XCTAssertGreaterThanOrEqual(l.rect.w, l.needed, "\(l.text) is not clipped")
        }
        let shot = try screenshot()
        let r = save.rect
        func ink(_ xs: Range<Int>) -> Int {
            var n = 0
            for y in r.y..<(r.y + r.h + 4) { for x in xs where shot.brightness(x, y) < 120 { n += 1 } }
            return n
        }
        let quarter = r.w / 4
        XCTAssertGreaterThan(ink(r.x..<(r.x + r.w + 4)), 60, "glyphs are drawn")
        XCTAssertGreaterThan(ink((r.x + 3 * quarter)..<(r.x + r.w + 4)), 10, "the last glyphs are drawn too")
    }

    /// A drawing dragged from another application (a GTK drag source offering its URI, as a file manager does)
    /// and dropped on the window opens in it: a real XDND drag between two X clients, driven by xdotool.
    func testDroppedDrawingOpens() throws {
        try requireDragSource()
        // A horizontal line across the middle of an 800×600 page.
        let log = home.appendingPathComponent("line.jsonl"), dropped = home.appendingPathComponent("dropped.oekaki")
        try """
        {"type":"canvas","width":800,"height":600}
        {"type":"tool","tool":"pen","color":"#000000","width":12}
        {"type":"touch","phase":"began","id":1,"x":100,"y":300}
        {"type":"touch","phase":"moved","id":1,"x":400,"y":300}
        {"type":"touch","phase":"ended","id":1,"x":700,"y":300}

        """.write(to: log, atomically: true, encoding: .utf8)
        let replay = try run(AppWindowTests.oekakiBinary().path, ["replay", log.path, "-o", dropped.path])
        XCTAssertEqual(replay.status, 0, replay.output)

        try launch(home.appendingPathComponent("first.oekaki").path)
        // The page's top is at y = 94 on the screen: the line runs along y ≈ 394, 600 px long, across the middle.
        // Mapped is not drawn: until its first frame the window is dark, which would read as ink.
        let first = try waitFor(seconds: Self.firstFrameSeconds) { $0.isPaper(590, 300) && $0.isPaper(590, 394) }
        XCTAssertTrue(first.isPaper(590, 300), "the first drawing is shown")
        XCTAssertFalse(first.hasInk(near: 590, 394), "the first drawing is empty")

        let source = try startDragSource(offering: dropped.path)
        apps.append(source)
        XCTAssertTrue(waitForWindow(named: "^drag source$", seconds: 10), "the drag source's window is up")
        // Without a window manager both windows map at the corner: move the source clear of the app.
        xdotool(["search", "--onlyvisible", "--name", "^drag source$", "windowmove", "%1", "1400", "900"])
        usleep(500_000)

        // Slowly: each motion is a message to the app and its answer (XDND), and the drop waits for the last.
        xdotool(["mousemove", "1520", "980"])
        usleep(100_000)
        xdotool(["mousedown", "1"])
        for k in 1...24 {
            xdotool(["mousemove", "\(1520 - 920 * k / 24)", "\(980 - 530 * k / 24)"])
            usleep(30_000)
        }
        usleep(300_000)
        xdotool(["mouseup", "1"])
        XCTAssertTrue(waitForWindow(named: "dropped.oekaki — Oekaki", seconds: 10), "the dropped drawing opens in the window")
        // Paper above the line and the line itself in one screenshot (a window not yet drawn is dark everywhere).
        let shot = try waitFor(seconds: Self.firstFrameSeconds) { $0.isPaper(590, 300) && $0.hasInk(near: 590, 394) }
        XCTAssertTrue(shot.hasInk(near: 590, 394), "its line is drawn")
        // The fixed page opens centred: its left edge is where the paper ends, leftwards from the middle.
        XCTAssertTrue(shot.isPaper(590, 300), "the page is on screen")
        var left = 590
        while left > 0, shot.isPaper(left - 1, 300) { left -= 1 }
        XCTAssertTrue(shot.hasInk(near: left + 150, 394) && shot.hasInk(near: left + 650, 394), "the whole line")
        XCTAssertFalse(shot.hasInk(near: left + 400, 300), "and nothing else")
    }

    // MARK: driving the app

    /// Starts the app on `file` (nil: a new untitled drawing) and waits for its window.
    private func launch(_ file: String?, environment extra: [String: String] = [:]) throws {
        var env = appEnvironment(["LANGUAGE": "en"])
        env.removeValue(forKey: "GDK_SCALE")
        env.merge(extra) { $1 }
        let p = try start(arguments: file.map { [$0] } ?? [], environment: env)
        apps.append(p)
        let name = file.map { NSRegularExpression.escapedPattern(for: ($0 as NSString).lastPathComponent) } ?? "Untitled"
        guard waitForWindow(named: name, seconds: 20) else {
            throw XCTSkip("no window titled \(name) within 20 s (exited: \(!p.isRunning)); its stderr ends:\n\(appLogTail())")
        }
        if !extra.keys.contains("OEKAKI_LAYOUT_REPORT") { usleep(500_000) }
    }

    func waitForWindow(named pattern: String, seconds: Double = 5) -> Bool {
        wait(seconds: seconds) {
            let r = try? self.run(AppWindowTests.tool("xdotool")!, ["search", "--onlyvisible", "--name", pattern])
            return r?.status == 0 && !(r?.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true)
        }
    }

    func wait(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if condition() { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }

    /// The control with this tooltip in the layout report (the window sits at the screen's corner), once it is there.
    private func control(_ tooltip: String) throws -> (x: Int, y: Int) {
        var found: (Int, Int)?
        _ = wait {
            let lines = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n")
            for line in lines where line.hasPrefix("control ") {
                let parts = line.split(separator: " ", maxSplits: 5)
                guard parts.count == 6, parts[5] == tooltip, let x = Double(parts[1]), let y = Double(parts[2]),
                      let w = Double(parts[3]), let h = Double(parts[4]) else { continue }
                found = (Int(x + w / 2), Int(y + h / 2))
                return true
            }
            return false
        }
        guard let found else { throw XCTSkip("no control '\(tooltip)' in the layout report") }
        return found
    }

    private func click(_ p: (x: Int, y: Int)) {
        xdotool(["mousemove", "\(p.x)", "\(p.y)", "click", "1"])
        usleep(300_000)
    }

    private func drag(from a: (Int, Int), to b: (Int, Int), steps: Int = 20) {
        xdotool(["mousemove", "\(a.0)", "\(a.1)"])
        usleep(50_000)
        xdotool(["mousedown", "1"])
        for k in 1...steps {
            xdotool(["mousemove", "\(a.0 + (b.0 - a.0) * k / steps)", "\(a.1 + (b.1 - a.1) * k / steps)"])
        }
        xdotool(["mouseup", "1"])
        usleep(500_000)
    }

    private func windowGeometry(_ name: String) throws -> (width: Double, height: Double) {
        let r = try run(AppWindowTests.tool("xdotool")!, ["search", "--onlyvisible", "--name", name, "getwindowgeometry", "%1"])
        guard let line = r.output.split(separator: "\n").first(where: { $0.contains("Geometry:") }),
              let dims = line.split(separator: " ").last?.split(separator: "x"), dims.count == 2,
              let w = Double(dims[0]), let h = Double(dims[1]) else {
            XCTFail("no window geometry in: \(r.output)")
            return (0, 0)
        }
        return (w, h)
    }

    @discardableResult
    func run(_ tool: String, _ args: [String], binary: Bool = false) throws -> (status: Int32, output: String, data: Data) {
        let r = try x.output(tool, args, stderr: !binary)
        return (r.status, binary ? "" : String(decoding: r.data, as: UTF8.self), r.data)
    }
}
