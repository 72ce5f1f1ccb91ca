import CGtk
import Foundation
import InkCore
import InkRender
import Localization

/// Pictures coming in: Insert Image… (a file chooser), a PNG or JPEG file dropped on the window, and `image/png`
/// pasted from another app. Each becomes one image item on the current page, fitted into the visible part of the
/// page, selected (so moving, resizing and deleting are the selection's), one undoable edit; its bytes are
/// embedded once per content.
extension MainWindow {
    /// File names a drop inserts as pictures (the content decides in the end).
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg"]

    static func isImage(_ path: String) -> Bool { imageExtensions.contains((path as NSString).pathExtension.lowercased()) }

    func chooseImageToInsert() {
        FileDialogs.choose(.insertImage, parent: window, folder: dialogFolder) { [weak self] path in self?.insertImage(file: path) }
    }

    /// Page menu ▸ Picture…: the chosen picture stretched over the page (every page with "Apply … to all pages").
    func choosePagePicture() {
        // A picture is stretched over a page's size: an endless page has none.
        guard session.page.size != nil || pageMenu.isAllPages else {
            banner.show(.warning, localized("An endless page has no size to stretch a picture over: choose a size for it first"), action: nil, autoHide: true)
            return
        }
        FileDialogs.choose(.pagePicture, parent: window, folder: dialogFolder) { [weak self] path in
            self?.readImage(file: path) { [weak self] bytes, name in
                guard let self, self.checkImage(bytes, name: name) != nil else { return }
                self.session.setPagePicture(bytes, allPages: self.pageMenu.isAllPages)
            }
        }
    }

    /// Reads the file off the GTK thread (a large photo takes a moment), then inserts it.
    func insertImage(file path: String, atView point: Point? = nil) {
        readImage(file: path) { [weak self] bytes, name in self?.insertImage(bytes, name: name, atView: point) }
    }

    /// A picture file's bytes, read off the GTK thread and handed to `then` on it; a file too large or unreadable
    /// is one line in the banner.
    private func readImage(file path: String, then: @escaping ([UInt8], String) -> Void) {
        let name = (path as NSString).lastPathComponent
        backgroundQueue.async { [weak self] in
            let read: Result<[UInt8], Error> = Result {
                let attrs = try FileManager.default.attributesOfItem(atPath: path)
                let size = (attrs[.size] as? NSNumber)?.intValue ?? 0
                guard size <= Self.maxImageBytes else { throw ImageError.damaged("\(size / 1_000_000) MB is over the \(Self.maxImageBytes / 1_000_000) MB limit") }
                return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            onMainLoop { [weak self] in
                guard let self else { return }
                switch read {
                case .success(let bytes): then(bytes, name)
                case .failure(let e): self.banner.show(.warning, localized("{0} cannot be inserted: {1}", name, Self.oneLine(e)), action: nil, autoHide: true)
                }
            }
        }
    }

    /// Checks and decodes the picture (decoded once, here: the first frame then finds it in the cache); nil, and
    /// one line in the banner, when it cannot be drawn.
    private func checkImage(_ bytes: [UInt8], name: String) -> ImageHeader? {
        do {
            let header = try ImageHeader(reading: bytes)
            let hash = ContentHash(of: bytes)
            ImagePainter.shared.provide(hash: hash, bytes: bytes)
            if let problem = ImagePainter.shared.prepare(hash) { throw problem }
            return header
        } catch {
            banner.show(.warning, localized("{0} cannot be inserted: {1}", name, Self.oneLine(error)), action: nil, autoHide: true)
            return nil
        }
    }

    /// The largest image file taken in (bigger ones are refused before they are read).
    static let maxImageBytes = 100 << 20

    /// Checks and decodes the picture (so a damaged one is refused now, in one line, not drawn as a grey box),
    /// then inserts it selected.
    func insertImage(_ bytes: [UInt8], name: String, atView point: Point? = nil) {
        guard let header = checkImage(bytes, name: name) else { return }
        if let problem = session.insertImage(bytes, header: header, visible: canvas.visiblePageRect, centre: point.map(canvas.pagePoint(fromView:))) {
            banner.show(.warning, problem, action: nil, autoHide: true)
            return
        }
        grabSelection()
    }

    /// A PNG another app put on the clipboard.
    func pasteForeignImage() {
        SystemClipboard.read("image/png", for: canvas.widget) { [weak self] bytes in
            guard let self else { return }
            guard let bytes, !bytes.isEmpty else {
                self.banner.show(.warning, localized("The picture on the clipboard could not be read."), action: nil, autoHide: true)
                return
            }
            self.insertImage(bytes, name: localized("The pasted picture"))
        }
    }

    /// Test hook: `OEKAKI_INSERT_IMAGE=FILE` inserts FILE into the first window once it is laid out, the same
    /// path the file chooser's answer takes (window tests cannot drive a native chooser).
    func insertImageFromEnvironment() {
        guard let path = ProcessInfo.processInfo.environment["OEKAKI_INSERT_IMAGE"], !Self.environmentImageInserted else { return }
        Self.environmentImageInserted = true
        every(milliseconds: 300) { [weak self] in
            self?.insertImage(file: path)
            return false
        }
    }

    nonisolated(unsafe) private static var environmentImageInserted = false

    static func oneLine(_ e: Error) -> String {
        "\(e)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(e)"
    }
}
