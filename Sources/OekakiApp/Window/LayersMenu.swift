import InkCore
import Localization

/// What the layers menu asks for; places are the page's, bottom first.
enum LayerAction: Equatable {
    case select(Int)
    case visible(Int, Bool)
    case add(allPages: Bool)
    case rename(Int, String)
    case delete(Int)
    /// Up (+1) or down (-1).
    case move(Int, Int)
}

/// The layers of the current page, as Xournal++ and GIMP list them: the top layer first, each with an eye that
/// shows or hides it and its name, which makes it the layer new ink goes to (the current one is ticked). Under the
/// list the current layer's name field, its moves and delete, and the two ways to add a layer (on this page, or on
/// every page: a notebook layer). The window rebuilds it after every change (`show`).
final class LayersMenu {
    let widget: Widget
    private let title = Widgets.heading("")
    private let list = Widgets.box(horizontal: false, spacing: 2)
    private var rows: [Widget] = []
    private var name: Widget!
    private var current = 0
    var onAction: ((LayerAction) -> Void)?

    init() {
        widget = Widgets.box(horizontal: false, spacing: 6)
        widget.setMargins(6)
        name = Widgets.entry(text: "", tooltip: localized("The current layer's name (Enter renames it)")) { [weak self] in
            guard let self else { return }
            self.onAction?(.rename(self.current, self.name.text))
        }
        name.expandAcross()
        let naming = Widgets.box(spacing: 4)
        Widgets.append(naming, name, Widgets.button(icon: nil, label: localized("Rename"), tooltip: localized("Give the current layer this name")) { [weak self] in
            guard let self else { return }
            self.onAction?(.rename(self.current, self.name.text))
        })
        let moves = Widgets.box(spacing: 4)
        Widgets.append(moves,
            Widgets.button(icon: "go-up-symbolic", label: localized("Up"), tooltip: localized("Move the current layer up (its ink over the layer above)")) { [weak self] in
                guard let self else { return }
                self.onAction?(.move(self.current, 1))
            },
            Widgets.button(icon: "go-down-symbolic", label: localized("Down"), tooltip: localized("Move the current layer down")) { [weak self] in
                guard let self else { return }
                self.onAction?(.move(self.current, -1))
            },
            Widgets.button(icon: "edit-delete-symbolic", label: localized("Delete"), tooltip: localized("Delete the current layer and its ink (Undo brings it back)")) { [weak self] in
                guard let self else { return }
                self.onAction?(.delete(self.current))
            })
        let adding = Widgets.box(horizontal: false, spacing: 2)
        Widgets.append(adding,
            Widgets.menuItem(localized("New layer"), tooltip: localized("Add a layer above the current one on this page")) { [weak self] in
                self?.onAction?(.add(allPages: false))
            },
            Widgets.menuItem(localized("New layer on every page"), tooltip: localized("Add a layer of one name on every page, pages added later too: hiding or renaming it acts on all of them")) { [weak self] in
                self?.onAction?(.add(allPages: true))
            })
        Widgets.append(widget, title, list, Widgets.separatorAcross(), naming, moves, Widgets.separatorAcross(), adding)
    }

    /// Lists `layers` (bottom first), top first; `current` is ticked and its name is in the field.
    func show(_ layers: [Layer], current: Int, page: Int) {
        self.current = current
        Widgets.setLabel(title, localized("Layers of page {0}", page + 1))
        for r in rows { list.removeChild(r) }
        rows = []
        for (i, l) in layers.enumerated().reversed() {
            let row = Widgets.box(spacing: 2)
            let eye = Widgets.button(icon: l.visible ? "view-reveal-symbolic" : "view-conceal-symbolic",
                                     tooltip: l.visible ? localized("Hide layer “{0}”", l.name) : localized("Show layer “{0}”", l.name)) { [weak self] in
                self?.onAction?(.visible(i, !l.visible))
            }
            eye.addCSSClass("flat")
            let label = l.everyPage ? localized("{0} (every page)", l.name) : l.name
            let pick = Widgets.button(icon: i == current ? "radio-checked-symbolic" : "radio-symbolic", label: label,
                                      tooltip: localized("Draw on layer “{0}”", l.name)) { [weak self] in
                self?.onAction?(.select(i))
            }
            pick.addCSSClass("flat")
            pick.expandAcross()
            Widgets.append(row, eye, pick)
            Widgets.append(list, row)
            rows.append(row)
        }
        name.text = layers.indices.contains(current) ? layers[current].name : ""
    }
}
