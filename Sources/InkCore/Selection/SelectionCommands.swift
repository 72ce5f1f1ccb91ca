/// What can be done to a selection. Raw names are the `op` values of `selection` lines in event logs.
public enum SelectionOp: Hashable, Sendable {
    case translate(dx: Double, dy: Double)
    /// `keepWidths` nil follows the editor's "keep line widths" preference.
    case scale(sx: Double, sy: Double, about: Point, keepWidths: Bool?)
    /// Counter-clockwise on screen (y down).
    case rotate(degrees: Double, about: Point)
    case delete
    case duplicate(dx: Double, dy: Double)
    /// `keepsAlpha`: the colour was given without alpha, so a highlighter keeps its translucency. `fill` -1 takes the
    /// fill away, 0…255 fills at that alpha; `line` dashes the ink (nil leaves either as it is).
    case style(color: RGBA?, keepsAlpha: Bool, width: Double?, fill: Int? = nil, line: LineStyle? = nil)
    case front, back
    case copy, cut
    /// Puts down copies of the clipboard's strokes (`Editor.apply(_:pasting:)`): nil at the copied place + (20, 20),
    /// else the centre of their bounds goes to the point.
    case paste(at: Point?)
    case all, none
}

/// A selection operation that cannot be done; the message says why, in the user's words.
public struct SelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, translatable (see `Wording`).
    public var wording: Wording
    public var message: String { wording.description }
    public init(_ text: String, _ values: CustomStringConvertible...) { wording = Wording(text, values) }
    public var description: String { message }
}

/// The path of a pointer drawing a lasso loop or a selection box, and which of the two.
struct SelectionGesture: Sendable {
    var tool: Tool
    var path: [Point]
    /// The tap radius of the event that began it (3 screen pixels at that zoom).
    var tapRadius: Double
}

/// Selecting and the operations on a selection. Each operation that changes ink is one `Edit` through `perform`,
/// so it is undoable and stored like any other; selecting itself is not an edit.
extension Editor {
    /// Farthest a moved, resized or pasted point may go from the origin (page units): what a file can store.
    public static let maxSelectionCoordinate = 1e9
    /// Widest line a resize or restyle may make.
    public static let maxSelectionWidth = 10_000.0
    /// Where `duplicate` puts the copy by default, and where `paste` puts it without a place.
    public static let pasteOffset = 20.0

    /// The selected strokes that still exist, in drawing order.
    public var selectedStrokes: [Stroke] {
        let p = page
        return selection.compactMap { p.stroke($0) }.sorted { p.drawsBefore($0, $1) }
    }

    /// Bounds of the selected ink, nil when nothing is selected.
    public var selectionBounds: Rect? { Rect.union(of: selectedStrokes.lazy.compactMap(\.shownBounds)) }

    /// After an undo or redo applied `e`: selected strokes it replaced (restyled, brought to front or sent to
    /// back) stay selected as their replacements.
    func followSelection(through e: Edit) {
        guard !selection.isEmpty, case .replace(let removed, let added) = e else { return }
        let gone = Set(removed.map(\.id))
        guard !selection.isDisjoint(with: gone) else { return }
        selection.subtract(gone)
        selection.formUnion(added.map(\.id))
    }

    // MARK: gestures

    /// Routes the events of a pointer that draws a selection loop or box; nil when the event is not one.
    func select(_ event: InputEvent) -> Update? {
        let id = event.pointer
        guard var g = selecting[id] else { return nil }
        let p = event.point.point
        switch event.phase {
        case .began:
            // Down again without an up: the old loop is dropped and `handle` starts afresh.
            selecting[id] = nil
            return nil
        case .moved:
            if p.isFinite { g.path.append(p) }
            selecting[id] = g
            return Update.none
        case .ended:
            if p.isFinite { g.path.append(p) }
            selecting[id] = nil
            finishSelecting(g)
            return Update.none
        case .cancelled:
            selecting[id] = nil
            return Update.none
        }
    }

    /// Replaces (or with `addsToSelection`, grows) the selection by what the gesture took; a gesture that takes
    /// nothing clears it.
    private func finishSelecting(_ g: SelectionGesture) {
        guard let first = g.path.first, let last = g.path.last else { return }
        let isTap = g.path.allSatisfy { $0.distance(to: first) <= g.tapRadius }
        var picked: [StrokeID] = []
        if isTap {
            if let s = topmostStroke(at: last) { picked = [s.id] }
        } else if g.tool == .lasso {
            if let loop = Lasso(g.path) { picked = reachedDrawings.flatMap { SelectionArea.loop(loop).strokes(of: $0, rule: selectionRule).map(\.id) } }
        } else {
            let box = Rect(minX: Swift.min(first.x, last.x), minY: Swift.min(first.y, last.y),
                           maxX: Swift.max(first.x, last.x), maxY: Swift.max(first.y, last.y))
            picked = reachedDrawings.flatMap { SelectionArea.box(box).strokes(of: $0, rule: selectionRule).map(\.id) }
        }
        if addsToSelection {
            selection.formUnion(picked)
        } else {
            selection = Set(picked)
        }
    }

    /// The drawings of the layers selection reaches (the current one, or every visible one), bottom first.
    var reachedDrawings: [Drawing] { reachedLayers(of: page).map { page.layers[$0].drawing } }

    /// The topmost stroke (of the layers selection reaches) whose ink (by its real, pressure-varying width) covers `p`.
    public func topmostStroke(at p: Point) -> Stroke? {
        guard p.isFinite else { return nil }
        let dot = Capsule(center: p, radius: 0)
        // A text box or image is hit anywhere inside its box, ink only where it is inked.
        for d in reachedDrawings.reversed() {
            if let s = d.strokes(in: dot.bounds).last(where: { $0.content.isInk ? StrokeEraser.touches($0, dot) : $0.boxContains(p) }) { return s }
        }
        return nil
    }

    // MARK: operations

    /// The strokes `op` takes onto a clipboard (copy and cut: the selection, in drawing order with their
    /// placements); nil for every other op. The clipboard is the app's (or a replay's), not the editor's, so a
    /// paste can put another document's strokes down.
    public func clipped(by op: SelectionOp) -> [Stroke]? {
        switch op {
        case .copy, .cut:
            let strokes = selectedStrokes
            return strokes.isEmpty ? nil : strokes
        default: return nil
        }
    }

    /// Does `op` to the selection; `paste` puts down copies of `clipboard`. Without a selection every operation
    /// but `all` and `paste` does nothing. Throws `SelectionError` (and changes nothing) when the result would
    /// leave the storable page.
    @discardableResult
    public func apply(_ op: SelectionOp, pasting clipboard: [Stroke] = []) throws -> Update {
        selection = Set(selectedStrokes.map(\.id))   // drops ids an undo took away
        switch op {
        case .all:
            selection = Set(reachedDrawings.flatMap { $0.strokes.map(\.id) })
            return .none
        case .none:
            selection = []
            return .none
        case .paste(let at):
            return try paste(clipboard, at: at)
        default:
            break
        }
        let strokes = selectedStrokes
        guard !strokes.isEmpty else { return .none }
        switch op {
        case .translate(let dx, let dy):
            return try transform(strokes, .translation(dx, dy), widthScale: 1)
        case .scale(let sx, let sy, let c, let keep):
            let m = AffineMap.scale(sx, sy, about: c)
            return try transform(strokes, m, widthScale: (keep ?? keepLineWidths) ? 1 : m.widthScale)
        case .rotate(let degrees, let c):
            return try transform(strokes, .rotation(degrees: degrees, about: c), widthScale: 1)
        case .delete:
            selection = []
            return perform(.remove(strokes))
        case .duplicate(let dx, let dy):
            let copies = try placedCopies(of: strokes, moved: .translation(dx, dy))
            selection = Set(copies.map(\.id))
            return perform(.add(copies))
        case .style(let color, let keepsAlpha, let width, let fill, let line):
            if let w = width, !(w > 0 && w <= Self.maxSelectionWidth) {
                throw SelectionError("width {0} is outside 0…{1}", JSONText.number(w), JSONText.number(Self.maxSelectionWidth))
            }
            let restyled = strokes.map { s -> Stroke in
                var c = copy(s)
                c.order = s.order   // keeps its place in the drawing order
                if var rgba = color {
                    if keepsAlpha && s.style.tool == .highlighter { rgba.a = s.style.color.a }
                    c.style.color = rgba
                    // A text box is drawn in its own colour: restyling colours its text.
                    if case .text(var t) = c.content { t.color = rgba; c.content = .text(t) }
                }
                // Width is a line's; text and images have none.
                if let width, c.content.isInk { c.style.width = width }
                if let fill, c.content.isInk { c.style.fill = fill < 0 ? nil : UInt8(clamping: fill) }
                if let line, c.content.isInk { c.style.line = line }
                return c
            }
            return replaceSelection(strokes, with: restyled)
        case .front:
            // New ids are above every stroke, and their order is their id.
            return replaceSelection(strokes, with: strokes.map { copy($0) })
        case .back:
            // Orders below the bottom stroke's: negative once there is no room above 0 (the order is compared as
            // signed, and 0 is never used).
            let bottom = page.layers.compactMap { $0.drawing.strokes.first?.drawKey }.min() ?? 1
            let (below, overflow) = bottom.subtractingReportingOverflow(Int64(strokes.count))
            guard !overflow else { throw SelectionError("the drawing order has no room below the bottom stroke") }
            let start = below <= 0 && bottom > 0 ? -Int64(strokes.count) : below
            let moved = strokes.enumerated().map { i, s -> Stroke in
                var c = copy(s)
                c.order = StrokeID(bitPattern: start + Int64(i))
                return c
            }
            return replaceSelection(strokes, with: moved)
        case .copy:
            return .none
        case .cut:
            selection = []
            return perform(.remove(strokes))
        case .all, .none, .paste:
            return .none
        }
    }

    /// A copy of `s` with a new id, on top of the drawing order of its layer (the current layer when that is on
    /// another page or gone, or `toCurrentLayer`).
    private func copy(_ s: Stroke, toCurrentLayer: Bool = false) -> Stroke {
        var c = s
        c.id = newStrokeID()
        c.order = c.id
        let keeps = !toCurrentLayer && s.page == page.id && page.layerIndex(of: s.layer) != nil
        c.page = page.id
        c.layer = keeps ? s.layer : layer.id
        return c
    }

    private func replaceSelection(_ old: [Stroke], with new: [Stroke]) -> Update {
        selection = Set(new.map(\.id))
        return perform(.replace(removed: old, added: new))
    }

    /// Copies of `strokes` with new ids, placed by their transform followed by `m`, on top of the drawing order.
    private func placedCopies(of strokes: [Stroke], moved m: AffineMap, toCurrentLayer: Bool = false) throws -> [Stroke] {
        for s in strokes { try check(s, m, width: s.style.width) }
        return strokes.map { s in
            var c = copy(s, toCurrentLayer: toCurrentLayer)
            c.setTransform(s.transform.then(m))
            return c
        }
    }

    /// Copies of `clipboard` put down as one edit, selected (paste, and how the app inserts a picture).
    public func paste(_ clipboard: [Stroke], at place: Point?) throws -> Update {
        guard !clipboard.isEmpty, let bounds = Rect.union(of: clipboard.lazy.compactMap(\.bounds)) else { return .none }
        var m = AffineMap.translation(Self.pasteOffset, Self.pasteOffset)
        if let p = place {
            m = .translation(p.x - (bounds.minX + bounds.maxX) / 2, p.y - (bounds.minY + bounds.maxY) / 2)
        }
        let copies = try placedCopies(of: clipboard, moved: m, toCurrentLayer: true)
        selection = Set(copies.map(\.id))
        return perform(.add(copies))
    }

    /// Moves, resizes or rotates the strokes as one edit; widths are multiplied by `widthScale`.
    private func transform(_ strokes: [Stroke], _ m: AffineMap, widthScale: Double) throws -> Update {
        guard m.isUsable else {
            throw SelectionError("the transform would flatten the selection")
        }
        var area: Rect?
        for s in strokes {
            let w = s.style.width * widthScale
            try check(s, m, width: w)
            // After: the moved point bounds grown by the new width's reach (a cover; exact bounds need the points).
            let after = s.bounds.map { m.apply($0).insetBy(-(w * StrokeShape.maxWidthFactor / 2 + 1)) }
            for r in [s.inkBounds, after].compactMap({ $0 }) { area = area.map { $0.union(r) } ?? r }
        }
        let t = StrokeTransform(page: page.id, ids: strokes.map(\.id), before: strokes.map(Placement.init(of:)), matrix: m,
                                widthScale: widthScale, area: area)
        return perform(.transform(t))
    }

    /// Refuses a placement that would put points beyond what a file can store, or make an unusable width.
    private func check(_ s: Stroke, _ m: AffineMap, width: Double) throws {
        // The placement the stroke would carry must be one a file and a board accept (a tiny stroke blown up a
        // billion times is refused here, not later when saving).
        guard s.transform.then(m).isUsable else {
            throw SelectionError("that would move ink beyond the page limits (±{0} units); nothing was changed", JSONText.number(Self.maxSelectionCoordinate))
        }
        if let b = s.bounds {
            let r = m.apply(b)
            let limit = Self.maxSelectionCoordinate
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite,
                  r.minX >= -limit, r.minY >= -limit, r.maxX <= limit, r.maxY <= limit else {
                throw SelectionError("that would move ink beyond the page limits (±{0} units); nothing was changed", JSONText.number(limit))
            }
        }
        guard width.isFinite, width > 0, width <= Self.maxSelectionWidth else {
            throw SelectionError("that would make a line {0} units wide (limit {1}); nothing was changed", JSONText.number(width), JSONText.number(Self.maxSelectionWidth))
        }
    }
}
