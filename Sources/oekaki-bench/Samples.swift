import Dispatch

/// Repeated measurements of one figure, in the figure's unit.
struct Samples {
    private(set) var values: [Double] = []
    init(_ values: [Double] = []) { self.values = values }

    mutating func add(_ v: Double) { values.append(v) }
    var count: Int { values.count }
    var isEmpty: Bool { values.isEmpty }

    /// Nearest-rank percentile (p in 0…100): the smallest value with at least p % of the samples at or below it.
    func percentile(_ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let rank = Int((p / 100 * Double(s.count)).rounded(.up))
        return s[Swift.min(Swift.max(rank, 1), s.count) - 1]
    }
    var median: Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }
    var p99: Double? { percentile(99) }
    /// The same samples in another unit (per million points, say).
    func scaled(by k: Double) -> Samples { Samples(values.map { $0 * k }) }
    var min: Double? { values.min() }
    var max: Double? { values.max() }
}

/// Monotonic time.
enum Clock {
    static func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` and returns its result and the time it took in milliseconds.
    static func ms<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let t0 = nanoseconds()
        let r = try body()
        return (r, Double(nanoseconds() - t0) / 1e6)
    }
}
