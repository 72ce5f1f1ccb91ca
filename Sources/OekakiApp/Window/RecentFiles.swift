import CGtk
import Foundation

/// The desktop's recently used files (GtkRecentManager, shared with the file chooser and other apps): Oekaki adds
/// what it opens and saves, and lists its own kinds of file in the Open menu.
enum RecentFiles {
    /// Extensions Oekaki opens.
    static let extensions: Set<String> = ["oekaki", "xopp"]

    static func add(_ path: String) {
        guard let manager = gtk_recent_manager_get_default(),
              let uri = g_filename_to_uri(path, nil, nil) else { return }
        defer { g_free(uri) }
        gtk_recent_manager_add_item(manager, uri)
    }

    /// Local drawings that still exist, most recently used first.
    static func list(limit: Int = 10) -> [String] {
        guard let manager = gtk_recent_manager_get_default() else { return [] }
        var found: [(path: String, used: Int)] = []
        let items = gtk_recent_manager_get_items(manager)
        var node = items
        while let n = node {
            if let info = n.pointee.data.map(OpaquePointer.init) {
                if gtk_recent_info_is_local(info) != 0, let uri = gtk_recent_info_get_uri(info),
                   let file = g_filename_from_uri(uri, nil, nil) {
                    let path = String(cString: file)
                    g_free(file)
                    let used = gtk_recent_info_get_modified(info).map { Int(g_date_time_to_unix($0)) } ?? 0
                    if extensions.contains((path as NSString).pathExtension.lowercased()),
                       FileManager.default.fileExists(atPath: path), !Documents.isUntitled(path) {
                        found.append((path, used))
                    }
                }
                gtk_recent_info_unref(info)
            }
            node = n.pointee.next
        }
        g_list_free(items)
        return Array(found.sorted { $0.used > $1.used }.prefix(limit).map(\.path))
    }
}
