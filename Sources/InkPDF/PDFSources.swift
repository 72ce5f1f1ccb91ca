import Foundation
import InkCore

/// The PDFs documents embed, opened once per content: every page background naming a file shares one
/// `PDFSource`. A file that does not open is remembered as such (a damaged embedded PDF is not re-parsed on
/// every frame); the most recently used `capacity` files stay open.
public final class PDFSources: @unchecked Sendable {
    public static let shared = PDFSources()
    public static let capacity = 8

    private let lock = NSLock()
    private var open: [ContentHash: (source: PDFSource?, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    public init() {}

    /// The open PDF named `hash`, opened from `files` the first time; nil when it is not there or not a PDF.
    public func source(_ hash: ContentHash, in files: [ContentHash: [UInt8]]) -> PDFSource? {
        lock.lock(); defer { lock.unlock() }
        clock += 1
        if let e = open[hash] { open[hash]!.lastUse = clock; return e.source }
        // Empty: a PDF a shared board named that has not arrived; not remembered as unreadable.
        guard let bytes = files[hash], !bytes.isEmpty else { return nil }
        let s = try? PDFSource(bytes: bytes)
        open[hash] = (s, clock)
        if open.count > Self.capacity, let oldest = open.min(by: { $0.value.lastUse < $1.value.lastUse })?.key { open[oldest] = nil }
        return s
    }
}
