import InkCore

/// The replica's page order: each shown page's key in the board's order (`PageKey`), and the document's pages
/// kept in that order by `movePage` edits applied as every edit is.
extension BoardReplica {
    /// Puts the shown pages in key order (ties by global id).
    mutating func arrange() {
        let sorted = document.pages.sorted { a, b in
            (keys[a.id] ?? .first, boardPageID(a.id)) < (keys[b.id] ?? .first, boardPageID(b.id))
        }
        var ids = document.pages.map(\.id)
        for (i, p) in sorted.enumerated() where ids[i] != p.id {
            guard let j = ids.firstIndex(of: p.id) else { continue }
            follow(.movePage(from: j, to: i))
            ids.insert(ids.remove(at: j), at: i)
            pagesTouched = true
        }
    }

    /// Gives every shown page a key that fits the local page order, changing as few keys as possible (those not in
    /// the longest run of keys already in order): a moved page gets a new key, the others keep theirs.
    mutating func fixKeys() { Self.fitKeys(document.pages.map(\.id), &keys) }

    /// The same for any ordered ids (a page's layers too).
    static func fitKeys(_ ids: [UInt64], _ keys: inout [UInt64: PageKey]) {
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: ids.count)
        for (i, id) in ids.enumerated() {
            guard let k = keys[id] else { continue }
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if keys[ids[tails[mid]]]! < k { lo = mid + 1 } else { hi = mid }
            }
            previous[i] = lo > 0 ? tails[lo - 1] : -1
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var kept = Set<Int>()
        var j = tails.last ?? -1
        while j >= 0 { kept.insert(j); j = previous[j] }
        var lower: PageKey?
        var i = 0
        while i < ids.count {
            if kept.contains(i) { lower = keys[ids[i]]; i += 1; continue }
            var end = i
            while end < ids.count && !kept.contains(end) { end += 1 }
            let upper = end < ids.count ? keys[ids[end]] : nil
            for r in i..<end {
                let k = PageKey.between(lower, upper)
                keys[ids[r]] = k
                lower = k
            }
            i = end
        }
    }
}
