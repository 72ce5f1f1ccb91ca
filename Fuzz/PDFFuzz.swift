// libFuzzer harness: PDF input, imported as `oekaki info x.pdf` and the app's Open… import it (`PDFImport`):
// poppler opens the bytes, every page gets the PDF page's size and a background naming it, the first page's
// text is read. Anything refused must be a PDFError.
import Foundation
import InkCore
import InkPDF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let pdf = try PDFSource(bytes: bytes)
        if pdf.pageCount < 1 || pdf.pageCount > PDFSource.maxPages { fatalError("page count \(pdf.pageCount)") }
        _ = pdf.text(page: 0)
        let doc = try PDFImport.document(bytes: bytes)
        if doc.pages.count != pdf.pageCount || doc.files.count != 1 { fatalError("\(doc.pages.count) pages, \(doc.files.count) files") }
        for (k, p) in doc.pages.enumerated() {
            guard let s = p.size, s.width.isFinite, s.height.isFinite, s.width >= 1, s.height >= 1 else { fatalError("page size \(String(describing: p.size))") }
            if p.background.pdf?.index != k { fatalError("page \(k) shows \(String(describing: p.background.pdf))") }
        }
    } catch is PDFError {
        // refused with a message: fine
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
