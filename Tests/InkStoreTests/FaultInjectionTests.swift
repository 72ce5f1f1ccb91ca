import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Faults a user meets: a full disk, a read-only folder, a second Oekaki on the same file, a kill while a file
/// is being replaced. In every case the drawing on disk stays valid and keeps everything it held, and the user
/// is told in plain words what happened. (Kills during incremental commits: KillWriterTests.)
final class FaultInjectionTests: TempDirTestCase {
    // MARK: full disk

    /// The file-size limit (RLIMIT_FSIZE) stands in for a full disk: writes past it fail with EFBIG like
    /// ENOSPC, and with SIGXFSZ ignored the process lives on. The same DocumentFile keeps working afterwards,
    /// which is what the app's autosave relies on: it keeps failed changes queued and commits them again.
    func testFullDiskFailsPlainlyKeepsTheFileAndTheRetryCommitsEverything() throws {
        let file = path("full.oekaki")
        let doc = try DocumentFile.create(path: file, drawing: Drawing())
        let editor = Editor(drawing: doc.drawing, history: doc.history)
        for i in 1...20 { try doc.commit(KillWriterTests.step(i, editor).changes) }

        let oldHandler = signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Self.fsize, &saved)
        defer { setrlimit(Self.fsize, &saved); signal(SIGXFSZ, oldHandler) }
        let biggest = [file, file + "-wal"].map { Self.size($0) }.max() ?? 0
        var limited = rlimit(rlim_cur: rlim_t(biggest + 24 * 1024), rlim_max: saved.rlim_max)
        XCTAssertEqual(setrlimit(Self.fsize, &limited), 0)

        var failedAt = 0
        var pending: [Change] = []
        var failure: Error?
        for i in 21...2000 {
            let changes = KillWriterTests.step(i, editor).changes
            do { try doc.commit(changes) } catch {
                failedAt = i; pending = changes; failure = error
                break
            }
        }
        XCTAssertGreaterThan(failedAt, 21, "some edits fit before the limit")
        let message = "\(failure.map { "\($0)" } ?? "no failure")"
        print("full disk: edit \(failedAt) refused: \(message)")
        guard let storeError = failure as? StoreError else { return XCTFail("not a StoreError: \(message)") }
        switch storeError {
        case .diskFull(let p), .writeFailed(let p): XCTAssertEqual(p, file)
        default: XCTFail("a full disk is reported as such, not as: \(message)")
        }
        XCTAssertTrue(message.contains(file) && message.contains("not saved"), message)

        // The document object and the file on disk both still hold exactly edits 1…failedAt-1.
        let before = Editor()
        for i in 1..<failedAt { _ = KillWriterTests.step(i, before) }
        XCTAssertTrue(KillWriterTests.same(doc.drawing, doc.history, as: before), "the failed change left no trace in memory")
        let onDisk = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertTrue(KillWriterTests.same(onDisk.drawing, onDisk.history, as: before), "the file is valid and holds every earlier edit")

        // Still full: retrying fails the same way and changes nothing; the user keeps drawing in memory.
        XCTAssertThrowsError(try doc.commit(pending))
        for i in (failedAt + 1)...(failedAt + 4) { pending += KillWriterTests.step(i, editor).changes }
        XCTAssertThrowsError(try doc.commit(pending))
        XCTAssertTrue(KillWriterTests.same(doc.drawing, doc.history, as: before))

        // Space again: the queued changes go in, in order, on the same open document.
        setrlimit(Self.fsize, &saved)
        try doc.commit(pending)
        for i in (failedAt + 5)...(failedAt + 10) { try doc.commit(KillWriterTests.step(i, editor).changes) }
        doc.close()
        let reopened = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertTrue(KillWriterTests.same(reopened.drawing, reopened.history, as: editor), "every edit, before and after the full disk")
    }

    /// `oekaki export` onto a full disk: one plain line, exit 1, and an existing document at OUT is untouched.
    func testFullDiskDuringExportKeepsTheOldFile() throws {
        let big = path("big.oekaki"), out = path("out.oekaki")
        try DocumentFile.create(path: big, drawing: PenInk.drawing(strokes: 800)).close()
        let small = PenInk.drawing(strokes: 3)
        try DocumentFile.create(path: out, drawing: small).close()
        let r = try Self.oekaki(["export", big, out], fileSizeLimitKiB: 64)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("oekaki: ") && r.stderr.contains(out), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("disk is full") || r.stderr.contains("could not be written"), r.stderr)
        let kept = try DocumentFile.open(path: out, readOnly: true)
        assertSameStrokes(kept.drawing.strokes, small.strokes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["big.oekaki", "out.oekaki"], "no half-written copy left behind")

        // An earlier export at the same path survives a failed one (written beside, then renamed over).
        let earlier = try Self.oekaki(["export", out, path("out.png")])
        XCTAssertEqual(earlier.status, 0, earlier.stderr)
        let earlierBytes = try Data(contentsOf: URL(fileURLWithPath: path("out.png")))
        let png = try Self.oekaki(["export", big, path("out.png")], fileSizeLimitKiB: 16)
        XCTAssertEqual(png.status, 1, png.stderr)
        XCTAssertTrue(png.stderr.contains(path("out.png")), png.stderr)
        XCTAssertEqual(png.stderr.split(separator: "\n").count, 1, png.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("out.png"))), earlierBytes, "the earlier PNG is intact")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir).contains { $0.hasSuffix(".writing") })
    }

    // MARK: read-only

    /// A read-only folder holding a drawing: reading it works; writing anything there fails with a message
    /// naming the path and saying to save elsewhere, and nothing in the folder changes.
    /// Root ignores permissions, so as root the CLI runs as `nobody` (setpriv).
    func testReadOnlyFolderReadsAndRefusesWritesByName() throws {
        let ro = path("ro")
        try FileManager.default.createDirectory(atPath: ro, withIntermediateDirectories: false)
        let kept = ro + "/kept.oekaki"
        let drawing = PenInk.drawing(strokes: 5)
        try DocumentFile.create(path: kept, drawing: drawing).close()
        let log = path("log.jsonl")
        try Data("""
            {"type":"touch","phase":"began","id":1,"x":10,"y":10}
            {"type":"touch","phase":"ended","id":1,"x":50,"y":60}

            """.utf8).write(to: URL(fileURLWithPath: log))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: kept)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: ro)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ro) }
        // `nobody` must reach the files through the test folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: log)
        let before = try FileManager.default.contentsOfDirectory(atPath: ro).sorted()

        let info = try Self.oekaki(["info", kept], unprivileged: true)
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("\"strokes\":5"), info.stdout)

        for (args, target) in [(["export", kept, ro + "/copy.oekaki"], ro + "/copy.oekaki"),
                               (["export", kept, ro + "/copy.png"], ro + "/copy.png"),
                               (["export", kept, ro + "/copy.xopp"], ro + "/copy.xopp"),
                               (["replay", log, "-o", ro + "/new.oekaki"], ro + "/new.oekaki"),
                               (["export", kept, kept], kept)] {
            let r = try Self.oekaki(args, unprivileged: true)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(target), "names the file: \(r.stderr)")
            let lower = r.stderr.lowercased()
            XCTAssertTrue(lower.contains("read-only") || lower.contains("permission"), "says why: \(r.stderr)")
            print("read-only: oekaki \(args[0]) → \(r.stderr.trimmingCharacters(in: .newlines))")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ro).sorted(), before, "the folder is unchanged")
        let doc = try DocumentFile.open(path: kept, readOnly: true)
        assertSameStrokes(doc.drawing.strokes, drawing.strokes)
    }

    /// The child for the fallback test: opens OEKAKI_OPEN_FILE for editing, adds one stroke, says where it went.
    func testChildOpenOrContinue() throws {
        let env = ProcessInfo.processInfo.environment
        guard let file = env["OEKAKI_OPEN_FILE"], let folder = env["OEKAKI_OPEN_FOLDER"] else { return }
        do {
            let (doc, fallback) = try DocumentFile.openOrContinueInCopy(path: file, folder: folder)
            let editor = Editor(drawing: doc.drawing, history: doc.history)
            try doc.commit(KillWriterTests.step(1_000_002, editor).changes)
            doc.close()
            print(fallback.map { "fallback \($0.copy)\t\($0.message)" } ?? "in place")
        } catch {
            print("error \(error)")
        }
    }

    /// Opening a drawing for editing when its file or folder is read-only: it opens (read-only), every change
    /// goes to a copy in a writable folder that the message names, and the original stays byte-for-byte as it was.
    func testReadOnlyDrawingContinuesInACopyThatIsNamed() throws {
        let ro = path("ro"), data = path("data")
        try FileManager.default.createDirectory(atPath: ro, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        let drawing = PenInk.drawing(strokes: 4)
        let locked = ro + "/locked.oekaki", ownFile = ro + "/mine.oekaki"
        try DocumentFile.create(path: locked, drawing: drawing).close()
        try DocumentFile.create(path: ownFile, drawing: drawing).close()
        let unprivileged = getuid() == 0
        // locked: read-only file in a read-only folder. mine: a writable file (the runner's own) in that folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked)
        if unprivileged { XCTAssertEqual(chown(ownFile, 65534, 65534), 0) }
        for p in [dir, data] { try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: p) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: ro)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ro) }
        let originals = try [locked, ownFile].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        for (file, copyName) in [(locked, "locked.oekaki"), (ownFile, "mine.oekaki")] {
            var env = ProcessInfo.processInfo.environment
            env["OEKAKI_OPEN_FILE"] = file
            env["OEKAKI_OPEN_FOLDER"] = data
            let r = try Self.run([CommandLine.arguments[0], "InkStoreTests.FaultInjectionTests/testChildOpenOrContinue"],
                                 environment: env, unprivileged: unprivileged)
            let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("fallback ") || $0.hasPrefix("error ") || $0 == "in place" }
            let copy = data + "/" + copyName
            XCTAssertEqual(line.map { String($0.split(separator: "\t").first ?? "") }, "fallback \(copy)", r.stdout + r.stderr)
            print("read-only open: \(line ?? "?")")
            XCTAssertTrue(line?.contains("\(file) is read-only, so your changes are saved in \(copy)") ?? false)
            let doc = try DocumentFile.open(path: copy, readOnly: true)
            XCTAssertEqual(doc.drawing.strokes.count, drawing.strokes.count + 1, "the copy has the drawing and the new stroke")
            assertSameStrokes(Array(doc.drawing.strokes.prefix(drawing.strokes.count)), drawing.strokes)
        }
        XCTAssertEqual(try [locked, ownFile].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, originals, "the originals are untouched")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ro).sorted(), ["locked.oekaki", "mine.oekaki"])

        // A writable drawing opens in place.
        let free = path("free.oekaki")
        try DocumentFile.create(path: free, drawing: drawing).close()
        let (doc, fallback) = try DocumentFile.openOrContinueInCopy(path: free, folder: data)
        XCTAssertNil(fallback)
        XCTAssertEqual(doc.path, free)
        doc.close()
    }

    // MARK: two processes

    /// While one process writes a document: a second writer (in-process or the CLI) is refused with a message
    /// saying the drawing is open elsewhere; readers always open it and see exactly a prefix of the edits,
    /// never going backwards; after the writer dies the file opens for writing again.
    func testSecondWriterRefusedReadersSeeCommittedPrefixes() throws {
        let file = path("shared.oekaki")
        let (child, out) = try startTestChild("InkStoreTests.KillWriterTests/testChildWriterLoop",
                                              environment: [KillWriterTests.fileVar: file, KillWriterTests.startVar: "0"])
        let acked = Acknowledged()
        out.readabilityHandler = { h in acked.add(h.availableData) }
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(20)
        while acked.value < 3, Date() < deadline { usleep(10_000) }
        XCTAssertGreaterThanOrEqual(acked.value, 3, "the writer started")

        XCTAssertThrowsError(try DocumentFile.open(path: file)) { e in
            XCTAssertEqual(e as? StoreError, .inUse(path: file))
            XCTAssertTrue("\(e)".contains("open in another Oekaki"), "\(e)")
        }
        XCTAssertThrowsError(try DocumentFile.create(path: file, drawing: Drawing())) { XCTAssertEqual($0 as? StoreError, .inUse(path: file)) }
        let other = path("other.oekaki")
        try DocumentFile.create(path: other, drawing: PenInk.drawing(strokes: 2)).close()
        let cli = try Self.oekaki(["export", other, file])
        XCTAssertEqual(cli.status, 1, cli.stderr)
        XCTAssertTrue(cli.stderr.contains("open in another Oekaki"), cli.stderr)

        let expected = Editor()
        var seen = 0, reads = 0
        // A few seconds of reading while the writer runs; the document grows fast, so this is bounded by time.
        let stop = Date().addingTimeInterval(3)
        while reads < 40, Date() < stop {
            let doc = try DocumentFile.open(path: file, readOnly: true)
            // Fast-forward on a cheap fingerprint, then compare everything once. The writer's acknowledgements
            // reach us through a pipe and can lag its commits on a busy machine: wait for them (bounded) rather
            // than give up one edit past the last one seen.
            let patience = Date().addingTimeInterval(5)
            while !Self.sameShape(doc, expected) {
                if seen < acked.value + 1 { seen += 1; _ = KillWriterTests.step(seen, expected); continue }
                guard Date() < patience else { break }
                usleep(50_000)
            }
            let limit = acked.value + 1
            XCTAssertTrue(KillWriterTests.same(doc.drawing, doc.history, as: expected),
                          "read \(reads): not the state after any edit from the last one seen up to \(limit)")
            if !KillWriterTests.same(doc.drawing, doc.history, as: expected) { break }
            reads += 1
            usleep(20_000)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        out.readabilityHandler = nil
        print("two processes: \(reads) reads during writing saw edits up to \(seen) of \(acked.value) acknowledged")
        XCTAssertGreaterThan(seen, 3, "the readers saw the writer progress")
        let after = try DocumentFile.open(path: file)   // the lock died with the writer
        after.close()
    }

    // MARK: killed while replacing

    /// The child for the replace test: writes document n+1, n+2, … over the same path, reporting each.
    func testChildReplaceLoop() throws {
        guard let file = ProcessInfo.processInfo.environment["OEKAKI_REPLACE_FILE"] else { return }
        var n = Int(ProcessInfo.processInfo.environment["OEKAKI_REPLACE_START"] ?? "0") ?? 0
        while true {
            n += 1
            try DocumentFile.create(path: file, drawing: Self.replacement(n)).close()
            FileHandle.standardOutput.write(Data("created \(n)\n".utf8))
        }
    }

    /// Document n: its page width says which one it is; a few hundred strokes so a write takes a while.
    static func replacement(_ n: Int) -> Drawing {
        var d = PenInk.drawing(strokes: 150 + n % 5 * 40)
        d.pageSize = Size(width: 1000 + Double(n), height: 800)
        return d
    }

    /// SIGKILL while a whole document is written over an existing one (Save As, export to .oekaki): the path
    /// always holds a complete document, the old one or the new one, never a mix or a 0-byte file.
    func testKilledWhileReplacingLeavesTheOldOrTheNewDocument() throws {
        let file = path("replaced.oekaki")
        try DocumentFile.create(path: file, drawing: Self.replacement(0)).close()
        var rng = SeededRandom(seed: 99)
        var current = 0
        let rounds = Int(ProcessInfo.processInfo.environment["OEKAKI_REPLACE_KILLS"] ?? "") ?? 25
        var survived = 0
        for round in 0..<rounds {
            let (child, out) = try startTestChild("InkStoreTests.FaultInjectionTests/testChildReplaceLoop",
                                                  environment: ["OEKAKI_REPLACE_FILE": file, "OEKAKI_REPLACE_START": String(current)])
            let acked = Acknowledged()
            out.readabilityHandler = { h in acked.add(h.availableData) }
            let deadline = Date().addingTimeInterval(20)
            while acked.value <= current, Date() < deadline { usleep(2_000) }
            usleep(UInt32(Int.random(in: 0...120_000, using: &rng)))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            out.readabilityHandler = nil
            let ack = acked.value
            XCTAssertGreaterThan(ack, current, "round \(round): the child never finished a document")

            let doc = try DocumentFile.open(path: file, readOnly: true)
            let n = Int(doc.drawing.pageSize.width) - 1000
            XCTAssertTrue(n == ack || n == ack + 1, "round \(round): holds document \(n), expected \(ack) or \(ack + 1)")
            assertSameStrokes(doc.drawing.strokes, Self.replacement(n).strokes)
            current = n
            survived += 1
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".creating") }
        print("replace: \(survived) of \(rounds) kills while replacing survived; \(leftovers.count) unfinished temp copies left beside the file")
        // Each create sweeps the copies of killed writers, so at most the last kill's copy is left.
        XCTAssertLessThanOrEqual(leftovers.count, 1, "\(leftovers)")
        try DocumentFile.create(path: file, drawing: Drawing()).close()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".creating") }, [])
    }

    // MARK: helpers

    /// Stroke count, stack depths and the newest stroke id: cheap, and enough to find the matching edit.
    static func sameShape(_ doc: DocumentFile, _ e: Editor) -> Bool {
        doc.drawing.strokes.count == e.drawing.strokes.count && doc.drawing.strokes.last?.id == e.drawing.strokes.last?.id
            && doc.history.undoStack.count == e.history.undoStack.count && doc.history.redoStack.count == e.history.redoStack.count
    }

    /// Commits acknowledged by a child on stdout ("committed N" / "created N"), collected off the main thread.
    final class Acknowledged: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        private var highest = 0
        func add(_ d: Data) {
            lock.lock(); defer { lock.unlock() }
            text += String(decoding: d, as: UTF8.self)
            while let nl = text.firstIndex(of: "\n") {
                let line = text[..<nl]
                if let n = line.split(separator: " ").last.flatMap({ Int($0) }) { highest = max(highest, n) }
                text = String(text[text.index(after: nl)...])
            }
        }
        var value: Int { lock.lock(); defer { lock.unlock() }; return highest }
    }

    static let fsize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
    }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// The `oekaki` executable built beside this test bundle.
    static func oekakiPath() throws -> String {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["OEKAKI_BIN"] { candidates.append(env) }
        var d = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 { candidates.append(d.appendingPathComponent("oekaki").path); d = d.deletingLastPathComponent() }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("the oekaki executable is not built (tried \(candidates)); run `swift build` first")
        }
        return found
    }

    /// As root, permission tests run the program as `nobody`; that needs setpriv and a path nobody can execute.
    static func requireUnprivileged(_ program: String) throws {
        guard getuid() == 0 else { return }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("running as root without /usr/bin/setpriv: cannot test permissions (root ignores them)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/test", "-x", program]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw XCTSkip("running as root and user nobody cannot execute \(program) (a folder on its path is private)")
        }
    }

    /// Runs a program, as `nobody` when asked (through setpriv), collecting its output.
    static func run(_ argv: [String], environment: [String: String], unprivileged: Bool) throws -> Run {
        if unprivileged { try requireUnprivileged(argv[0]) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: unprivileged ? "/usr/bin/setpriv" : argv[0])
        p.arguments = unprivileged ? ["--reuid=65534", "--regid=65534", "--clear-groups", "--"] + argv : Array(argv.dropFirst())
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let errData = Acknowledged.Buffer()
        let t = Thread { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        t.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !errData.done { usleep(1000) }
        return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// Runs `oekaki args…`, optionally under a file-size limit (SIGXFSZ ignored) and, when this process is
    /// root, as `nobody` so file permissions apply.
    static func oekaki(_ args: [String], fileSizeLimitKiB: Int? = nil, unprivileged: Bool = false) throws -> Run {
        let bin = try oekakiPath()
        var script = "trap '' XFSZ; "
        if let k = fileSizeLimitKiB { script += "ulimit -f \(k); " }
        script += "exec \"$@\""
        if unprivileged { try requireUnprivileged(bin) }
        let argv = (unprivileged && getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []) + [bin] + args
        return try run(["/bin/sh", "-c", script, "sh"] + argv, environment: ProcessInfo.processInfo.environment, unprivileged: false)
    }
}

extension FaultInjectionTests.Acknowledged {
    /// Bytes one reader thread collected; `done` once it hit end of file.
    final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var _data = Data()
        private var _done = false
        var data: Data {
            get { lock.lock(); defer { lock.unlock() }; return _data }
            set { lock.lock(); _data = newValue; _done = true; lock.unlock() }
        }
        var done: Bool { lock.lock(); defer { lock.unlock() }; return _done }
    }
}
