// Shared by every libFuzzer harness (Fuzz/fuzz.sh compiles it beside each one): writing the input to the
// temp file a loader reads, and the invariants any loaded or replayed drawing must keep.
import Foundation
import InkCore

/// A per-process temp path for the input, so parallel fuzzers never share a file.
func fuzzInputPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.path + "/oekaki-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/" + name
}

/// Replaces `path` with the input bytes exactly (a fuzzer failure here would be the harness's, not ours).
func writeFuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if fd < 0 { fatalError("cannot write \(path)") }
    var off = 0
    while off < size {
        let n = write(fd, data + off, size - off)
        if n <= 0 { fatalError("short write to \(path)") }
        off += n
    }
    close(fd)
}

/// Strokes are in drawing order (order, id) — area-eraser pieces keep their place, so not id order —
/// and every stroke has at least one point, all finite.
func checkStrokes(_ strokes: [Stroke]) {
    for (a, b) in zip(strokes, strokes.dropFirst()) where !a.drawsBefore(b) { fatalError("strokes out of drawing order") }
    for s in strokes where s.points.isEmpty || !s.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
        fatalError("stroke \(s.id) has no points or non-finite ones")
    }
}
