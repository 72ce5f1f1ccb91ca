// libFuzzer harness: the .oekaki document loader, read-only (SQLite file → validated Drawing + History),
// on the same path `oekaki info` and the app's open take. The input is written to a temp file per run.
import Foundation
import InkCore
import InkStore

private let file: String = {
    let dir = FileManager.default.temporaryDirectory.path + "/oekaki-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/input.oekaki"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    unlink(file + "-wal"); unlink(file + "-shm")
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if fd < 0 { fatalError("cannot write \(file)") }
    var off = 0
    while off < size {
        let n = write(fd, data + off, size - off)
        if n <= 0 { fatalError("short write to \(file)") }
        off += n
    }
    close(fd)
    do {
        let doc = try DocumentLoader.load(path: file)
        let strokes = doc.drawing.strokes
        for (a, b) in zip(strokes, strokes.dropFirst()) where !(a.id < b.id) { fatalError("strokes out of id order") }
        for s in strokes where s.points.isEmpty || !s.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
            fatalError("stroke \(s.id) has no points or non-finite ones")
        }
        // The history must replay onto the drawing: undo all then redo all gives the same strokes back.
        let editor = Editor(drawing: doc.drawing, history: doc.history)
        while editor.history.canUndo { _ = editor.undo() }
        while editor.history.canRedo { _ = editor.redo() }
        _ = DrawingSummary(editor.drawing).json()
    } catch is StoreError {
        // refused with a message: fine
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
