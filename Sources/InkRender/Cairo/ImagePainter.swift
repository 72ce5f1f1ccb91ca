import Foundation
import InkCore

/// Draws embedded images. Each distinct content is decoded once and kept with halved levels made on demand
/// (a zoom pyramid), so a frame only scales a cached surface that is at most twice the pixels it covers:
/// nothing is decoded again per frame or per band, and zoomed-out pictures stay cheap and unaliased.
///
/// One cache for the process, keyed by content hash: the same picture in two documents (or pasted ten times)
/// is one surface. Documents hand over their files with `provide`; bytes are shared, not copied.
public final class ImagePainter: @unchecked Sendable {
    public static let shared = ImagePainter()

    /// Decoded pixels kept at most (least recently drawn levels go first); bytes of files are always kept.
    public var budgetBytes = 768 << 20

    private struct Level: Hashable { var hash: ContentHash; var level: Int }
    private struct Entry { var surface: ImageSurface; var lastUse: UInt64 }

    private let lock = NSLock()
    private var files: [ContentHash: [UInt8]] = [:]
    private var decoded: [Level: Entry] = [:]
    private var failures: [ContentHash: ImageError] = [:]
    private var widths: [ContentHash: Int] = [:]
    private var decodedBytes = 0
    private var clock: UInt64 = 0
    /// How many times bytes were decoded (tests check frames do not decode).
    public private(set) var decodeCount = 0

    public init() {}

    /// Makes images drawable by hash: a document's embedded files.
    public func provide(_ newFiles: [ContentHash: [UInt8]]) {
        lock.lock(); defer { lock.unlock() }
        // Empty: a file a shared board named whose bytes have not arrived (nothing to draw yet, and no failure
        // to remember); its bytes come later.
        for (h, b) in newFiles where !b.isEmpty && files[h] == nil { files[h] = b }
    }

    public func provide(hash: ContentHash, bytes: [UInt8]) { provide([hash: bytes]) }

    /// The bytes of a file given to `provide` (what SVG export embeds).
    public func bytes(_ hash: ContentHash) -> [UInt8]? {
        lock.lock(); defer { lock.unlock() }
        return files[hash]
    }

    /// Decodes the picture now (it stays cached for the frames to come) and says why it cannot be drawn, if it
    /// cannot: what inserting a picture checks before it becomes an item.
    public func prepare(_ hash: ContentHash) -> ImageError? {
        lock.lock(); defer { lock.unlock() }
        guard files[hash] != nil else { return .notAnImage }
        _ = locked_surface(hash, level: 0)
        return failures[hash]
    }

    /// Why the image with this hash cannot be drawn (nil while it can, or was never tried).
    public func failure(_ hash: ContentHash) -> ImageError? {
        lock.lock(); defer { lock.unlock() }
        return failures[hash]
    }

    /// The decoded image at pyramid `level` (0 = full size, each next level half the previous), nil when the
    /// bytes are unknown or do not decode. Thread-safe; the first caller decodes, the others wait for it.
    func surface(_ hash: ContentHash, level: Int) -> ImageSurface? {
        lock.lock(); defer { lock.unlock() }
        return locked_surface(hash, level: max(0, level))
    }

    private func locked_surface(_ hash: ContentHash, level: Int) -> ImageSurface? {
        clock += 1
        let key = Level(hash: hash, level: level)
        if let e = decoded[key] { decoded[key]!.lastUse = clock; return e.surface }
        guard failures[hash] == nil else { return nil }
        let made: ImageSurface
        if level == 0 {
            guard let bytes = files[hash] else { return nil }
            do { made = try ImageDecoder.decode(bytes); decodeCount += 1 } catch {
                failures[hash] = error as? ImageError ?? .undecodable("\(error)")
                return nil
            }
        } else {
            guard let above = locked_surface(hash, level: level - 1), let half = try? above.halved() else { return nil }
            made = half
        }
        decoded[key] = Entry(surface: made, lastUse: clock)
        decodedBytes += made.stride * made.height
        evict(keeping: key)
        return made
    }

    private func evict(keeping key: Level) {
        guard decodedBytes > budgetBytes else { return }
        for (k, e) in decoded.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where k != key {
            decoded[k] = nil
            decodedBytes -= e.surface.stride * e.surface.height
            if decodedBytes <= budgetBytes { break }
        }
    }

    /// The pyramid level to draw `pixels` image pixels across `deviceSize` device pixels: the smallest level
    /// still at least as large as what it covers (so downscaling by cairo's filter is under 2×).
    static func level(pixels: Int, deviceSize: Double) -> Int {
        guard deviceSize.isFinite, deviceSize > 0, pixels > 1 else { return 0 }
        var level = 0, size = Double(pixels)
        while size / 2 >= deviceSize, size >= 2 { size = (size / 2).rounded(.up); level += 1 }
        return level
    }

    /// Draws picture `hash` stretched over `rect` (a page's picture background, as Xournal++ draws one).
    func drawPicture(_ hash: ContentHash, over rect: Rect, in ctx: CairoContext, deviceScale: Double?) {
        draw(hash: hash, pixelWidth: pixelWidth(hash) ?? 1, rect: rect, transform: .identity, in: ctx, deviceScale: deviceScale)
    }

    /// A picture's width in pixels as shown, read once from its header.
    private func pixelWidth(_ hash: ContentHash) -> Int? {
        lock.lock(); defer { lock.unlock() }
        if let w = widths[hash] { return w }
        guard let bytes = files[hash], let header = try? ImageHeader(reading: bytes) else { return nil }
        widths[hash] = header.width
        return header.width
    }

    /// Draws an image item: its picture stretched over its drawn box, placed by its transform.
    func draw(_ box: ImageBox, of item: Stroke, in ctx: CairoContext, deviceScale: Double?) {
        guard let rect = item.drawnBox else { return }
        draw(hash: box.file, pixelWidth: box.pixelWidth, rect: rect, transform: item.transform, in: ctx, deviceScale: deviceScale)
    }

    /// Draws the image `hash` of `pixelWidth` pixels across stretched over `rect` (page units), placed by
    /// `transform`, in `ctx` whose current matrix maps page units to device pixels at `deviceScale` (nil: a
    /// vector surface, drawn at full resolution). Unknown or undecodable images draw a grey box with a cross,
    /// so a damaged picture is visible and selectable instead of silently gone.
    func draw(hash: ContentHash, pixelWidth: Int, rect: Rect, transform: AffineMap, in ctx: CairoContext, deviceScale: Double?) {
        guard rect.width > 0, rect.height > 0, transform.isFinite else { return }
        var level = 0
        if let deviceScale {
            let along = deviceScale * abs(transform.determinant).squareRoot() * rect.width
            level = ImagePainter.level(pixels: pixelWidth, deviceSize: along)
        }
        let topLeft = Point(x: rect.minX, y: rect.minY), bottomRight = Point(x: rect.maxX, y: rect.maxY)
        ctx.save()
        ctx.concat(transform)
        if let s = surface(hash, level: level) {
            ctx.drawImage(s, in: rect)
        } else {
            ctx.fillPolygon([topLeft, Point(x: rect.maxX, y: rect.minY), bottomRight, Point(x: rect.minX, y: rect.maxY)],
                            color: RGBA(r: 200, g: 200, b: 200, a: 255))
            let w = max(rect.width, rect.height) / 100
            for (a, b) in [(topLeft, bottomRight), (Point(x: rect.maxX, y: rect.minY), Point(x: rect.minX, y: rect.maxY))] {
                let d = Point(x: b.x - a.x, y: b.y - a.y), n = (d.x * d.x + d.y * d.y).squareRoot()
                let o = Point(x: -d.y / n * w, y: d.x / n * w)
                ctx.fillPolygon([Point(x: a.x + o.x, y: a.y + o.y), Point(x: b.x + o.x, y: b.y + o.y),
                                 Point(x: b.x - o.x, y: b.y - o.y), Point(x: a.x - o.x, y: a.y - o.y)], color: RGBA(r: 120, g: 120, b: 120, a: 255))
            }
        }
        ctx.restore()
    }
}
