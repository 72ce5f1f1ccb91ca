public typealias PointerID = Int64

/// One pointer sample in page coordinates, as the app (or an event log) delivers it, with everything the editor
/// needs to read it: which end of a stylus it came from and how far, at the zoom it was made, a pointer may move
/// and still rest or tap. Nothing about an input is set on the editor as state.
public struct InputEvent: Hashable, Sendable {
    public enum Phase: String, Sendable, CaseIterable { case began, moved, ended, cancelled }
    public enum Device: String, Sendable, CaseIterable { case pen, touch, mouse }

    /// 3 screen pixels at 100 %: what an event log (replayed at 100 %) uses for both radii.
    public static let defaultRadius = 3.0
    /// 20 screen pixels at 100 %: how near a guide a stroke must begin to follow it.
    public static let defaultGuideRadius = 20.0

    public var pointer: PointerID
    public var phase: Phase
    public var point: InkPoint
    public var device: Device
    /// False when the device reported no pressure; the shaper then simulates it from speed.
    public var hasPressure: Bool
    /// The stylus is held upside down: the gesture that begins with this event erases whole strokes, whatever
    /// tool is chosen (the tool is picked when a pointer goes down, so only `began` reads it).
    public var eraserEnd: Bool
    /// The tool a stylus's eraser end or barrel button picks for this gesture (preferences), whatever is chosen;
    /// nil: the chosen tool (or the stroke eraser for an eraser end). Read when the pointer goes down.
    public var tool: Tool?
    /// How far (page units) a resting pointer may wander and still hold: 3 screen pixels at the event's zoom.
    public var holdRadius: Double
    /// How far (page units) a pointer may move and still be a tap: 3 screen pixels at the event's zoom.
    public var tapRadius: Double
    /// How far (page units) from a ruler's, set square's or compass's edge a pen stroke may begin and still
    /// follow it: 20 screen pixels at the event's zoom.
    public var guideRadius = InputEvent.defaultGuideRadius

    public init(pointer: PointerID, phase: Phase, point: InkPoint, device: Device = .touch, hasPressure: Bool? = nil,
                eraserEnd: Bool = false, holdRadius: Double = InputEvent.defaultRadius, tapRadius: Double = InputEvent.defaultRadius) {
        self.pointer = pointer; self.phase = phase; self.point = point; self.device = device
        self.hasPressure = hasPressure ?? (device == .pen)
        self.eraserEnd = eraserEnd; self.holdRadius = holdRadius; self.tapRadius = tapRadius
    }
}
