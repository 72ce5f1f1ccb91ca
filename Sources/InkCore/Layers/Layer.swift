/// Layer ids come from the same counter as page ids, so they are unique in the document and a page's first
/// layer can simply take the page's id (which is also what a stroke names when it was never put on another layer).
public typealias LayerID = UInt64

/// What a layer looks like in the layers list: its name and whether its items are drawn.
public struct LayerLook: Hashable, Sendable {
    public var name: String
    public var visible: Bool
    public init(name: String, visible: Bool = true) { self.name = name; self.visible = visible }

    /// This look after a change from `from` to `to`: only what that change changed (undoing a hide shows the layer
    /// again and keeps a name given to it since, by this user or someone on the board).
    public func changed(from: LayerLook, to: LayerLook) -> LayerLook {
        var l = self
        if from.name != to.name { l.name = to.name }
        if from.visible != to.visible { l.visible = to.visible }
        return l
    }
}

/// One layer of a page: a name, whether it is shown, and its own drawing (items in drawing order with their index).
/// A page draws its layers bottom to top; a hidden layer is kept (file, `.xopp`, history) but never drawn.
/// `everyPage` marks a notebook layer (added "on every page"): a page added later gets an empty layer of its name.
public struct Layer: Sendable {
    public let id: LayerID
    public var name: String
    public var visible: Bool
    public var everyPage: Bool
    public internal(set) var drawing: Drawing

    /// The name a page's first layer gets, and the layer a deleted only layer leaves behind.
    public static let defaultName = "Layer 1"
    /// Longest layer name kept (a name is a label, not a text: longer ones are cut in the event log and files).
    public static let maxNameLength = 200

    public init(id: LayerID, name: String = Layer.defaultName, visible: Bool = true, everyPage: Bool = false, drawing: Drawing = Drawing()) {
        self.id = id; self.name = name; self.visible = visible; self.everyPage = everyPage; self.drawing = drawing
    }

    public var look: LayerLook {
        get { LayerLook(name: name, visible: visible) }
        set { name = newValue.name; visible = newValue.visible }
    }
}

extension Layer: Hashable {
    public static func == (a: Layer, b: Layer) -> Bool {
        a.id == b.id && a.name == b.name && a.visible == b.visible && a.everyPage == b.everyPage && a.drawing.strokes == b.drawing.strokes
    }
    public func hash(into h: inout Hasher) { h.combine(id); h.combine(name); h.combine(visible); h.combine(drawing.strokes.count) }
}

/// Which layers erasers and selection reach: the current layer only, or every visible layer (a preference).
public enum LayerScope: String, Hashable, Sendable {
    case current
    case visible
}
