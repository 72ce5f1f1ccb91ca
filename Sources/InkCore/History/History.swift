/// Undo and redo stacks of edits. A new edit empties the redo stack.
public struct History: Sendable {
    public private(set) var undoStack: [Edit] = []
    public private(set) var redoStack: [Edit] = []

    public init(undo: [Edit] = [], redo: [Edit] = []) { undoStack = undo; redoStack = redo }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    public mutating func record(_ edit: Edit) {
        undoStack.append(edit)
        redoStack.removeAll()
    }

    /// Pops the edit to undo; the caller applies `edit.inverse`.
    public mutating func undo() -> Edit? {
        guard let e = undoStack.popLast() else { return nil }
        redoStack.append(e)
        return e
    }

    /// Pops the edit to redo; the caller applies it again.
    public mutating func redo() -> Edit? {
        guard let e = redoStack.popLast() else { return nil }
        undoStack.append(e)
        return e
    }

    /// Takes the last edit back out of the history, as if it had never been made (a palm's stroke the pen's
    /// arrival showed to be a palm): the caller applies `edit.inverse`; nothing is left to redo.
    public mutating func withdrawLast() -> Edit? { undoStack.popLast() }

    /// Points held by all edits: the memory the history costs.
    public var pointCount: Int { (undoStack + redoStack).reduce(0) { $0 + $1.pointCount } }
}
