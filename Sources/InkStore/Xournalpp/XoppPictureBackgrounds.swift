import Foundation
import InkCore

/// Xournal++'s image backgrounds (`<background type="pixmap" domain=… filename=…>`): a picture stretched over the
/// page. Xournal++ keeps the picture outside the XML: beside a `.xopp` as `NAME.xopp.FILE` ("attach"), inside a
/// zip package as member FILE ("attach" there), at a path of its own ("absolute"), or as the picture of an
/// earlier page, FILE being that page's 0-based number ("clone").
struct XoppPictureBackgrounds {
    /// The `.xopp` read (attachments sit beside it), nil for bytes without a path.
    let xopp: String?
    /// The zip package the XML came from, whose members are its attachments.
    let package: [UInt8]?
    /// Pictures already read, by where they came from (a hundred pages of one picture read it once).
    private var read: [String: ContentHash] = [:]
    /// Backgrounds whose picture was missing, unreadable or not a PNG or JPEG within `ImageLimits`.
    private(set) var failed = 0

    /// Largest picture file read.
    static let maxBytes = 256 << 20

    init(xopp: String?, package: [UInt8]?) { self.xopp = xopp; self.package = package }

    /// The picture a pixmap background shows, its bytes kept once in `files`; nil (counted in `failed`) when there is
    /// none to show. `earlier`: the picture of a page before this one (by its 0-based number), for "clone".
    mutating func picture(domain: String?, filename: String?, earlier: (Int) -> ContentHash?, files: inout [ContentHash: [UInt8]]) -> ContentHash? {
        guard let name = filename, !name.isEmpty else { failed += 1; return nil }
        if domain == "clone" {
            guard let k = Int(name), k >= 0, let h = earlier(k) else { failed += 1; return nil }
            return h
        }
        let key = "\(domain ?? "")\u{0}\(name)"
        if let h = read[key] { return h }
        guard let bytes = self.bytes(domain: domain, name: name), let (h, _) = XoppImport.embed(bytes, files: &files) else { failed += 1; return nil }
        read[key] = h
        return h
    }

    private func bytes(domain: String?, name: String) -> [UInt8]? {
        if domain == "attach" {
            if let package { return try? ZipPackage.member(name, in: package, limit: Self.maxBytes) }
            return xopp.flatMap { Self.file($0 + "." + name) }
        }
        // "absolute": the path as written; a relative one, or one from another machine, also beside the .xopp.
        return XoppImport.sidePaths(name, domain: domain, xopp: xopp).lazy.compactMap(Self.file).first
    }

    /// A regular file only: a path the file names may be a FIFO or a device, where reading would wait or never end.
    private static func file(_ path: String) -> [UInt8]? {
        guard let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
              type == .typeRegular else { return nil }
        return FileBytes.read(path, limit: maxBytes)
    }
}
