import InkCore
import Localization

/// The layers menu (page menu ▸ Layers…, or L with nothing else held): it points at the page button and lists the
/// current page's layers; every action goes to the session, which makes it one undoable edit. "Move to layer…" in the
/// selection's menu lists the layers the selection can go to.
extension MainWindow {
    func showLayersMenu() {
        if layersMenu != nil { return }
        let menu = LayersMenu()
        menu.onAction = { [weak self] in self?.run($0) }
        layersMenu = menu
        refreshLayersMenu()
        let anchor = pageMenu.widget
        _ = Popover.show(menu.widget, over: anchor, at: (Double(anchor.width) / 2, Double(anchor.height)),
                         onClosed: { [weak self] in self?.layersMenu = nil })
    }

    /// The open layers menu follows the document (the page shown, an undo, someone else on the board).
    func refreshLayersMenu() {
        guard let menu = layersMenu else { return }
        menu.show(session.layers, current: session.currentLayer, page: session.currentPage)
        reportLayoutSoon()
    }

    private func run(_ action: LayerAction) {
        switch action {
        case .select(let i): session.selectLayer(i)
        case .visible(let i, let on): session.setLayerVisible(i, on)
        case .add(let all): session.addLayer(allPages: all)
        case .rename(let i, let name): session.renameLayer(i, to: name)
        case .delete(let i): session.deleteLayer(i)
        case .move(let i, let delta): session.moveLayer(i, by: delta)
        }
    }

    /// The selection's "Move to layer…": the page's other layers, top first.
    func showMoveToLayerMenu(at p: Point) {
        let list = Widgets.box(horizontal: false, spacing: 2)
        Widgets.append(list, Widgets.heading(localized("Move to layer")))
        var close: (() -> Void)?
        let layers = session.layers
        for (i, l) in layers.enumerated().reversed() where i != session.currentLayer || !selectionIsAll(on: i) {
            Widgets.append(list, Widgets.menuItem(l.name, tooltip: localized("Move the selection to layer “{0}”", l.name)) { [weak self] in
                close?()
                self?.session.moveSelection(toLayer: i)
            })
        }
        close = Popover.show(list, over: canvas.widget, at: (p.x, p.y))
        reportLayoutSoon()
    }

    /// True when every selected item is on layer `i` already.
    private func selectionIsAll(on i: Int) -> Bool {
        let id = session.layers[i].id
        return session.selectedStrokes.allSatisfy { $0.layer == id }
    }

    /// Test support: the layout report once a popover built here is up.
    private func reportLayoutSoon() {
        guard let observer = Instruments.observer, observer.watchesLayout else { return }
        every(milliseconds: 300) { [weak self] in
            if let self { observer.laidOut(self.window) }
            return false
        }
    }
}
