/// A stroke's points as columns: x, y and pressure side by side (times only when asked for).
///
/// What a file's points decode into when they are only to be drawn small (a thumbnail): no `InkPoint`s and no
/// `Stroke` are built, and one value is reused from stroke to stroke, so decoding a stroke allocates nothing.
/// The values are exactly the `InkPoint` fields the same blob decodes to.
public struct PointColumns: Sendable {
    public var x: [Double] = []
    public var y: [Double] = []
    /// 0…1.
    public var pressure: [Double] = []
    /// Empty unless the decoder was asked to keep times.
    public var time: [Double] = []

    public init() {}

    public var count: Int { x.count }

    /// Empties the columns, keeping their storage for the next stroke.
    public mutating func removeAll() {
        x.removeAll(keepingCapacity: true); y.removeAll(keepingCapacity: true)
        pressure.removeAll(keepingCapacity: true); time.removeAll(keepingCapacity: true)
    }
}
