/// Feeds an event log into an `Editor` through the same calls the app makes (`handle`, `undo`, `redo`,
/// `clear`, `setPageSize`). Input arrives in chunks of any size, so a log of any length replays in
/// memory bounded by the longest line (at most `EventLog.maxLineBytes`) plus the drawing itself.
///
/// At the end of the log, gestures that never ended (touches without `ended`, an eraser still down) are
/// discarded, exactly as a cancel would: they were never finished, so they are not part of the drawing.
public struct EventLogReplay {
    public let editor: Editor
    /// What the log's copy and cut took (the app keeps its clipboard outside the editor too).
    private let clipboard = ReplayClipboard()
    /// Lines read so far (the number of the last complete line).
    public private(set) var lineNumber = 0
    /// Events applied so far (blank lines do not count).
    public private(set) var eventCount = 0
    private var pending: [UInt8] = []

    /// Whether touches are judged against the pen (palm rejection): from the log's first `proximity` line or first
    /// touch line that names `"device":"touch"` (a pen-aware source, as the app is: there a pen without proximity
    /// events is near while it moves), so logs recorded before there was palm rejection (pens and fingers without
    /// a device drawing together) replay as they did.
    private let judgesTouches = ReplayFlag()

    public init(editor: Editor = Editor()) {
        self.editor = editor
        editor.palmRejection.enabled = false
    }

    /// Replays a whole log held in memory.
    public static func replay(_ text: String, into editor: Editor = Editor()) throws -> Editor {
        var r = EventLogReplay(editor: editor)
        try r.feed(Array(text.utf8))
        return try r.finish()
    }

    /// Consumes the next bytes of the log; throws `EventLogError` at the first bad line.
    public mutating func feed(_ chunk: [UInt8]) throws {
        var start = 0
        let n = chunk.count
        while start < n {
            guard let nl = chunk[start...].firstIndex(of: 0x0A) else { break }
            if pending.isEmpty {
                try line(chunk, start..<nl)
            } else {
                try checkLength(pending.count + (nl - start))
                pending.append(contentsOf: chunk[start..<nl])
                try line(pending, 0..<pending.count)
                pending.removeAll(keepingCapacity: true)
            }
            start = nl + 1
        }
        if start < n {
            try checkLength(pending.count + (n - start))
            pending.append(contentsOf: chunk[start..<n])
        }
    }

    /// Handles a last line without a newline, discards unfinished gestures, and returns the editor.
    public mutating func finish() throws -> Editor {
        if !pending.isEmpty {
            let last = pending
            pending = []
            try line(last, 0..<last.count)
        }
        _ = editor.cancelAll()
        return editor
    }

    private func checkLength(_ count: Int) throws {
        if count > EventLog.maxLineBytes {
            throw EventLogError(line: lineNumber + 1, wording: Wording("line is longer than {0} bytes", EventLog.maxLineBytes))
        }
    }

    private mutating func line(_ bytes: [UInt8], _ range: Range<Int>) throws {
        lineNumber += 1
        try checkLength(range.count)
        var range = range
        // Editors on some systems start files with a UTF-8 byte-order mark; it is not part of the JSON.
        if lineNumber == 1, range.count >= 3, bytes[range.lowerBound] == 0xEF, bytes[range.lowerBound + 1] == 0xBB,
           bytes[range.lowerBound + 2] == 0xBF {
            range = (range.lowerBound + 3)..<range.upperBound
        }
        let event: LogEvent?
        do {
            event = try EventLog.event(bytes, range)
        } catch let e as EventLog.LineError {
            throw EventLogError(line: lineNumber, wording: e.wording)
        }
        guard let event else { return }
        eventCount += 1
        if !judgesTouches.value, case .touch(let e) = event, e.device == .touch, Self.names(Self.deviceKey, in: bytes, range) {
            judgeTouches()
        }
        do {
            try apply(event)
        } catch let e as SelectionError {
            throw EventLogError(line: lineNumber, wording: e.wording)
        } catch let e as LayerError {
            throw EventLogError(line: lineNumber, wording: e.wording)
        }
    }

    private func judgeTouches() {
        guard !judgesTouches.value else { return }
        judgesTouches.value = true
        editor.palmRejection.enabled = true
    }

    private static let deviceKey = Array(#""device""#.utf8)

    /// Whether the (valid JSON) line has the key `key` (a touch line has no other strings it could hide in).
    private static func names(_ key: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard range.count >= key.count else { return false }
        var i = range.lowerBound
        while i + key.count <= range.upperBound {
            if bytes[i] == key[0], bytes[i..<(i + key.count)].elementsEqual(key) { return true }
            i += 1
        }
        return false
    }

    /// Applies one event to the editor, as the app would. Throws `SelectionError` for a selection operation
    /// that would leave the page limits, `LayerError` for a layer that is not there (nothing is changed).
    public func apply(_ event: LogEvent) throws {
        switch event {
        case .touch(var e):
            // A log is replayed at 100 %: a hold and a tap are 3 units, as the app's are 3 pixels at its zoom.
            e.holdRadius = InputEvent.defaultRadius
            e.tapRadius = InputEvent.defaultRadius
            e.guideRadius = InputEvent.defaultGuideRadius
            _ = editor.handle(e)
        case .tool(let tool, let color, let width, let recognize, let fill, let line, let curve, let stabilizer):
            if let curve { editor.pressureCurve = curve }
            if let stabilizer { editor.stabilizer = stabilizer }
            // Shape tools draw with the pen's style, so their colour, width, fill and dashes are the pen's.
            editor.tool = tool
            if let c = color { editor.style.color = c }
            if let w = width { editor.style.width = w }
            if let f = fill { editor.style.fill = f < 0 ? nil : UInt8(f) }
            if let l = line { editor.style.line = l }
            if let r = recognize { editor.recognizeShapes = r }
        case .proximity(let near, let time):
            // A log that speaks of proximity came from a pen-aware source: from here on its touches are judged.
            judgeTouches()
            _ = editor.proximity(near: near, at: time)
        case .undo: _ = editor.undo()
        case .redo: _ = editor.redo()
        case .clear: _ = editor.clear()
        case .canvas(let size): editor.setPageSize(size)
        case .selection(let op):
            if let taken = editor.clipped(by: op) { clipboard.strokes = taken }
            try editor.apply(op, pasting: clipboard.strokes)
        case .guide(let command): editor.apply(command)
        case .page(let command):
            switch command {
            case .add(let size, let style):
                var format = editor.page.format
                if let size { format.size = size }
                if let style { format.background = Background(style: style, paper: format.background.paper) }
                _ = editor.addPage(format)
            case .delete(let index):
                if let index {
                    // A page that is not there is nothing to delete (as in the app).
                    guard index <= editor.document.pages.count else { return }
                    _ = editor.goToPage(index - 1)
                }
                _ = editor.deletePage()
            case .next: _ = editor.goToPage(editor.currentPage + 1)
            case .previous: _ = editor.goToPage(editor.currentPage - 1)
            case .goTo(let index): _ = editor.goToPage(index - 1)
            }
        case .layer(let command):
            switch command {
            case .add(let name, let allPages): editor.addLayer(named: name, allPages: allPages)
            case .select(let index):
                guard index <= editor.page.layers.count else {
                    throw LayerError("page {0} has no layer {1} (it has {2})", editor.currentPage + 1, index, editor.page.layers.count)
                }
                editor.selectLayer(index - 1)
            case .hide(let r): try editor.setLayerVisible(r.target, false)
            case .show(let r): try editor.setLayerVisible(r.target, true)
            case .delete(let r): try editor.deleteLayer(r.target)
            case .up(let r): try editor.moveLayer(r.target, by: 1)
            case .down(let r): try editor.moveLayer(r.target, by: -1)
            case .rename(let index, let name): try editor.renameLayer(.index(index - 1), to: name)
            case .move(let index): try editor.moveSelection(toLayer: index - 1)
            }
        }
    }
}

/// A replay's switch, a reference so `apply` stays non-mutating.
private final class ReplayFlag {
    var value = false
}

/// A replay's clipboard: a reference, so `apply` stays non-mutating as the app's calls are.
private final class ReplayClipboard {
    var strokes: [Stroke] = []
}
