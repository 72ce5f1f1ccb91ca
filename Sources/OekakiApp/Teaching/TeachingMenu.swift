import InkCore
import InkRender
import Localization

/// The toolbar's teaching menu: the ruler, set square and compass shown or put away, and Present (F5).
final class TeachingMenu {
    let widget: Widget
    private var items: [GuideHandles.Guide: Widget] = [:]
    private var syncing = false
    var onCommand: ((Command) -> Void)?

    init() {
        let list = Widgets.box(horizontal: false, spacing: 2)
        widget = Widgets.menuButton(face: Widgets.face(Faces.ruler), tooltip: localized("Ruler, set square, compass and presenting"),
                                    focusable: false, content: list)
        for (g, name) in [(GuideHandles.Guide.ruler, localized("Ruler")), (.setSquare, localized("Set square")), (.compass, localized("Compass"))] {
            let item = Widgets.check(name, focusable: false) { [weak self] _ in
                guard let self, !self.syncing else { return }
                self.onCommand?(.guide(g))
            }
            items[g] = item
            Widgets.append(list, item)
        }
        let present = Widgets.button(icon: "x-office-presentation-symbolic", label: localized("Present"), tooltip: localized("Present: full screen, a page at a time (F5)")) { [weak self] in
            self?.widget.popdownMenu()
            self?.onCommand?(.present)
        }
        present.addCSSClass("flat")
        Widgets.append(list, Widgets.separatorAcross(), present)
    }

    /// Ticks the guides that are shown.
    func show(_ guides: Guides) {
        syncing = true
        defer { syncing = false }
        for (g, item) in items {
            let on: Bool
            switch g {
            case .ruler: on = guides.ruler != nil
            case .setSquare: on = guides.setSquare != nil
            case .compass: on = guides.compass != nil
            }
            item.isChecked = on
        }
    }
}

extension Faces {
    /// A ruler lying at a slant, with its ticks.
    static func ruler(_ cr: CairoContext, _ w: Double, _ h: Double) {
        cr.save()
        cr.translate(w / 2, h / 2)
        cr.rotate(-Double.pi / 6)
        cr.rectangle(x: -w * 0.5, y: -h * 0.17, width: w, height: h * 0.34)
        cr.setSource(red: 0.96, green: 0.85, blue: 0.45)
        cr.fill(keepPath: true)
        cr.setSource(red: 0.2, green: 0.2, blue: 0.22)
        cr.setLineWidth(1.2)
        cr.stroke()
        cr.setLineWidth(1)
        for k in 1..<6 {
            let x = -w * 0.5 + w * Double(k) / 6
            cr.move(to: x, -h * 0.17); cr.line(to: x, -h * 0.17 + (k % 3 == 0 ? h * 0.2 : h * 0.11))
        }
        cr.stroke()
        cr.restore()
    }

    /// A red dot with its glow: the laser pointer.
    static func laser(_ cr: CairoContext, _ w: Double, _ h: Double) {
        for (r, a) in [(min(w, h) * 0.45, 0.2), (min(w, h) * 0.3, 0.45), (min(w, h) * 0.16, 1.0)] {
            cr.arc(Point(w / 2, h / 2), radius: r)
            cr.setSource(red: 1, green: 0.16, blue: 0.16, alpha: a)
            cr.fill()
        }
    }
}
