// libFuzzer harness: the .xopp importer (gzip, zip or plain XML → Drawing). The input is written to a temp
// file and read the way `oekaki info x.xopp` and the app's import read it.
import Foundation
import InkCore
import InkStore

private let file = fuzzInputPath("input.xopp")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeFuzzInput(data, size, to: file)
    for page in [1, 2] {
        do {
            let r = try XoppImport.read(path: file, page: page)
            let strokes = r.drawing.strokes
            checkStrokes(strokes)
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
