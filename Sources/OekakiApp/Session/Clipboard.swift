import InkCore

/// What copy and cut took, shared by every window of the process, so a paste puts another document's strokes
/// down (with the bytes of the pictures among them, which the other document may not hold). The desktop's
/// clipboard (`SystemClipboard`) carries the same strokes to other processes; this is the app's own.
enum Clipboard {
    nonisolated(unsafe) static var strokes: [Stroke] = []
    nonisolated(unsafe) static var files: [ContentHash: [UInt8]] = [:]
}
