/// One input sample as stored in a stroke.
public struct InkPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    /// 0…1; 0.5 is "no pressure information".
    public var pressure: Double
    /// Milliseconds, from whatever clock the device uses; only differences matter.
    public var time: Double

    public init(x: Double, y: Double, pressure: Double = 0.5, time: Double = 0) {
        self.x = x; self.y = y; self.pressure = pressure; self.time = time
    }
    public var point: Point { Point(x, y) }
}
