public typealias PointerID = Int64

/// One pointer sample in page coordinates, as the app (or an event log) delivers it.
public struct InputEvent: Hashable, Sendable {
    public enum Phase: String, Sendable, CaseIterable { case began, moved, ended, cancelled }
    public enum Device: String, Sendable, CaseIterable { case pen, touch, mouse }

    public var pointer: PointerID
    public var phase: Phase
    public var point: InkPoint
    public var device: Device
    /// False when the device reported no pressure; the shaper then simulates it from speed.
    public var hasPressure: Bool

    public init(pointer: PointerID, phase: Phase, point: InkPoint, device: Device = .touch, hasPressure: Bool? = nil) {
        self.pointer = pointer; self.phase = phase; self.point = point; self.device = device
        self.hasPressure = hasPressure ?? (device == .pen)
    }
}
