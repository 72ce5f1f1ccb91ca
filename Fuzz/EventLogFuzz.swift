// libFuzzer harness: the event-log parser and its replay into an Editor (the path `oekaki replay` takes).
// Built by Fuzz/fuzz.sh against InkCore; not part of the SwiftPM package.
import InkCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Feed in two chunks split at a data-chosen point, so lines that straddle chunks are exercised too.
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var replay = EventLogReplay()
    do {
        try replay.feed(Array(bytes[..<cut]))
        try replay.feed(Array(bytes[cut...]))
        let editor = try replay.finish()
        check(editor)
    } catch is EventLogError {
        // A bad line is an expected outcome; the editor must still be consistent up to it.
        check(replay.editor)
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}

/// Invariants of any editor state: strokes in drawing order (order, id), each with finite points, undo-all/redo-all round trip.
private func check(_ editor: Editor) {
    _ = editor.cancelAll()
    let strokes = editor.drawing.strokes
    checkStrokes(strokes)
    // A replay starts from one empty page of one layer, so undoing every edit gives that back (pages and layers
    // added are taken away again); redoing as many edits as were undone brings back exactly the same strokes
    // (ids and points) on every page and layer.
    func ink(_ d: Document) -> [[[String]]] {
        d.pages.map { p in p.layers.map { l in l.drawing.strokes.map { "\($0.id) \($0.points.count)" } } }
    }
    let before = ink(editor.document)
    let undoable = editor.history.undoStack.count
    for _ in 0..<undoable { _ = editor.undo() }
    let pages = editor.document.pages
    if editor.history.canUndo || pages.count != 1 || pages[0].layers.count != 1 || !pages[0].strokes.isEmpty {
        fatalError("undo all did not give back the empty page")
    }
    for _ in 0..<undoable { _ = editor.redo() }
    if ink(editor.document) != before { fatalError("undo all + redo all changed the document") }
    _ = DrawingSummary(editor.drawing).json()
}
