// libFuzzer harness: the .xopp importer (gzip, zip or plain XML → Drawing). The input is written to a temp
// file and read the way `oekaki info x.xopp` and the app's import read it.
import Foundation
import InkCore
import InkStore

private let file: String = {
    let dir = FileManager.default.temporaryDirectory.path + "/oekaki-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/input.xopp"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if fd < 0 { fatalError("cannot write \(file)") }
    var off = 0
    while off < size {
        let n = write(fd, data + off, size - off)
        if n <= 0 { fatalError("short write to \(file)") }
        off += n
    }
    close(fd)
    for page in [1, 2] {
        do {
            let r = try XoppImport.read(path: file, page: page)
            let strokes = r.drawing.strokes
            for (a, b) in zip(strokes, strokes.dropFirst()) where !(a.id < b.id) { fatalError("strokes out of id order") }
            for s in strokes where s.points.isEmpty || !s.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
                fatalError("stroke \(s.id) has no points or non-finite ones")
            }
            if !(r.drawing.pageSize.width.isFinite && r.drawing.pageSize.width > 0 && r.drawing.pageSize.height.isFinite && r.drawing.pageSize.height > 0) {
                fatalError("page size \(r.drawing.pageSize)")
            }
            _ = DrawingSummary(r.drawing).json()
        } catch is StoreError {
            // refused with a message: fine
        } catch {
            fatalError("unexpected error type: \(error)")
        }
    }
    return 0
}
