import Foundation
import InkCore
import InkSamples
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

    /// Milliseconds to read a `.xopp` into a drawing (gunzip, XML scan, numbers), as `oekaki export` does.
    static func loadXopp(_ path: String, runs: Int) throws -> Samples {
        var out = Samples()
        for _ in 0..<runs { out.add(try Clock.ms { try XoppImport.read(path: path) }.1) }
        return out
    }

    /// Milliseconds per `commit([.did(.add([stroke]))])` of a new 100-point stroke into a copy of `path` and
    /// into a new empty document, alternately (so disk and machine noise hit both alike). Each commit is
    /// durable (WAL, synchronous=FULL).
    /// Also times, interleaved with the commits, what one durable write costs on this disk at all: append 4 KiB
    /// to a file in the same folder and fsync it (the floor under any crash-safe commit).
    static func saveStroke(into path: String, folder: String, commits: Int, warmUp: Int = 2) throws -> (full: Samples, empty: Samples, fsync: Samples) {
        let fullPath = folder + "/save-1m.oekaki", emptyPath = folder + "/save-empty.oekaki"
        let syncPath = folder + "/fsync.probe"
        func clean() { for p in [fullPath, emptyPath, syncPath] { for s in ["", "-wal", "-shm"] { unlink(p + s) } } }
        clean()
        defer { clean() }
        try FileManager.default.copyItem(atPath: path, toPath: fullPath)
        let docs = [try DocumentFile.open(path: fullPath), try DocumentFile.create(path: emptyPath, drawing: Drawing())]
        defer { for d in docs { d.close() } }
        guard FileManager.default.createFile(atPath: syncPath, contents: nil), let probe = FileHandle(forWritingAtPath: syncPath) else {
            throw BenchFailure("cannot create \(syncPath)")
        }
        defer { try? probe.close() }
        let block = Data(repeating: 0x5A, count: 4096)
        var rng = SampleInk.Generator(seed: 99)
        var out = [Samples(), Samples()]
        var fsync = Samples()
        for i in 0..<(warmUp + commits) {
            for (k, doc) in docs.enumerated() {
                let s = SampleInk.stroke(id: doc.drawing.nextStrokeID, points: Workloads.pointsPerStroke,
                                         pageSize: doc.drawing.pageSize, rng: &rng)
                let ms = try Clock.ms { try doc.commit([.did(.add([s]))]) }.1
                if i >= warmUp { out[k].add(ms) }
            }
            let ms = try Clock.ms { try probe.write(contentsOf: block); try probe.synchronize() }.1
            if i >= warmUp { fsync.add(ms) }
        }
        return (out[0], out[1], fsync)
    }
}
