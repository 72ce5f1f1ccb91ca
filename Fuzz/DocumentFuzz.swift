// libFuzzer harness: the .oekaki document loader, read-only (SQLite file → validated Drawing + History),
// on the same path `oekaki info` and the app's open take. The input is written to a temp file per run.
import Foundation
import InkCore
import InkStore

private let file = fuzzInputPath("input.oekaki")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    unlink(file + "-wal"); unlink(file + "-shm")
    writeFuzzInput(data, size, to: file)
    do {
        let doc = try DocumentLoader.load(path: file)
        for page in doc.document.pages { for layer in page.layers { checkStrokes(layer.drawing.strokes) } }
        // The history must replay onto the document: undo all then redo all never crashes.
        let editor = Editor(document: doc.document, history: doc.history)
        while editor.history.canUndo { _ = editor.undo() }
        while editor.history.canRedo { _ = editor.redo() }
        _ = DrawingSummary(editor.document).json()
    } catch is StoreError {
        // refused with a message: fine
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
