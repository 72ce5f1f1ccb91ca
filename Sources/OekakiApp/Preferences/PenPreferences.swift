import InkCore
import InkRender
import Localization

/// What a stylus's eraser end or barrel button does instead of the chosen tool.
enum StylusAction: String, CaseIterable {
    case strokeEraser = "stroke-eraser"
    case areaEraser = "area-eraser"
    case lasso
    case pan
    case none

    /// The tool its strokes use (nil: pan and nothing draw no stroke).
    var tool: Tool? {
        switch self {
        case .strokeEraser: return .strokeEraser
        case .areaEraser: return .areaEraser
        case .lasso: return .lasso
        case .pan, .none: return nil
        }
    }

    var title: String {
        switch self {
        case .strokeEraser: return localized("Stroke eraser")
        case .areaEraser: return localized("Area eraser")
        case .lasso: return localized("Lasso select")
        case .pan: return localized("Pan")
        case .none: return localized("Nothing")
        }
    }
}

/// The stylus's three inputs that may do something else than the chosen tool.
struct StylusButtons {
    var eraserEnd = StylusAction.strokeEraser
    var first = StylusAction.areaEraser
    var second = StylusAction.none
}

/// Preferences ▸ Pen: the pressure curve (presets, and a graph whose points are dragged), palm rejection and its
/// delay, the stabilizer, and what the eraser end and barrel buttons do. Every change is kept at once
/// (`Preferences.update`) and handed to `onChange`, which applies it to the window's session and canvas.
final class PenPreferences {
    let window: Widget
    private var prefs: Preferences
    private let onChange: (Preferences) -> Void
    private let graph: Widget
    private let presets: Widget
    /// The point being dragged on the graph, and where it was when the drag began (graph pixels).
    private var dragging: (index: Int, from: Point)?
    private var syncing = false
    /// Graph size and margin (pixels).
    private static let side = 220.0, margin = 14.0
    private static let presetOrder: [PressureCurve.Preset] = [.soft, .linear, .firm, .constant]

    /// Opens the window over `parent`.
    @discardableResult
    static func show(parent: Widget, onChange: @escaping (Preferences) -> Void) -> PenPreferences {
        let p = PenPreferences(onChange: onChange)
        p.window.setTransient(for: parent)
        p.window.present()
        // The window keeps its controller alive until it is closed.
        p.window.onDestroy { _ = p }
        return p
    }

    private init(onChange: @escaping (Preferences) -> Void) {
        prefs = Preferences.load()
        self.onChange = onChange
        window = Widgets.window(title: localized("Pen"), resizable: false)
        graph = Widgets.drawingArea()
        presets = Widgets.dropDown([localized("Soft"), localized("Linear"), localized("Firm"), localized("Constant (no pressure)"), localized("Your own")])
        build()
    }

    private static func row(_ title: String, _ control: Widget) -> Widget {
        let box = Widgets.box(horizontal: true, spacing: 12)
        let l = Widgets.label(title)
        l.expandAcross()
        l.alignStart()
        Widgets.append(box, l, control)
        return box
    }

    private func build() {
        let box = Widgets.box(horizontal: false, spacing: 8)
        box.setMargins(start: 14, end: 14, top: 12, bottom: 14)

        // Pressure curve: presets, and the graph.
        let hint = Widgets.hint(localized("How hard you press (across) gives how wide a line (up). Drag the points."), maxChars: 36)
        graph.setContentSize(width: Int(Self.side), height: Int(Self.side))
        graph.alignCenter()
        setDrawFunction(graph) { [weak self] cr, w, h in self?.paint(cr, Double(w), Double(h)) }
        graph.onDrag(began: { [weak self] x, y in self?.dragBegan(at: Point(x, y)) },
                     moved: { [weak self] dx, dy in self?.dragged(by: Point(dx, dy)) },
                     ended: { [weak self] _, _ in self?.dragging = nil })
        let addPoint = Widgets.button(icon: "list-add-symbolic", label: localized("Add a point"), tooltip: localized("A new point where the curve has most room")) { [weak self] in
            self?.addPoint()
        }
        presets.onSelectionChanged { [weak self] in self?.presetChosen() }

        // Palm rejection.
        let palm = Widgets.check(localized("Palm rejection: touches near the pen neither draw nor navigate"), active: prefs.palmRejection) { [weak self] on in
            self?.change { $0.palmRejection = on }
        }
        let delay = Widgets.spin(PalmRejection.delayRange, step: 50, value: prefs.palmDelay) { [weak self] ms in
            self?.change { $0.palmDelay = ms }
        }

        // Stabilizer.
        let levels = Stabilizer.Level.allCases
        let stabilizer = Widgets.dropDown([localized("Off"), localized("Low"), localized("High")],
                                          selected: levels.firstIndex(of: prefs.stabilizer) ?? 0) { [weak self] k in
            if levels.indices.contains(k) { self?.change { $0.stabilizer = levels[k] } }
        }

        // The stylus's eraser end and buttons.
        let actions = StylusAction.allCases
        func actionMenu(_ current: StylusAction, _ set: @escaping (inout Preferences, StylusAction) -> Void) -> Widget {
            Widgets.dropDown(actions.map(\.title), selected: actions.firstIndex(of: current) ?? 0) { [weak self] k in
                if actions.indices.contains(k) { self?.change { set(&$0, actions[k]) } }
            }
        }

        Widgets.append(box, Widgets.heading(localized("Pressure curve")), Self.row(localized("Preset"), presets), graph, hint, addPoint,
                       Widgets.heading(localized("Palm rejection")), palm, Self.row(localized("Touches stay blocked after the pen leaves (ms)"), delay),
                       Widgets.heading(localized("Stabilizer")), Self.row(localized("Steady a shaky hand"), stabilizer),
                       Widgets.heading(localized("Stylus buttons")),
                       Self.row(localized("Eraser end"), actionMenu(prefs.eraserEnd) { $0.eraserEnd = $1 }),
                       Self.row(localized("First button"), actionMenu(prefs.firstButton) { $0.firstButton = $1 }),
                       Self.row(localized("Second button"), actionMenu(prefs.secondButton) { $0.secondButton = $1 }))
        window.setWindowChild(box)
        showPreset()
    }

    /// Keeps a change and applies it.
    private func change(_ body: (inout Preferences) -> Void) {
        guard !syncing else { return }
        body(&prefs)
        let p = prefs
        Preferences.update {
            $0.pressureCurve = p.pressureCurve; $0.stabilizer = p.stabilizer
            $0.palmRejection = p.palmRejection; $0.palmDelay = p.palmDelay
            $0.eraserEnd = p.eraserEnd; $0.firstButton = p.firstButton; $0.secondButton = p.secondButton
        }
        onChange(p)
    }

    // MARK: the curve

    private func setCurve(_ curve: PressureCurve) {
        guard curve != prefs.pressureCurve else { return }
        change { $0.pressureCurve = curve }
        showPreset()
        graph.queueDraw()
    }

    private func showPreset() {
        syncing = true
        defer { syncing = false }
        let k = prefs.pressureCurve.preset.flatMap { Self.presetOrder.firstIndex(of: $0) } ?? Self.presetOrder.count
        presets.selectedIndex = k
    }

    private func presetChosen() {
        guard !syncing else { return }
        let k = presets.selectedIndex
        guard Self.presetOrder.indices.contains(k) else { return }
        setCurve(PressureCurve(Self.presetOrder[k]))
    }

    private func addPoint() {
        let pts = prefs.pressureCurve.points
        guard pts.count < PressureCurve.maxPoints else { return }
        var widest = 0
        for i in 0..<(pts.count - 1) where pts[i + 1].x - pts[i].x > pts[widest + 1].x - pts[widest].x { widest = i }
        let x = (pts[widest].x + pts[widest + 1].x) / 2
        var q = pts
        q.insert(Point(x, prefs.pressureCurve.value(at: x)), at: widest + 1)
        if let c = try? PressureCurve(points: q) { setCurve(c) }
    }

    /// Curve units (0…1, up) to graph pixels and back.
    private func toGraph(_ p: Point) -> Point {
        let span = Self.side - 2 * Self.margin
        return Point(Self.margin + p.x * span, Self.side - Self.margin - p.y * span)
    }
    private func fromGraph(_ g: Point) -> Point {
        let span = Self.side - 2 * Self.margin
        return Point((g.x - Self.margin) / span, (Self.side - Self.margin - g.y) / span)
    }

    private func dragBegan(at g: Point) {
        let pts = prefs.pressureCurve.points
        let nearest = pts.indices.min { toGraph(pts[$0]).distance(to: g) < toGraph(pts[$1]).distance(to: g) }
        guard let i = nearest, toGraph(pts[i]).distance(to: g) <= 14 else { dragging = nil; return }
        dragging = (i, toGraph(pts[i]))
    }

    private func dragged(by d: Point) {
        guard let (i, from) = dragging else { return }
        setCurve(prefs.pressureCurve.moving(i, to: fromGraph(from + d)))
    }

    private func paint(_ cr: CairoContext, _ w: Double, _ h: Double) {
        let lo = toGraph(Point(0, 0)), hi = toGraph(Point(1, 1))
        cr.setSource(red: 1, green: 1, blue: 1)
        cr.rectangle(x: lo.x, y: hi.y, width: hi.x - lo.x, height: lo.y - hi.y)
        cr.fill()
        // A grid of quarters, and the diagonal (linear) to compare with.
        cr.setSource(red: 0.85, green: 0.85, blue: 0.85)
        cr.setLineWidth(1)
        for k in 1...3 {
            let a = toGraph(Point(Double(k) / 4, 0)), b = toGraph(Point(Double(k) / 4, 1))
            cr.move(to: Point(a.x.rounded() + 0.5, a.y)); cr.line(to: Point(b.x.rounded() + 0.5, b.y))
            let c = toGraph(Point(0, Double(k) / 4)), e = toGraph(Point(1, Double(k) / 4))
            cr.move(to: Point(c.x, c.y.rounded() + 0.5)); cr.line(to: Point(e.x, e.y.rounded() + 0.5))
        }
        cr.stroke()
        cr.setDash([4, 4])
        cr.move(to: lo); cr.line(to: hi)
        cr.stroke()
        cr.setDash([])
        cr.setSource(red: 0.5, green: 0.5, blue: 0.5)
        cr.rectangle(x: lo.x + 0.5, y: hi.y + 0.5, width: hi.x - lo.x - 1, height: lo.y - hi.y - 1)
        cr.stroke()
        // The curve.
        let curve = prefs.pressureCurve
        cr.setSource(red: 0.10, green: 0.37, blue: 0.71)
        cr.setLineWidth(2.5)
        for k in 0...100 {
            let x = Double(k) / 100
            let p = toGraph(Point(x, curve.value(at: x)))
            if k == 0 { cr.move(to: p) } else { cr.line(to: p) }
        }
        cr.stroke()
        // Its points, to drag.
        for p in curve.points {
            cr.arc(toGraph(p), radius: 6)
            cr.setSource(red: 1, green: 1, blue: 1)
            cr.fill(keepPath: true)
            cr.setSource(red: 0.10, green: 0.37, blue: 0.71)
            cr.setLineWidth(2)
            cr.stroke()
        }
    }
}
