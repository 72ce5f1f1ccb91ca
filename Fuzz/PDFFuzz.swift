// libFuzzer harness: PDF input (what `oekaki info x.pdf` and the app's PDF import read first): poppler opens
// the bytes, every page's size is checked, the first page's text read. Anything refused must be a PDFError.
import Foundation
import InkCore
import InkPDF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let pdf = try PDFSource(bytes: bytes)
        if pdf.pageCount < 1 || pdf.pageCount > PDFSource.maxPages { fatalError("page count \(pdf.pageCount)") }
        for s in try pdf.pageSizes() where !(s.width.isFinite && s.height.isFinite && s.width >= 1 && s.height >= 1) {
            fatalError("page size \(s)")
        }
        _ = pdf.text(page: 0)
    } catch is PDFError {
        // refused with a message: fine
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
