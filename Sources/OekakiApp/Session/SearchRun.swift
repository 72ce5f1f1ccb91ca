import Dispatch
import Foundation
import InkCore
import InkPDF
import InkRender

/// One search of a document (a snapshot: the user may draw on) off the GTK thread, page by page; hits are handed
/// back on the GTK thread in batches as they are found, so a 500-page PDF shows its first hits at once and the
/// window never waits. A new query cancels the run before it.
final class SearchRun: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    func cancel() { lock.lock(); cancelled = true; lock.unlock() }
    private var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }

    /// Starts searching `document` for `matcher` on `queue`, from page `start` to the end and then from the first
    /// page (the hits near where the user reads come first); `found` gets each batch of hits (in page order) and
    /// `done` the end, both on the GTK thread and only while not cancelled.
    init(_ document: Document, from start: Int = 0, matcher: TextMatcher, texts: PDFTexts, queue: DispatchQueue,
         found: @escaping ([SearchHit]) -> Void, done: @escaping () -> Void) {
        let handoff = MainLoopHandoff(value: (found, done))
        let n = document.pages.count, first = min(max(start, 0), max(n - 1, 0))
        queue.async { [self] in
            var batch: [SearchHit] = [], last = Date()
            for k in Array(first..<n) + Array(0..<first) {
                if isCancelled { return }
                batch += DocumentSearch.hits(in: document, page: k, matcher: matcher, textRects: TextPainter.rects) {
                    texts.text($0, in: document.files, matcher: matcher)
                }
                // Hits go out when there are some, at most every 50 ms, and before the search wraps to the first page
                // (so every batch is in page order).
                if !batch.isEmpty, Date().timeIntervalSince(last) > 0.05 || k == n - 1 {
                    let hits = batch
                    batch = []
                    last = Date()
                    onMainLoop { [self] in if !isCancelled { handoff.value.0(hits) } }
                }
            }
            let rest = batch
            onMainLoop { [self] in
                guard !isCancelled else { return }
                if !rest.isEmpty { handoff.value.0(rest) }
                handoff.value.1()
            }
        }
    }
}

/// The PDF pages' text, kept once read (the words of a 500-page PDF are a few MB; their boxes are read again only
/// for a page that has a hit).
final class PDFTexts: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [PDFPageRef: String] = [:]

    /// Page `ref`'s text with its boxes when `matcher` finds something in it; without when it does not (nothing
    /// to box).
    func text(_ ref: PDFPageRef, in files: [ContentHash: [UInt8]], matcher: TextMatcher) -> PDFPageText? {
        lock.lock()
        let known = texts[ref]
        lock.unlock()
        if let known, matcher.matches(in: known).isEmpty { return nil }
        guard let layout = PDFSources.shared.source(ref.file, in: files)?.textLayout(page: ref.index) else { return nil }
        lock.lock()
        texts[ref] = layout.text
        lock.unlock()
        return layout
    }
}
