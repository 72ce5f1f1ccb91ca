/// Keeps the hand that holds the pen off the page: while the pen is near the screen, and for `delay` after it
/// lifts or leaves, touches neither draw nor navigate; a touch that began up to `lookBack` before the pen arrived
/// (the palm lands a moment before the nib) is taken back as if it never happened. Judged on the events' own
/// clock (`InkPoint.time`, ms), so a replayed log is judged as the app was.
///
/// "Near" is what the device says (proximity in/out); a pen whose device never says so counts as near while it
/// is down and moving. A touch is judged when it begins: one that began before the pen came (and more than
/// `lookBack` before) is a finger's deliberate stroke and is left to finish.
public struct PalmRejection: Hashable, Sendable {
    /// Off: touches are never judged (the preference, or a log recorded without proximity events).
    public var enabled: Bool
    /// How long after the pen lifts or leaves touches stay blocked (ms).
    public var delay: Double
    /// How long before the pen arrives a touch may have begun and still be taken back (ms).
    public var lookBack: Double

    public static let defaultDelay = 500.0
    public static let defaultLookBack = 300.0
    /// The delays the preference offers (ms).
    public static let delayRange = 0.0...2000.0

    /// The pen said it is near (proximity in, no proximity out since).
    public private(set) var hovering = false
    /// Pen pointers down now (a pen without proximity events is near while one is).
    public private(set) var pensDown: Set<PointerID> = []
    /// When the pen last lifted or left (ms), while it is not near.
    public private(set) var leftAt: Double?
    /// Touches down now that were let through, with when they began.
    private var touches: [PointerID: Double] = [:]
    /// Touches down now that were refused: the rest of their events are dropped too.
    private var refused: Set<PointerID> = []

    public init(enabled: Bool = true, delay: Double = PalmRejection.defaultDelay, lookBack: Double = PalmRejection.defaultLookBack) {
        self.enabled = enabled; self.delay = delay; self.lookBack = lookBack
    }

    public var penIsNear: Bool { hovering || !pensDown.isEmpty }

    /// Whether a touch beginning at `time` is refused: the pen is near, or left less than `delay` ago.
    public func blocksTouch(at time: Double) -> Bool {
        guard enabled else { return false }
        if penIsNear { return true }
        guard let left = leftAt else { return false }
        return time - left < delay
    }

    /// What happened to the pen's nearness at `time`. Returns the touches down now that began up to `lookBack`
    /// before the pen arrived (to be cancelled), and when it arrived (nil: it did not, or palm rejection is off).
    public mutating func proximity(near: Bool, at time: Double) -> (cancel: [PointerID], arrived: Double?) {
        let was = penIsNear
        hovering = near
        return changed(from: was, at: time)
    }

    /// A pen sample: it is down (and so near) from `began` until `ended`/`cancelled`.
    public mutating func pen(_ event: InputEvent) -> (cancel: [PointerID], arrived: Double?) {
        let was = penIsNear
        switch event.phase {
        case .began, .moved: pensDown.insert(event.pointer)
        case .ended, .cancelled: pensDown.remove(event.pointer)
        }
        return changed(from: was, at: event.point.time)
    }

    /// Whether a touch event goes on to draw (or navigate). A touch is judged once, when it begins; the rest of
    /// a refused touch's events are refused with it. Touches are followed even while off, so a pen arriving
    /// just after palm rejection is turned on (a log's first `proximity` line) still takes a palm back.
    public mutating func admits(_ event: InputEvent) -> Bool {
        let id = event.pointer
        let done = event.phase == .ended || event.phase == .cancelled
        if refused.contains(id) {
            if done { refused.remove(id) }
            return false
        }
        if event.phase == .began {
            if blocksTouch(at: event.point.time) {
                touches[id] = nil
                refused.insert(id)
                return false
            }
            touches[id] = event.point.time
        }
        if done { touches[id] = nil }
        return true
    }

    /// Forgets a touch that was taken back (its later events are dropped).
    public mutating func refuse(_ id: PointerID) {
        touches[id] = nil
        refused.insert(id)
    }

    private mutating func changed(from was: Bool, at time: Double) -> (cancel: [PointerID], arrived: Double?) {
        let now = penIsNear
        if was && !now { leftAt = time }
        guard !was && now else { return ([], nil) }
        leftAt = nil
        guard enabled else { return ([], nil) }
        let late = touches.filter { time - $0.value <= lookBack }.map(\.key).sorted()
        for id in late { refuse(id) }
        return (late, time)
    }
}
