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

        // Finger 1 lifts at step 12; the others hold still for 3 s at step 16 (while the file is read), then
        // go on to step 24 and lift, finger 2 last.
        var middle: [[(x: Double, y: Double)]] = []
        try session.perform(interleaved(paths, upTo: 24, lift: [1: 12, 0: 24, 2: 25], hold: (after: 16, ms: 3000))) {
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

    // MARK: navigate mode

    /// Two fingers moving together pan the view: the ink on screen moves exactly as far as they did, and no
    /// stroke is added.
    func testTwoFingersPanAndTheInkMovesByTheSameAmount() throws {
        let file = try square()
        try launch(file, mode: "navigate")
        let before = try settledScreenshot()
        let b0 = try XCTUnwrap(inkBox(before), "the square is on screen")

        // Both fingers move in the same ticks, 6 px right and 4 px down at a time.
        let fingers = [(300, 640), (420, 640)]
        try session.perform(fingers.map { f in
            .touch([.move(f.0, f.1), .down] + (1...10).map { .move(f.0 + 6 * $0, f.1 + 4 * $0) } + [.up])
        })
        let after = try settledScreenshot()
        let b1 = try XCTUnwrap(inkBox(after), "the square is still on screen")
        XCTAssertEqual(b1.minX - b0.minX, 60, accuracy: 1, "the ink moved as far right as the fingers")
        XCTAssertEqual(b1.maxX - b0.maxX, 60, accuracy: 1)
        XCTAssertEqual(b1.minY - b0.minY, 40, accuracy: 1, "the ink moved as far down as the fingers")
        XCTAssertEqual(b1.maxY - b0.maxY, 40, accuracy: 1)
        let moved = after.differences(from: before, in: canvasArea, shiftedBy: (60, 40))
        XCTAssertLessThan(moved, 30, "the picture is the old one moved by (60, 40) (\(moved) pixels differ)")
        XCTAssertEqual(try strokes(file).count, 1, "panning adds no stroke")
    }

    /// Two fingers spreading from 200 to 250 px apart zoom in by 1.25 about their midpoint: the ink grows by
    /// that much, the point under the midpoint stays within 2 px, the zoom label shows what 125 % shows,
    /// and no stroke is added.
    func testPinchZoomsAboutTheMidpointAndTheZoomLabelGrows() throws {
        let file = try square()
        try launch(file, mode: "navigate")
        let before = try settledScreenshot()
        let b0 = try XCTUnwrap(inkBox(before), "the square is on screen")
        let mid = (x: Int(((b0.minX + b0.maxX) / 2).rounded()), y: Int(((b0.minY + b0.maxY) / 2).rounded()))
        let label100 = toolbar(before, above: b0)

        // The fingers move in turn, 2.5 px outwards each (whole pixels: 2 and 3 alternately).
        let outward = [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 25]
        var left: [BroadwaySession.Source.Action] = [.move(mid.x - 100, mid.y), .down, .pause, .pause]
        var right: [BroadwaySession.Source.Action] = [.pause, .pause, .move(mid.x + 100, mid.y), .down]
        for d in outward.dropFirst() {
            left += [.move(mid.x - 100 - d, mid.y), .pause]
            right += [.pause, .move(mid.x + 100 + d, mid.y)]
        }
        left += [.up, .pause]
        right += [.pause, .up]
        try session.perform([.touch(left), .touch(right)])

        let after = try settledScreenshot()
        let b1 = try XCTUnwrap(inkBox(after), "the square is still on screen")
        XCTAssertEqual((b1.minX + b1.maxX) / 2, Double(mid.x), accuracy: 2, "the point under the midpoint stays put")
        XCTAssertEqual((b1.minY + b1.maxY) / 2, Double(mid.y), accuracy: 2, "the point under the midpoint stays put")
        XCTAssertEqual((b1.maxX - b1.minX) / (b0.maxX - b0.minX), 1.25, accuracy: 0.03, "the ink grew by the fingers' spread")
        XCTAssertEqual((b1.maxY - b1.minY) / (b0.maxY - b0.minY), 1.25, accuracy: 0.03)

        // The label: not what it showed at 100 %, and the same as after Ctrl+minus (×0.8: back to 100 %) and
        // Ctrl+plus (×1.25) — what the label shows at 125 %. (A button border may shade a pixel differently.)
        let labelPinched = toolbar(after, above: b0)
        let changed = changedColumns(label100, labelPinched)
        XCTAssertGreaterThan(differing(label100, labelPinched, changed), 40, "the zoom label changed")
        try session.keys("ctrl+minus")
        let back = try settledScreenshot()
        XCTAssertLessThan(differing(toolbar(back, above: b0), label100, changed), 5, "Ctrl+minus from the pinch shows 100 %")
        try session.keys("ctrl+plus")
        let keyed = try settledScreenshot()
        XCTAssertLessThan(differing(toolbar(keyed, above: b0), labelPinched, changed), 5, "the pinch's label reads as 125 % does")
        XCTAssertEqual(try strokes(file).count, 1, "pinching adds no stroke")
    }

    /// In navigate mode a single finger neither draws nor moves the view, while the mouse still draws.
    func testOneFingerDoesNothingInNavigateModeWhileTheMouseDraws() throws {
        let file = try square()
        try launch(file, mode: "navigate")
        let before = try settledScreenshot()
        let path = zigzag(from: (260, 600), steps: 20)
        try session.perform([.touch([.move(path[0].0, path[0].1), .down] + path.dropFirst().map { .move($0.0, $0.1) } + [.up])])
        let after = try settledScreenshot()
        XCTAssertEqual(after.differences(from: before, in: canvasArea, shiftedBy: (0, 0)), 0, "one finger changes nothing on screen")
        XCTAssertEqual(try strokes(file).count, 1, "one finger adds no stroke")

        let mouse = zigzag(from: (260, 680), steps: 20)
        try session.perform([.mouse([.move(mouse[0].0, mouse[0].1), .down] + mouse.dropFirst().map { .move($0.0, $0.1) } + [.up])])
        let drawn = try waitForStrokes(file, count: 2)
        XCTAssertEqual(drawn.count, 2, "the mouse draws")
        guard drawn.count == 2 else { return }
        let origin = (x: Double(mouse[0].0) - drawn[1][0].x, y: Double(mouse[0].1) - drawn[1][0].y)
        assertFollows(drawn[1], mouse[...], origin: origin, "the mouse stroke")
        XCTAssertTrue(try settledScreenshot().hasInk(near: mouse[10].0, mouse[10].1), "the mouse stroke is on screen")
    }

    // MARK: mixed

    /// A finger and the mouse drawing at the same time, their events interleaved, give two strokes, each on
    /// its own path.
    func testATouchAndAMouseDrawingAtOnceGiveTwoStrokes() throws {
        let file = home.appendingPathComponent("mixed.oekaki").path
        try launch(file, mode: "draw")
        let finger = zigzag(from: (260, 330), steps: 20), mouse = zigzag(from: (260, 520), steps: 20)
        var touchActions: [BroadwaySession.Source.Action] = [.move(finger[0].0, finger[0].1), .down, .pause, .pause]
        var mouseActions: [BroadwaySession.Source.Action] = [.pause, .pause, .move(mouse[0].0, mouse[0].1), .down]
        for s in 1...20 {
            touchActions += [.move(finger[s].0, finger[s].1), .pause]
            mouseActions += [.pause, .move(mouse[s].0, mouse[s].1)]
        }
        touchActions += [.up, .pause]
        mouseActions += [.pause, .up]
        // Broadway sends touches on the mouse's own device and makes the first touch the one that "emulates
        // the pointer"; GTK 4.8 then ties that touch to the mouse's implicit grab and drops the mouse's button
        // release when the touch lifts (with a Gdk-CRITICAL inside GTK). A touchscreen is a device of its own,
        // so the harness keeps a first touch down on the page outside the window: the finger is a plain touch.
        let outside: [BroadwaySession.Source.Action] = [.move(1200, 960), .down]
        try session.perform([.touch(outside + touchActions.map { _ in .pause } + [.up]),
                             .touch([.pause, .pause] + touchActions), .mouse([.pause, .pause] + mouseActions)])
        let drawn = try waitForStrokes(file, count: 2)
        XCTAssertEqual(drawn.count, 2, "one stroke for the finger, one for the mouse; got \(describe(drawn))")
        guard drawn.count == 2 else { return }
        let origin = (x: Double(finger[0].0) - drawn[0][0].x, y: Double(finger[0].1) - drawn[0][0].y)
        assertFollows(drawn[0], finger[...], origin: origin, "the finger's stroke")
        assertFollows(drawn[1], mouse[...], origin: origin, "the mouse's stroke")
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

    /// First and last point and size of each stroke, for failure messages.
    private func describe(_ strokes: [[(x: Double, y: Double)]]) -> String {
        strokes.map { s in s.first.map { "(\($0.x), \($0.y))…(\(s.last!.x), \(s.last!.y)) \(s.count) points" } ?? "empty" }
            .joined(separator: "; ")
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

    // MARK: helpers: screen

    /// Inside the canvas of the default window, away from its edges and the toolbar.
    private var canvasArea: (x: Range<Int>, y: Range<Int>) { (40..<1000, 140..<760) }

    /// The bounds of the dark ink in the canvas.
    private func inkBox(_ shot: Screenshot) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        for y in canvasArea.y { for x in canvasArea.x where shot.brightness(x, y) < 100 {
            let (fx, fy) = (Double(x), Double(y))
            box = box.map { (min($0.minX, fx), min($0.minY, fy), max($0.maxX, fx), max($0.maxY, fy)) } ?? (fx, fy, fx, fy)
        } }
        return box
    }

    /// Brightness of the toolbar's row (where the zoom label is): 36 rows ending 4 px above the canvas,
    /// whose top is found from the square's first position (page (390, 270) is its top left).
    private func toolbar(_ shot: Screenshot, above square: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> [[Int]] {
        let canvasTop = Int(square.minY) - 270 + 2
        return (canvasTop - 40..<canvasTop - 4).map { y in (0..<shot.width).map { shot.brightness($0, y) } }
    }

    /// Columns where two toolbar strips differ.
    private func changedColumns(_ a: [[Int]], _ b: [[Int]]) -> Range<Int> {
        let cols = (0..<(a.first?.count ?? 0)).filter { x in a.indices.contains { a[$0][x] != b[$0][x] } }
        guard let lo = cols.first, let hi = cols.last else { return 0..<0 }
        return lo..<hi + 1
    }

    /// Pixels in columns `cols` of two toolbar strips whose brightness differs by more than 40.
    private func differing(_ a: [[Int]], _ b: [[Int]], _ cols: Range<Int>) -> Int {
        zip(a, b).reduce(0) { n, rows in n + cols.filter { abs(rows.0[$0] - rows.1[$0]) > 40 }.count }
    }

    // MARK: helpers: the app and its file

    /// A document holding one square outline, page (390, 270)–(510, 390), 4 units wide, black: ink to watch
    /// the view move by. Made by `oekaki replay`, the store's own path.
    private func square() throws -> String {
        var lines = [##"{"type":"tool","tool":"pen","color":"#000000","width":4}"##,
                     #"{"type":"touch","phase":"began","id":1,"x":392,"y":272,"device":"mouse"}"#]
        let corners = [(508, 272), (508, 388), (392, 388), (392, 272)]
        for (i, c) in corners.enumerated() {
            let phase = i == corners.count - 1 ? "ended" : "moved"
            lines.append(#"{"type":"touch","phase":"\#(phase)","id":1,"x":\#(c.0),"y":\#(c.1),"device":"mouse"}"#)
        }
        let log = home.appendingPathComponent("square.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("square.oekaki").path
        let r = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        guard r.status == 0 else { throw BroadwaySession.Failure("oekaki replay failed: \(r.output)") }
        return file
    }

    // MARK: helpers: the app and its file

    /// Starts `oekaki FILE` on the Broadway display with fingers set to `mode` ("draw" or "navigate"), as the
    /// preferences popover saves it, and waits until its window is on the page and still.
    private func launch(_ file: String, mode: String) throws {
        let settings = home.appendingPathComponent("config/oekaki")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try "touch-mode=\(mode)\n".write(to: settings.appendingPathComponent("settings"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = try AppWindowTests.oekakiBinary(instrumented: true)
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
