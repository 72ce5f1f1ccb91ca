/// A position on the page, in page units (1 unit = 1 px at zoom 1 = 1 pt in PDF).
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to p: Point) -> Double { (self - p).length }
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// An axis-aligned rectangle stored as min/max corners, so unions and hit tests stay cheap.
public struct Rect: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }
    public init(around p: Point, radius r: Double) {
        self.init(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)
    }
    /// The smallest rect holding all points, or nil for none.
    public init?<S: Sequence>(bounding points: S) where S.Element == Point {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var r = Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        while let p = it.next() { r.include(p) }
        self = r
    }
    /// Union of all rects, nil for none.
    public static func union<S: Sequence>(of rects: S) -> Rect? where S.Element == Rect {
        var out: Rect?
        for r in rects { out = out.map { $0.union(r) } ?? r }
        return out
    }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var isEmpty: Bool { !(maxX >= minX && maxY >= minY) }
    public mutating func include(_ p: Point) {
        minX = Swift.min(minX, p.x); minY = Swift.min(minY, p.y)
        maxX = Swift.max(maxX, p.x); maxY = Swift.max(maxY, p.y)
    }
    public func union(_ o: Rect) -> Rect {
        Rect(minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
             maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }
    public func offsetBy(_ d: Point) -> Rect { Rect(minX: minX + d.x, minY: minY + d.y, maxX: maxX + d.x, maxY: maxY + d.y) }
    public func insetBy(_ d: Double) -> Rect { Rect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d) }
    /// The whole pixels it touches: edges moved outward to integers.
    public var roundedOut: Rect {
        Rect(minX: minX.rounded(.down), minY: minY.rounded(.down), maxX: maxX.rounded(.up), maxY: maxY.rounded(.up))
    }
    public func intersects(_ o: Rect) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }
    public func intersection(_ o: Rect) -> Rect? {
        let r = Rect(minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY),
                     maxX: Swift.min(maxX, o.maxX), maxY: Swift.min(maxY, o.maxY))
        return r.isEmpty ? nil : r
    }
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
}
