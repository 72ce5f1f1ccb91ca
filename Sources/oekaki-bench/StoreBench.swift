import Foundation
import InkCore
import InkRender
import InkStore

/// The `.oekaki` document: opening, committing one stroke, and size on disk.
enum StoreBench {
    /// Milliseconds from `DocumentFile.open` (read-write, as the app opens a file) to an `Editor` ready for input.
    static func load(_ path: String, runs: Int) throws -> Samples {
        var out = Samples()
        for _ in 0..<runs {
            let (pair, ms) = try Clock.ms { () -> (DocumentFile, Editor) in
                let doc = try DocumentFile.open(path: path)
                return (doc, Editor(drawing: doc.drawing, history: doc.history))
            }
            pair.0.close()
            out.add(ms)
        }
        return out
    }

    /// Milliseconds per `commit([.did(.add([stroke]))])` of a new 100-point stroke into a copy of `path` and
    /// into a new empty document, alternately (so disk and machine noise hit both alike). Each commit is
    /// durable (WAL, synchronous=FULL).
    static func saveStroke(into path: String, folder: String, commits: Int, warmUp: Int = 2) throws -> (full: Samples, empty: Samples) {
        let fullPath = folder + "/save-1m.oekaki", emptyPath = folder + "/save-empty.oekaki"
        func clean() { for p in [fullPath, emptyPath] { for s in ["", "-wal", "-shm"] { unlink(p + s) } } }
        clean()
        defer { clean() }
        try FileManager.default.copyItem(atPath: path, toPath: fullPath)
        let docs = [try DocumentFile.open(path: fullPath), try DocumentFile.create(path: emptyPath, drawing: Drawing())]
        defer { for d in docs { d.close() } }
        var rng = SampleInk.Generator(seed: 99)
        var out = [Samples(), Samples()]
        for i in 0..<(warmUp + commits) {
            for (k, doc) in docs.enumerated() {
                let s = SampleInk.stroke(id: doc.drawing.nextStrokeID, points: Workloads.pointsPerStroke,
                                         pageSize: doc.drawing.pageSize, rng: &rng)
                let ms = try Clock.ms { try doc.commit([.did(.add([s]))]) }.1
                if i >= warmUp { out[k].add(ms) }
            }
        }
        return (out[0], out[1])
    }
}
