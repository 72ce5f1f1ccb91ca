import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Crash safety: a child process commits edits one transaction at a time and is SIGKILLed at random moments.
/// After every kill the file must open and hold exactly the edits the child had committed (it reports each
/// commit on stdout after `commit` returns; the edit in flight at the kill may or may not be there).
///
/// The child is this test binary itself, running `testChildWriterLoop` with `OEKAKI_KILL_WRITER` set.
final class KillWriterTests: TempDirTestCase {
    static let fileVar = "OEKAKI_KILL_WRITER"
    static let startVar = "OEKAKI_KILL_START"

    /// Edit number i (1-based) of the endless script both the child and the checker follow.
    static func step(_ i: Int, _ editor: Editor) -> Update {
        switch i % 6 {
        case 3: return editor.undo()
        case 4: return editor.redo()
        case 5:
            guard let first = editor.drawing.strokes.first else { return .none }
            return editor.perform(.remove([first]))
        default:
            var rng = SeededRandom(seed: UInt64(i))
            let start = Point(Double(i % 40) * 40, Double(i % 25) * 50)
            let tool: Tool = i % 7 == 0 ? .highlighter : .pen
            let s = Stroke(id: StrokeID(i), style: StrokeStyle(tool: tool, color: .black, width: 3),
                           points: PenInk.stroke(points: 60 + i % 50, start: start, rng: &rng))
            return editor.perform(.add([s]))
        }
    }

    /// The child: opens the file, continues the script after edit `start`, reports every commit. Skipped normally.
    func testChildWriterLoop() throws {
        guard let file = ProcessInfo.processInfo.environment[Self.fileVar] else { return }
        let start = Int(ProcessInfo.processInfo.environment[Self.startVar] ?? "0") ?? 0
        let doc = start == 0 ? try DocumentFile.create(path: file, drawing: Drawing()) : try DocumentFile.open(path: file)
        let editor = Editor(drawing: doc.drawing, history: doc.history)
        var i = start
        let fullDisk = ProcessInfo.processInfo.environment["OEKAKI_FULL_DISK"] != nil
        while true {
            i += 1
            let changes = Self.step(i, editor).changes
            do {
                try doc.commit(changes)
            } catch {
                guard fullDisk else { throw error }
                // The file holds everything before edit i; the document's own state must not have moved either.
                FileHandle.standardOutput.write(Data("failed \(i): \(error)\n".utf8))
                XCTAssertThrowsError(try doc.commit(changes), "retrying while the disk is still full fails again")
                // Space again (the soft limit lifted): the same open document takes the retried change.
                var lim = rlimit()
                getrlimit(Int32(RLIMIT_FSIZE.rawValue), &lim)
                lim.rlim_cur = lim.rlim_max
                setrlimit(Int32(RLIMIT_FSIZE.rawValue), &lim)
                try doc.commit(changes)
                FileHandle.standardOutput.write(Data("committed \(i)\n".utf8))
                doc.close()
                return
            }
            FileHandle.standardOutput.write(Data("committed \(i)\n".utf8))
        }
    }

    /// A full disk (here: a file-size limit) fails the commit in plain words, and the file keeps every edit before it.
    func testFullDiskLosesNothing() throws {
        let file = path("full.oekaki")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        // SIGXFSZ ignored, so the write fails with EFBIG as it would with ENOSPC instead of killing the process.
        child.arguments = ["-c", "trap '' XFSZ; ulimit -S -f 400; exec \"$0\" InkStoreTests.KillWriterTests/testChildWriterLoop", CommandLine.arguments[0]]
        var env = ProcessInfo.processInfo.environment
        env[Self.fileVar] = file
        env["OEKAKI_FULL_DISK"] = "1"
        child.environment = env
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let lines = text.split(separator: "\n")
        guard let failure = lines.first(where: { $0.hasPrefix("failed ") }) else {
            return XCTFail("the writer never hit the limit: \(text.suffix(300))")
        }
        XCTAssertTrue(failure.contains("could not be written to the disk") || failure.contains("the disk is full"), String(failure))
        let committed = lines.compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }.max() ?? 0
        XCTAssertGreaterThan(committed, 10)
        XCTAssertEqual(committed, Int(failure.dropFirst(7).prefix { $0.isNumber }), "the failed change went in on retry")
        let doc = try DocumentFile.open(path: file, readOnly: true)
        let expected = Editor()
        for i in 1...committed { _ = Self.step(i, expected) }
        XCTAssertTrue(Self.same(doc.drawing, doc.history, as: expected), "the file holds exactly edits 1…\(committed)")
        // And it opens for writing and takes new edits.
        let rw = try DocumentFile.open(path: file)
        try rw.commit(Self.step(committed + 1, expected).changes)
        rw.close()
    }

    /// Strokes equal within the codec's quantization.
    static func same(_ a: [Stroke], _ b: [Stroke]) -> Bool {
        guard a.map(\.id) == b.map(\.id) else { return false }
        for (s, t) in zip(a, b) {
            guard s.style == t.style, s.points.count == t.points.count else { return false }
            for (p, q) in zip(s.points, t.points) where abs(p.x - q.x) > 0.03 || abs(p.y - q.y) > 0.03 { return false }
        }
        return true
    }

    static func same(_ d: Drawing, _ h: History, as e: Editor) -> Bool {
        same(d.strokes, e.drawing.strokes) && h.undoStack.count == e.history.undoStack.count
            && h.redoStack.count == e.history.redoStack.count
            && zip(h.undoStack + h.redoStack, e.history.undoStack + e.history.redoStack).allSatisfy { $0.sameShape(as: $1) }
    }

    func testKilledWriterLeavesEveryCommittedEdit() throws {
        let file = path("killed.oekaki")
        let kills = Int(ProcessInfo.processInfo.environment["OEKAKI_KILLS"] ?? "") ?? 50
        var rng = SeededRandom(seed: 2024)
        let expected = Editor()   // the script replayed in this process
        var done = 0              // edits verified in the file
        var survived = 0
        for round in 0..<kills {
            let (child, reader) = try startTestChild("InkStoreTests.KillWriterTests/testChildWriterLoop",
                                                     environment: [Self.fileVar: file, Self.startVar: String(done)])
            // Kill between 30 and 400 ms after the child's first commit, i.e. somewhere in the middle of a write.
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while !text.contains("committed"), Date() < deadline {
                let d = reader.availableData
                if d.isEmpty { break }
                text += String(decoding: d, as: UTF8.self)
            }
            XCTAssertTrue(text.contains("committed"), "round \(round): the child never committed")
            usleep(UInt32(Int.random(in: 30_000...400_000, using: &rng)))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            let acknowledged = text.split(separator: "\n").compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }.max() ?? done
            XCTAssertGreaterThan(acknowledged, done, "round \(round): no progress")

            let doc = try DocumentFile.open(path: file, readOnly: true)
            // Replay the script to what was acknowledged; the file may hold one more edit (committed, not yet reported).
            while done < acknowledged { done += 1; _ = Self.step(done, expected) }
            if !Self.same(doc.drawing, doc.history, as: expected) {
                done += 1; _ = Self.step(done, expected)
                XCTAssertTrue(Self.same(doc.drawing, doc.history, as: expected),
                              "round \(round): the file is not the state after edit \(acknowledged) or \(acknowledged + 1)")
                if !Self.same(doc.drawing, doc.history, as: expected) { return }
            }
            survived += 1
        }
        print("kill -9: \(survived) of \(kills) kills survived, \(done) edits verified")
    }
}
