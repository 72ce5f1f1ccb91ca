import CGtk
import Localization
import Foundation

/// Untitled drawings from earlier sessions: listed in a title-bar menu and a dismissable banner, never blocking.
extension MainWindow {
    /// Opens an earlier untitled drawing; it leaves the list (it is the open document now).
    func recover(_ path: String) {
        open(path) { [weak self] in
            guard let self, let b = self.recoverEntries.removeValue(forKey: path) else { return }
            self.recoverList.removeChild(b)
            self.recoveryBanner.hide()
            if self.recoverEntries.isEmpty { self.recoverButton.setVisible(false) }
        }
    }

    /// Lists earlier untitled drawings without blocking: a title-bar menu and a dismissable banner.
    func offerRecovery(_ paths: [String], withBanner: Bool) {
        guard !paths.isEmpty else { return }
        for path in paths.prefix(20) {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let b = Widgets.button(icon: "document-open-recent-symbolic", label: name, tooltip: path) { [weak self] in
                guard let self else { return }
                self.recoverButton.popdownMenu()
                self.recover(path)
            }
            b.addCSSClass("flat")
            recoverEntries[path] = b
            Widgets.append(recoverList, b)
        }
        recoverButton.setVisible(true)
        guard withBanner else { return }
                recoveryBanner.show(.info, localizedPlural("%d drawing from earlier sessions was never saved under a name. Recover it from the title bar.",
                                                    "%d drawings from earlier sessions were never saved under a name. Recover them from the title bar.", paths.count),
                            action: (localized("Show"), { [weak self] in
                                guard let self else { return }
                                self.recoverButton.popupMenu()
                            }))
    }
}
