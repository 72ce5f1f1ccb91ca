import InkCore

/// A PDF as a new document to write on: one fixed page per PDF page, of that page's size, with that page as its
/// background; the PDF's bytes are embedded in the document (`Document.files`), so it never depends on where the
/// PDF was.
public enum PDFImport {
    public static func document(bytes: [UInt8]) throws -> Document {
        let source = try PDFSource(bytes: bytes)
        let sizes = try source.pageSizes()
        let hash = ContentHash(of: bytes)
        var doc = Document(pages: sizes.enumerated().map { k, size in
            Page(id: PageID(k + 1), format: .fixed(size, Background(pdf: PDFPageRef(file: hash, index: k))))
        })
        doc.files[hash] = bytes
        return doc
    }
}
