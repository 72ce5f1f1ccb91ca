/// Text boxes as edits: placing one, changing its text, font, size, colour or wrap width, each one undoable edit
/// like ink. The app lays the text out (Pango) and passes the height it measured; the box's top-left stays put.
extension Editor {
    /// The text tool's default box: font family, size (page units) and wrap width, and its colour is the
    /// text tool's style colour.
    public var textColor: RGBA {
        get { styles[.text]?.color ?? .black }
        set { styles[.text] = StrokeStyle(tool: .text, color: newValue, width: 1) }
    }

    /// Puts a new text box on the current page, its top-left corner at `origin` (page units), `height` its
    /// laid-out height. Nothing for empty text.
    public func addText(_ box: TextBox, at origin: Point, height: Double) -> Update {
        guard !box.text.isEmpty, box.problem == nil, origin.isFinite, height.isFinite, height > 0 else { return .none }
        var s = Stroke(id: makeStrokeID(), content: .text(box), frame: Rect(x: origin.x, y: origin.y, width: box.width, height: height), page: page.id)
        s.layer = layer.id
        return perform(.add([s]))
    }

    /// Gives text box `id` of the current page new content (`height` re-measured); it keeps its place (unless
    /// `origin`, its new drawn top-left, is given), placement and drawing order. Empty text deletes the box.
    /// One `replace` edit: undo brings the old box back.
    public func changeText(_ id: StrokeID, to box: TextBox, height: Double, origin: Point? = nil) -> Update {
        guard let old = page.stroke(id), old.content.text != nil, let frame = old.drawnBox else { return .none }
        if box.text.isEmpty {
            selection.remove(id)
            return perform(.remove([old]))
        }
        let at = origin ?? Point(frame.minX, frame.minY)
        guard box.problem == nil, height.isFinite, height > 0, at.isFinite,
              old.content != .text(box) || abs(frame.height - height) > 1e-9 || at != Point(frame.minX, frame.minY) else { return .none }
        var new = Stroke(id: makeStrokeID(), content: .text(box), frame: Rect(x: at.x, y: at.y, width: box.width, height: height),
                         page: old.page, order: old.order, transform: old.transform)
        new.order = old.order
        new.layer = old.layer
        let wasSelected = selection.remove(id) != nil
        let u = perform(.replace(removed: [old], added: [new]))
        if wasSelected { selection.insert(new.id) }
        return u
    }

    /// A resize of the selection when it is one unrotated text box: the box's new wrap width and drawn top-left
    /// under `map` (an axis scale), so the app re-wraps the text instead of stretching its glyphs. Nil otherwise.
    public func rewrap(under map: AffineMap) -> (id: StrokeID, box: TextBox, origin: Point)? {
        let chosen = selectedStrokes
        guard chosen.count == 1, let s = chosen.first, var box = s.content.text, let frame = s.drawnBox,
              s.transform.isTranslation, map.b == 0, map.c == 0, map.a != 0 else { return nil }
        let t = Point(s.transform.tx, s.transform.ty)
        let a = map.apply(Point(frame.minX, frame.minY) + t), b = map.apply(Point(frame.maxX, frame.minY) + t)
        let width = abs(b.x - a.x)
        guard TextBox.widthRange.contains(width) else { return nil }
        box.width = width
        return (s.id, box, Point(min(a.x, b.x), a.y) - t)
    }

    /// The topmost text box of the current page whose shown box holds `p`; with `text`, the topmost whose text
    /// holds it (`text` gets the box and `p` from its top-left corner, `Stroke.pointInBox`): a box is as wide as
    /// it wraps, and its empty part beside the text hides neither a click for a new box nor a box under it.
    public func textBox(at p: Point, text holds: ((TextBox, Point) -> Bool)? = nil) -> Stroke? {
        guard p.isFinite else { return nil }
        for d in reachedDrawings.reversed() {
            if let s = d.strokes(in: Rect(around: p, radius: 0.5)).last(where: { s in
                guard let box = s.content.text, s.boxContains(p) else { return false }
                guard let holds else { return true }
                return s.pointInBox(p).map { holds(box, $0) } ?? false
            }) { return s }
        }
        return nil
    }
}
