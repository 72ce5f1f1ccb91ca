import CGtk
import Localization
import Foundation
import InkCore
import InkRender
import InkStore

/// The window's document: its title, autosave status, open / save as / export, and closing safely.
extension MainWindow {
    func showDocument() {
        let name = document.name
        window.setWindowTitle(localized("{0} — Oekaki", name))
        Widgets.setLabel(titleLabel, name)
        let folder = (document.path as NSString).deletingLastPathComponent
        let subtitle: String
        if let note = document.note {
            subtitle = note
        } else if document.isUntitled {
            subtitle = localized("Not yet named: kept safe in {0}; use Save As to name it", Documents.abbreviated(folder))
        } else {
            subtitle = localized("{0} · every stroke is saved as you draw", Documents.abbreviated(folder))
        }
        Widgets.setLabel(subtitleLabel, subtitle)
        subtitleLabel.setTooltip(document.path)
        if !document.isUntitled { RecentFiles.add(document.path) }
    }

    /// What the session says about saving: a banner while it fails, with Save As… at hand.
    func showSaving(_ status: Autosave.Status) {
        switch status {
        case .saved:
            self.banner.hide()
            stopTimer(&self.retryTimer)
        case .refused(let reason):
            // Waiting cannot help here; the next change brings a new state to rewrite the file from.
            stopTimer(&self.retryTimer)
            self.banner.show(.warning,
                             localized("Cannot save to {0}: {1}. Your drawing is safe in memory; saving is tried again with your next change, or use Save As.", self.document.name, reason),
                             action: (localized("Save As…"), { [weak self] in self?.perform(.saveAs) }))
        case .failing(let reason):
            self.banner.show(.warning,
                             localized("Cannot save to {0}: {1}. Your drawing is safe in memory; retrying every 5 seconds.", self.document.name, reason),
                             action: (localized("Save As…"), { [weak self] in self?.perform(.saveAs) }))
            if self.retryTimer == 0 {
                self.retryTimer = every(milliseconds: 5000) { [weak self] in
                    self?.session.retrySaving()
                    return self != nil
                }
            }
        }
    }

    /// Writing failed: closing now would lose the last changes, so ask first.
    func askBeforeClosing(_ unsaved: Int) {
        Question.ask(parent: window, title: localized("Unsaved changes"),
                     message: localizedPlural("%d change could not be written to {0}. Save the drawing somewhere else before closing?",
                                              "%d changes could not be written to {0}. Save the drawing somewhere else before closing?",
                                              unsaved, document.name),
                     answers: [localized("Close Without Saving"), localized("Cancel"), localized("Save As…")]) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case 0:
                self.closeConfirmed = true
                self.closeDocument()
                self.window.closeWindow()
            case 2:
                self.perform(.saveAs)
            default:
                break
            }
        }
    }

    /// Flushes the file and forgets an untitled drawing that never got any ink.
    func closeDocument() { session.close() }

    func switchTo(_ next: OpenDocument, keepEditor: Bool = false) {
        stopTimer(&retryTimer)
        banner.hide()
        session.replace(with: next, keepEditor: keepEditor)
        showDocument()
    }

    /// Loads a drawing in the background (a big file takes a moment), then shows it; `opened` runs after.
    func open(_ path: String, opened: (() -> Void)? = nil) {
        if path == document.path { return }
        banner.show(.info, localized("Opening {0}…", (path as NSString).lastPathComponent), action: nil)
        backgroundQueue.async { [weak self] in
            let result = MainLoopHandoff(value: Result { try Documents.open(path) })
            onMainLoop { [weak self] in
                guard let self else { return }
                switch result.value {
                case .success(let doc):
                    self.switchTo(doc)
                    opened?()
                case .failure(let error):
                    self.banner.show(.error, "\(error)", action: nil)
                }
            }
        }
    }

    func saveAs(_ path: String) {
        let old = document
        do {
            let next = try session.saveCopy(to: path)
            switchTo(next, keepEditor: true)
            // A named copy exists now, so the untitled original is no longer something to recover.
            if old.isUntitled, old.path != next.path { Documents.remove(old.path) }
        } catch {
            banner.show(.error, "\(error)", action: nil)
        }
    }

    func export(to path: String) {
        // The extension picks the format; Xournal++ users can take the drawing back as .xopp.
        let isXopp = (path as NSString).pathExtension.lowercased() == "xopp"
        let target = ExportFormat(path: path) == nil && !isXopp ? path + ".png" : path
        let format = ExportFormat(path: target)
        let drawing = MainLoopHandoff(value: session.drawing)
        // A document on a PDF: the PDF export holds every page with the original under the ink, PNG and SVG the
        // current page over its PDF page.
        let onPDF = session.document.pages.contains { $0.background.pdf != nil }
        let document = MainLoopHandoff(value: (session.document, session.page))
        banner.show(.info, localized("Exporting {0}…", (target as NSString).lastPathComponent), action: nil)
        backgroundQueue.async { [weak self] in
            var failure: String?
            do {
                if onPDF, format == .pdf {
                    try Exporter.writePDF(document.value.0, to: target)
                } else if onPDF, let format {
                    let (doc, page) = document.value
                    try Exporter.write(page, to: target, format: format, backdrop: PDFBackdrop.of(page, in: doc))
                } else if let format {
                    try Exporter.write(drawing.value, to: target, format: format)
                } else {
                    // A .xopp is a whole document, as `oekaki export` writes it: every page with its paper and PDF,
                    // and the pictures' bytes (a lone drawing has no embedded files).
                    try XoppExport.write(document.value.0, to: target, jpegAsPNG: ImageDecoder.pngBytes)
                }
            } catch { failure = "\(error)" }
            let message = MainLoopHandoff(value: failure)
            onMainLoop { [weak self] in
                guard let self else { return }
                if let m = message.value {
                    self.banner.show(.error, localized("Export failed: {0}", m), action: nil)
                } else {
                    self.banner.show(.info, localized("Exported to {0}", Documents.abbreviated(target)), action: nil, autoHide: true)
                }
            }
        }
    }
}
