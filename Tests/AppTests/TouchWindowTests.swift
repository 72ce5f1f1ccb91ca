import Foundation
import XCTest

/// The real window fed real GDK touch events: GTK's Broadway backend shown in headless Chromium, fingers
/// sent as WebDriver touch pointers (see `BroadwaySession`). Checked on the saved strokes (their points,
/// through `oekaki export … .xopp`) and on screenshots of the page.
final class TouchWindowTests: XCTestCase {
    nonisolated(unsafe) static var session: BroadwaySession?
    nonisolated(unsafe) static var unavailable: String?

    var app: Process?
    var home: URL!

    override class func setUp() {
        super.setUp()
        if let why = BroadwaySession.missing { unavailable = why; return }
        do { session = try BroadwaySession() } catch { unavailable = "\(error)" }
    }

    override class func tearDown() {
        session?.stop()
        session = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        guard Self.session != nil else {
            // With `make test` everything is installed, so a missing piece there is a failure, not a skip.
            if ProcessInfo.processInfo.environment["OEKAKI_REQUIRE_TOUCH"] != nil { XCTFail(Self.unavailable ?? "no session") }
            throw XCTSkip("touch window tests need Broadway and Chromium: \(Self.unavailable ?? "")")
        }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-touch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        stopApp()
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    private var session: BroadwaySession { Self.session! }

    // MARK: draw mode

    /// Three fingers, moving in turn (each event of one finger between events of the others), one of them
    /// lifted half way: every finger gets its own stroke, made only of its own points, and the lifted finger's
    /// stroke is finished (saved) while the other two are still drawing.
    func testThreeInterleavedFingersDrawThreeStrokesAndOneLiftingEndsOnlyItsOwn() throws {
        let file = home.appendingPathComponent("three.oekaki").path
        try launch(file, mode: "draw")
        let paths = (0..<3).map { zigzag(from: (260, 300 + 130 * $0), steps: 24) }

        // Finger 1 lifts at step 12; the others hold still for 2 s at step 16 (while the file is read), then
        // go on to step 24 and lift, finger 2 last.
        var middle: [[(x: Double, y: Double)]] = []
        try session.perform(interleaved(paths, upTo: 24, lift: [1: 12, 0: 24, 2: 25], hold: (after: 16, ms: 2000))) {
            middle = try waitForStrokes(file, count: 1)
        }
        XCTAssertEqual(middle.count, 1, "while two fingers still draw, only the lifted finger's stroke is saved")
        let done = try waitForStrokes(file, count: 3)
        XCTAssertEqual(done.count, 3, "three fingers, three strokes")
        guard done.count == 3, let first = middle.first else { return }

        // Page = screen − origin at 100 %: the first stroke's first point is where finger 1 went down.
        let origin = (x: Double(paths[1][0].0) - first[0].x, y: Double(paths[1][0].1) - first[0].y)
        assertFollows(first, paths[1].prefix(13), origin: origin, "the lifted finger's stroke")
        // Strokes keep the order their fingers went down in. Fingers 0 and 2 each drew one unbroken stroke to
        // their own end: finger 1 lifting ended nothing of theirs.
        assertFollows(done[0], paths[0].prefix(25), origin: origin, "finger 0")
        assertFollows(done[1], paths[1].prefix(13), origin: origin, "finger 1 (lifted half way)")
        assertFollows(done[2], paths[2].prefix(25), origin: origin, "finger 2")
        let shot = try settledScreenshot()
        for (f, path) in paths.enumerated() {
            XCTAssertTrue(shot.hasInk(near: path[6].0, path[6].1), "finger \(f)'s stroke is on screen")
        }
    }

    /// After three fingers drew, Ctrl+Z removes the stroke that finished last, from the screen and the file.
    func testUndoRemovesTheLastFinishedTouchStroke() throws {
        let file = home.appendingPathComponent("undo.oekaki").path
        try launch(file, mode: "draw")
        let paths = (0..<3).map { zigzag(from: (260, 300 + 130 * $0), steps: 16) }
        // Finger 0 lifts last.
        try session.perform(interleaved(paths, upTo: 16, lift: [1: 15, 2: 16, 0: 17]))
        XCTAssertEqual(try waitForStrokes(file, count: 3).count, 3)
        let before = try settledScreenshot()
        for path in paths { XCTAssertTrue(before.hasInk(near: path[8].0, path[8].1), "each finger's stroke shows") }

        try session.keys("ctrl+z")
        let after = try waitForScreen { !$0.hasInk(near: paths[0][8].0, paths[0][8].1) }
        XCTAssertFalse(after.hasInk(near: paths[0][8].0, paths[0][8].1), "Ctrl+Z removes the last finished stroke")
        XCTAssertTrue(after.hasInk(near: paths[1][8].0, paths[1][8].1), "the other strokes stay")
        XCTAssertTrue(after.hasInk(near: paths[2][8].0, paths[2][8].1), "the other strokes stay")

        let left = try waitForStrokes(file, count: 2)
        XCTAssertEqual(left.count, 2, "the file holds the two strokes left after undo")
        guard left.count == 2 else { return }
        let origin = (x: Double(paths[1][0].0) - left[0][0].x, y: Double(paths[1][0].1) - left[0][0].y)
        XCTAssertEqual(origin.x, Double(paths[2][0].0) - left[1][0].x, accuracy: 1, "both strokes agree on the canvas origin")
        XCTAssertEqual(origin.y, Double(paths[2][0].1) - left[1][0].y, accuracy: 1)
        assertFollows(left[0], paths[1].prefix(16), origin: origin, "finger 1")
        assertFollows(left[1], paths[2].prefix(17), origin: origin, "finger 2")
    }

    // MARK: helpers: input

    /// A finger's path: right in 16-px steps, alternately 10 px down and back, so each stroke has corners.
    private func zigzag(from start: (Int, Int), steps: Int) -> [(Int, Int)] {
        (0...steps).map { s in (start.0 + 16 * s, start.1 + (s % 2) * 10) }
    }

    /// Fingers moving in turn along `paths`, one event per tick: step s of finger 0, then of finger 1, … .
    /// All go down first; `lift[f] = s` lifts finger f once it reached step s (a value past `upTo` lifts it
    /// after the last step, in that order); `hold` stops every finger for a while after a step.
    private func interleaved(_ paths: [[(Int, Int)]], upTo: Int, lift: [Int: Int],
                             hold: (after: Int, ms: Int)? = nil) -> [BroadwaySession.Source] {
        var actions = [[BroadwaySession.Source.Action]](repeating: [], count: paths.count)
        func tick(_ f: Int?, _ a: BroadwaySession.Source.Action) {
            for g in paths.indices { actions[g].append(g == f || f == nil ? a : .pause) }
        }
        for f in paths.indices {
            tick(f, .move(paths[f][0].0, paths[f][0].1))
            tick(f, .down)
        }
        var up: Set<Int> = []
        for s in 1...upTo {
            for f in paths.indices where !up.contains(f) {
                tick(f, .move(paths[f][s].0, paths[f][s].1))
                if lift[f] == s { tick(f, .up); up.insert(f) }
            }
            if let hold, hold.after == s { tick(nil, .pause(hold.ms)) }
        }
        for (f, _) in lift.filter({ !up.contains($0.key) }).sorted(by: { $0.value < $1.value }) { tick(f, .up) }
        return actions.map { .touch($0) }
    }

    // MARK: helpers: checks

    /// Every point of `stroke` lies on the finger's path (moved by `origin`), and the stroke runs from its first
    /// to its last position: no point of another finger, nothing past the finger's lift.
    private func assertFollows(_ stroke: [(x: Double, y: Double)], _ path: ArraySlice<(Int, Int)>,
                               origin: (x: Double, y: Double), _ what: String, line: UInt = #line) {
        let screen = stroke.map { (x: $0.x + origin.x, y: $0.y + origin.y) }
        let worst = screen.map { p in distance(p, toPolyline: Array(path)) }.max() ?? .infinity
        XCTAssertLessThanOrEqual(worst, 1.5, "\(what): every point lies on its own finger's path (worst \(worst) px)", line: line)
        guard let a = screen.first, let b = screen.last, let p0 = path.first, let p1 = path.last else {
            return XCTFail("\(what): empty stroke", line: line)
        }
        XCTAssertEqual(a.x, Double(p0.0), accuracy: 1, "\(what) starts where the finger went down", line: line)
        XCTAssertEqual(a.y, Double(p0.1), accuracy: 1, line: line)
        XCTAssertEqual(b.x, Double(p1.0), accuracy: 1, "\(what) ends where the finger lifted", line: line)
        XCTAssertEqual(b.y, Double(p1.1), accuracy: 1, line: line)
        XCTAssertGreaterThanOrEqual(stroke.count, path.count / 2, "\(what) keeps the finger's samples", line: line)
    }

    private func distance(_ p: (x: Double, y: Double), toPolyline path: [(Int, Int)]) -> Double {
        guard path.count > 1 else {
            return path.first.map { hypot(p.x - Double($0.0), p.y - Double($0.1)) } ?? .infinity
        }
        var best = Double.infinity
        for (a, b) in zip(path, path.dropFirst()) {
            let ax = Double(a.0), ay = Double(a.1), dx = Double(b.0) - ax, dy = Double(b.1) - ay
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(max(((p.x - ax) * dx + (p.y - ay) * dy) / len2, 0), 1) : 0
            best = min(best, hypot(p.x - (ax + t * dx), p.y - (ay + t * dy)))
        }
        return best
    }

    // MARK: helpers: the app and its file

    /// Starts `oekaki FILE` on the Broadway display with fingers set to `mode` ("draw" or "navigate"), as the
    /// preferences popover saves it, and waits until its window is on the page and still.
    private func launch(_ file: String, mode: String) throws {
        let settings = home.appendingPathComponent("config/oekaki")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try "touch-mode=\(mode)\n".write(to: settings.appendingPathComponent("settings"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = try AppWindowTests.oekakiBinary()
        p.arguments = [file]
        p.environment = session.appEnvironment(home: home)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        app = p
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard p.isRunning else { throw XCTSkip("oekaki exited at start with status \(p.terminationStatus)") }
            // One surface per window; the page's images arrive with the first frame.
            if let n = try session.script("return Object.keys(surfaces).length") as? Int, n > 0 {
                _ = try settledScreenshot()
                return
            }
            usleep(100_000)
        }
        XCTFail("no window on the Broadway page within 20 s")
    }

    private func stopApp() {
        guard let app else { return }
        if app.isRunning { kill(app.processIdentifier, SIGKILL) }
        app.waitUntilExit()
        self.app = nil
        // The page drops the window's surface when the app is gone.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, let n = try? session.script("return Object.keys(surfaces).length") as? Int, n > 0 {
            usleep(50_000)
        }
    }

    /// The page once two screenshots 200 ms apart agree, within 10 s.
    private func settledScreenshot() throws -> Screenshot {
        var last = try session.screenshot()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            usleep(200_000)
            let next = try session.screenshot()
            if next.rgb == last.rgb { return next }
            last = next
        }
        return last
    }

    /// Polls the page until `condition` holds (up to 5 s) and returns the last screenshot.
    private func waitForScreen(_ condition: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = Date().addingTimeInterval(5)
        var shot = try session.screenshot()
        while !condition(shot), Date() < deadline {
            usleep(100_000)
            shot = try session.screenshot()
        }
        return shot
    }

    /// The file's strokes once it holds `count` of them (commits run on the autosave queue), or after 5 s.
    private func waitForStrokes(_ file: String, count: Int) throws -> [[(x: Double, y: Double)]] {
        let deadline = Date().addingTimeInterval(5)
        var last = try strokes(file)
        while last.count != count, Date() < deadline {
            usleep(100_000)
            last = try strokes(file)
        }
        return last
    }

    /// The strokes saved in `file`, in drawing order, as their points in page units: `oekaki export` to
    /// Xournal++ (gzipped XML, four decimals) read back here.
    private func strokes(_ file: String) throws -> [[(x: Double, y: Double)]] {
        let xopp = home.appendingPathComponent("read-\(UUID().uuidString).xopp").path
        defer { try? FileManager.default.removeItem(atPath: xopp) }
        let export = try run(AppWindowTests.oekakiBinary(), ["export", file, xopp])
        guard export.status == 0 else { throw BroadwaySession.Failure("oekaki export failed: \(export.output)") }
        let xml = try run(URL(fileURLWithPath: AppWindowTests.tool("gzip")!), ["-dc", xopp]).output
        var out: [[(x: Double, y: Double)]] = []
        for part in xml.components(separatedBy: "<stroke").dropFirst() {
            guard let open = part.firstIndex(of: ">"), let close = part.range(of: "</stroke>") else { continue }
            let numbers = part[part.index(after: open)..<close.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
            out.append(stride(from: 0, to: numbers.count - 1, by: 2).map { (x: numbers[$0], y: numbers[$0 + 1]) })
        }
        return out
    }

    private func run(_ tool: URL, _ args: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = tool
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
