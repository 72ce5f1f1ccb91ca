import Dispatch
import Foundation
import InkCore
import InkRender

/// Page previews for the sidebar, drawn by the thumbnail rasterizer (`Thumbnail`) on a background queue, only for
/// the rows in view: a request for a row scrolled away before its turn is dropped. Kept by page id within
/// `memoryBound` (least recently shown dropped first); a page that changed keeps showing its old preview until the
/// new one lands.
final class PagePreviews {
    static let memoryBound = 32 << 20

    private struct Entry { var image: ImageSurface; var size: Int; var lastUse: UInt64 }
    private var images: [PageID: Entry] = [:]
    private var stale: Set<PageID> = []
    private var bytes = 0
    private var clock: UInt64 = 0
    /// Requested, not yet rendered (newest last: rendered first); what the rows in view want now.
    private let queue = DispatchQueue(label: "oekaki.page-previews", qos: .utility)
    private let lock = NSLock()
    private var requests: [(page: Page, document: Document, size: Int)] = []
    private var wanted: Set<PageID> = []
    private var working = false
    /// A preview landed (on the GTK thread).
    var onReady: (() -> Void)?

    /// The preview of `page` at `size` pixels if there is one (possibly of an older state), requesting a render
    /// when there is none or it is stale.
    func image(of page: Page, in document: Document, size: Int) -> ImageSurface? {
        clock += 1
        let entry = images[page.id]
        if let e = entry, e.size == size { images[page.id]!.lastUse = clock }
        if entry == nil || entry!.size != size || stale.contains(page.id) { request(page, document, size) }
        return entry?.image
    }

    /// The rows now in view: requests for other pages are dropped when their turn comes.
    func setWanted(_ ids: Set<PageID>) {
        lock.lock(); wanted = ids; lock.unlock()
    }

    /// The page changed: its preview is drawn again when next shown.
    func invalidate(_ id: PageID) { if images[id] != nil { stale.insert(id) } }
    func invalidateAll() { stale.formUnion(images.keys) }

    var memoryUsed: Int { bytes }

    private func request(_ page: Page, _ document: Document, _ size: Int) {
        lock.lock()
        if !requests.contains(where: { $0.page.id == page.id && $0.size == size }) { requests.append((page, document, size)) }
        let start = !working
        working = true
        lock.unlock()
        if start { queue.async { [weak self] in self?.work() } }
    }

    /// Renders requests newest first until none is left; each landing preview goes to the GTK thread.
    private func work() {
        while true {
            lock.lock()
            guard let r = requests.popLast() else { working = false; lock.unlock(); return }
            let want = wanted.contains(r.page.id)
            lock.unlock()
            guard want, let image = try? Self.render(r.page, in: r.document, size: r.size) else { continue }
            let handoff = MainLoopHandoff(value: image)
            let id = r.page.id, size = r.size
            onMainLoop { [weak self] in self?.land(id, handoff.value, size: size) }
        }
    }

    static func render(_ page: Page, in document: Document, size: Int) throws -> ImageSurface {
        try Thumbnail.render(frame: page.frame, background: page.background.paper, backdrop: PDFBackdrop.of(page, in: document),
                             picture: page.size == nil ? nil : page.background.picture,
                             runs: LayeredExport.runs(of: page.shownStrokes, count: 1), size: size)
    }

    private func land(_ id: PageID, _ image: ImageSurface, size: Int) {
        clock += 1
        if let old = images[id] { bytes -= old.size * old.size * 4 }
        images[id] = Entry(image: image, size: size, lastUse: clock)
        bytes += size * size * 4
        stale.remove(id)
        while bytes > Self.memoryBound, let oldest = images.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.size * oldest.value.size * 4
            images[oldest.key] = nil
        }
        onReady?()
    }
}
