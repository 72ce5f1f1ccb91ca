import Foundation
import InkCore
import InkSamples
import InkRender
import InkStore

/// The generated drawings and the files the measurements and the peers read, in one temporary folder.
/// Seeds are fixed, so every run (and every machine) measures the same ink.
final class Workloads {
    static let pointsPerStroke = 100
    /// Seeds of the 1,000-, 10,000- and 100,000-stroke drawings, and of the pen input replayed on top.
    static let seeds: (small: UInt64, million: UInt64, large: UInt64, pen: UInt64) = (1_000, 10_000, 100_000, 7)

    let folder: String
    /// 1,000 strokes (100,000 points).
    let small: Drawing
    /// 10,000 strokes: the 1,000,000-point drawing every "_1m" figure uses.
    let million: Drawing
    /// 100,000 strokes (10,000,000 points), only for the input figures; made on first use.
    private(set) lazy var large: Drawing = SampleInk.drawing(strokes: 100_000, pointsPerStroke: Self.pointsPerStroke, seed: Self.seeds.large)

    /// The million-point drawing as a document drawn in the app: every stroke also an `.add` edit in the history.
    var oekaki: String { folder + "/ink-1m.oekaki" }
    /// The same drawing saved with an empty history (the smallest file the format gives).
    var oekakiNoHistory: String { folder + "/ink-1m-nohistory.oekaki" }
    var smallOekaki: String { folder + "/ink-100k-points.oekaki" }
    var xopp: String { folder + "/ink-1m.xopp" }
    var svg: String { folder + "/ink-1m.svg" }
    /// Home and XDG folders for the peers, so nothing they write lands in the user's config or the repo.
    var home: String { folder + "/home" }
    var log: String { folder + "/peers.log" }

    /// Milliseconds to write each file (reported as extras).
    private(set) var writeMs: [String: Double] = [:]

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        folder = "\(base)/oekaki-bench-\(getpid())"
        small = SampleInk.drawing(strokes: 1_000, pointsPerStroke: Self.pointsPerStroke, seed: Self.seeds.small)
        million = SampleInk.drawing(strokes: 10_000, pointsPerStroke: Self.pointsPerStroke, seed: Self.seeds.million)
        try? FileManager.default.removeItem(atPath: folder)
        for d in [folder, home, home + "/.config", home + "/.cache", home + "/.local/share", home + "/run"] {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
        chmod(home + "/run", 0o700)
    }

    /// Writes the `.oekaki`, `.xopp` and `.svg` files of the million-point drawing (and the small document).
    func writeFiles() throws {
        writeMs["oekaki_create_ms_1m"] = try Clock.ms { try Self.createDocument(million, at: oekaki, withHistory: true) }.1
        _ = try Self.createDocument(million, at: oekakiNoHistory, withHistory: false)
        _ = try Self.createDocument(small, at: smallOekaki, withHistory: true)
        writeMs["xopp_write_ms_1m"] = try Clock.ms { try XoppExport.write(million, to: xopp) }.1
        writeMs["svg_write_ms_1m"] = try Clock.ms { try Exporter.write(million, to: svg, format: .svg) }.1
    }

    /// A checkpointed `.oekaki` (closing folds the WAL into the main file), so its size is the real one.
    static func createDocument(_ d: Drawing, at path: String, withHistory: Bool) throws {
        let history = withHistory ? History(undo: d.strokes.map { Edit.add([$0]) }) : History()
        try DocumentFile.create(path: path, drawing: d, history: history).close()
    }

    /// Bytes a document takes on disk: the main file plus any WAL left beside it.
    static func documentBytes(_ path: String) -> Int {
        fileSize(path) + fileSize(path + "-wal")
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
    }

    /// Pen strokes to replay as input: realistic wandering strokes with pressure, never drawn before.
    static func penStrokes(_ count: Int, seed: UInt64 = seeds.pen) -> [Stroke] {
        var rng = SampleInk.Generator(seed: seed)
        return (0..<count).map {
            SampleInk.stroke(id: StrokeID($0 + 1), points: pointsPerStroke, pageSize: Drawing.defaultPageSize, rng: &rng)
        }
    }

    /// Removes the folder, unless OEKAKI_BENCH_KEEP=1 asks to keep the files for a closer look.
    func removeAll() {
        if ProcessInfo.processInfo.environment["OEKAKI_BENCH_KEEP"] == "1" {
            FileHandle.standardError.write(Data("oekaki-bench: kept \(folder)\n".utf8))
            return
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
