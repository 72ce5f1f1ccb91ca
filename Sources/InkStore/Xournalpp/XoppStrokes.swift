import Foundation
import InkCore

/// A `.xopp` stroke's look and numbers: Xournal++'s fill, dash style and cap read from its attributes, and the
/// coordinates and widths of every stroke parsed after the XML pass, in parallel chunks, without a String per number.
extension XoppImport {
    /// Xournal++'s `fill` (-1 or absent: none; above 255 is opaque), `style` (a pattern Xournal++ does not know is
    /// solid, as there) and `capStyle` (round unless butt or square).
    static func readLook(_ attrs: XMLSubset.Attributes, into style: inout StrokeStyle) {
        if let f = attrs["fill"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), f >= 0 { style.fill = UInt8(min(f, 255)) }
        if let name = attrs["style"] { style.line = LineStyle(name: name) ?? .solid }
        if let cap = attrs["capStyle"].flatMap(CapStyle.init(rawValue:)) { style.cap = cap }
    }

    /// A stroke's element as read by the XML pass; its numbers are parsed afterwards, on all cores.
    struct PendingStroke {
        var style: StrokeStyle
        var isPen: Bool
        /// The `width` attribute: the stroke's width, then one per segment for pressure ink.
        var width: ArraySlice<UInt8>
        var text: ArraySlice<UInt8>
        var shape: ShapeKind?
        /// A text box (or image): its content and box, already final.
        var item: StrokeContent? = nil
        var frame: Rect? = nil
    }

    struct FinishedStroke {
        var style: StrokeStyle
        var width: Double = 0
        /// nil: an invalid width or no points (skipped and counted).
        var points: [InkPoint]?
        var dropped = 0, repaired = 0
        var shape: ShapeKind?
        /// Further pieces, where a foreign stroke had segments Xournal++ does not draw.
        var more: [[InkPoint]] = []
        var item: StrokeContent? = nil
        var frame: Rect? = nil
        /// The ink as strokes (the first piece, then `more`), numbered and placed on their page later: made in
        /// the parallel pass, since making a stroke walks its points (duplicates, pressure, bounds).
        var strokes: [Stroke] = []

        mutating func makeStrokes() {
            guard item == nil, let points else { return }
            var style = self.style
            style.width = width
            strokes = [Stroke(id: 0, style: style, points: points, shape: shape)] + more.map { Stroke(id: 0, style: style, points: $0) }
            // The strokes hold their own copies; nil would mean a skipped stroke.
            self.points = []
            more = []
        }
    }

    /// Parses pending strokes' coordinates and widths on the other cores while the XML pass goes on: the pass hands
    /// them over in document order, and a batch is queued as soon as it fills for workers (one per other core) to
    /// take; `finished()` queues the rest in one batch a core and takes batches too until none is left. Results keep
    /// document order, and the first failure in document order is the one thrown, as in a sequential read.
    /// (Parsing only after the pass left a core idle for the whole pass; waiting for the workers at the end, with
    /// the work on a global queue, left one idle for the rest.) `close()` lets the workers go if the pass fails.
    final class StrokeFinishing: @unchecked Sendable {
        static let batch = 128
        /// Our own file (set from the root element, before the first stroke).
        var exact = false
        private var waiting: [PendingStroke] = []
        private let condition = NSCondition()
        private var queue: [(index: Int, strokes: ArraySlice<PendingStroke>)] = []
        private var batches = 0, busy = 0, workers = 0
        private var closed = false
        private var results: [Int: [FinishedStroke]] = [:]
        private var failures: [Int: ParseFailure] = [:]

        func add(_ stroke: PendingStroke) {
            waiting.append(stroke)
            if waiting.count >= Self.batch { submit(waiting[...]); waiting = [] }
        }

        private func submit(_ strokes: ArraySlice<PendingStroke>) {
            guard !strokes.isEmpty else { return }
            condition.lock()
            queue.append((batches, strokes))
            batches += 1
            let start = workers == 0 && !closed
            if start { workers = max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }
            condition.signal()
            condition.unlock()
            if start { for _ in 0..<workers { DispatchQueue.global().async { self.work(untilEmpty: false) } } }
        }

        /// Takes batches until the queue is empty (`untilEmpty`) or closed and empty.
        private func work(untilEmpty: Bool) {
            condition.lock()
            while true {
                if queue.isEmpty {
                    if untilEmpty || closed { break }
                    condition.wait()
                    continue
                }
                let job = queue.removeFirst()
                busy += 1
                condition.unlock()
                let exact = exact
                var out: [FinishedStroke] = []
                out.reserveCapacity(job.strokes.count)
                var failure: ParseFailure?
                for stroke in job.strokes {
                    do {
                        var f = try XoppImport.finish(stroke, exact: exact)
                        f.makeStrokes()
                        out.append(f)
                    } catch let e as ParseFailure { failure = e; break } catch { failure = ParseFailure(message: "\(error)"); break }
                }
                condition.lock()
                results[job.index] = out; failures[job.index] = failure
                busy -= 1
                condition.broadcast()
            }
            condition.unlock()
        }

        /// No more strokes: idle workers leave (after the queue empties).
        func close() {
            condition.lock(); closed = true; condition.broadcast(); condition.unlock()
        }

        /// Every stroke handed over, finished, in order.
        func finished() throws -> [FinishedStroke] {
            let parts = min(ProcessInfo.processInfo.activeProcessorCount, waiting.count)
            for k in 0..<parts { submit(waiting[(waiting.count * k / parts)..<(waiting.count * (k + 1) / parts)]) }
            waiting = []
            close()
            work(untilEmpty: true)
            condition.lock(); defer { condition.unlock() }
            while busy > 0 { condition.wait() }
            for i in 0..<batches { if let f = failures[i] { throw f } }
            return (0..<batches).flatMap { results[$0] ?? [] }
        }
    }

    static func finish(_ p: PendingStroke, exact: Bool) throws -> FinishedStroke {
        var r = FinishedStroke(style: p.style, shape: p.shape)
        if let item = p.item, let frame = p.frame {
            r.item = item; r.frame = frame; r.points = []
            return r
        }
        let widths = numbers(p.width).values
        guard let nominal = widths.first, nominal.isFinite, nominal > 0, nominal <= Schema.maxStrokeWidth else { return r }
        var points = try coordinates(p.text, dropped: &r.dropped)
        guard !points.isEmpty else { return r }
        var segment = Array(widths.dropFirst())
        // Xournal++ uses per-segment widths only when there is one for every segment; otherwise the stroke has
        // its one width.
        if !exact, segment.count + 1 < points.count { segment = [] }
        if p.isPen, !segment.isEmpty, points.count > 1 {
            var valid = [Bool](repeating: true, count: segment.count)
            if exact {
                // Our own files: a damaged width takes the last good one.
                var last = nominal
                for k in 0..<segment.count {
                    if segment[k].isFinite, segment[k] > 0, segment[k] <= Schema.maxStrokeWidth { last = segment[k] } else { segment[k] = last; r.repaired += 1 }
                }
            } else {
                // Xournal++ draws nothing for a segment whose width is zero, negative or not a number: the stroke
                // is cut there (the pieces keep their widths).
                for k in 0..<segment.count where !(segment[k].isFinite && segment[k] > 0 && segment[k] <= Schema.maxStrokeWidth) {
                    valid[k] = false; r.repaired += 1
                }
            }
            var widest = 0.0
            for k in 0..<min(points.count - 1, segment.count) where valid[k] { widest = max(widest, segment[k]) }
            guard widest > 0 else { return r }
            // Polylines (everything not ours) take width = nominal × 2 × pressure, so any ratio of widths fits.
            let polyline = p.style.trace == .polyline
            let n = exact ? nominal : (polyline ? widest / 2 : widest * 2 / 3)
            r.width = n
            func pressure(_ w: Double) -> Double { min(max(polyline ? w / (2 * n) : w / n - 0.5, 0), 1) }
            // Runs of drawn segments; each point takes the width of the segment it starts (the last point of a
            // run, the width of the segment it ends).
            var pieces: [[InkPoint]] = []
            var piece: [InkPoint] = []
            for k in 0..<(points.count - 1) {
                let seg = min(k, segment.count - 1)
                guard valid[seg] else {
                    if !piece.isEmpty { pieces.append(piece); piece = [] }
                    continue
                }
                var a = points[k], b = points[k + 1]
                a.pressure = pressure(segment[seg]); b.pressure = a.pressure
                if piece.isEmpty { piece.append(a) } else { piece[piece.count - 1].pressure = a.pressure }
                piece.append(b)
            }
            if !piece.isEmpty { pieces.append(piece) }
            pieces = pieces.filter { $0.count >= 2 }
            guard let first = pieces.first else { return r }
            r.points = first
            r.more = Array(pieces.dropFirst())
            return r
        } else {
            r.width = nominal
        }
        r.points = points
        return r
    }

    /// Whitespace-separated decimals, without a String per number (an unreadable one is NaN).
    /// `overlong` says a token exceeded 64 bytes; it is NaN too.
    static func numbers(_ text: ArraySlice<UInt8>) -> (values: [Double], overlong: Bool) {
        ByteScan.decimals(text) { Double(String(decoding: $0, as: UTF8.self)) ?? .nan }
    }

    /// "x y x y …" → points; non-finite or absurd coordinates are dropped (and counted), an odd count is an error.
    static func coordinates(_ text: ArraySlice<UInt8>, dropped: inout Int) throws -> [InkPoint] {
        let (values, overlong) = numbers(text)
        guard !overlong else { throw ParseFailure(message: "a coordinate is longer than 64 characters") }
        guard values.count / 2 <= PointCodec.maxPoints else {
            throw ParseFailure(message: "a stroke has \(values.count / 2) points (at most \(PointCodec.maxPoints) are allowed)")
        }
        guard values.count % 2 == 0 else { throw ParseFailure(message: "a stroke has an odd number of coordinates (\(values.count))") }
        var out: [InkPoint] = []
        out.reserveCapacity(values.count / 2)
        for j in stride(from: 0, to: values.count, by: 2) {
            let x = values[j], y = values[j + 1]
            guard x.isFinite, y.isFinite, abs(x) <= PointCodec.maxCoordinate, abs(y) <= PointCodec.maxCoordinate else { dropped += 1; continue }
            out.append(InkPoint(x: x, y: y, pressure: 0.5, time: 0))
        }
        return out
    }
}
