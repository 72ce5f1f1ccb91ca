import InkCore

/// Pressure fix-ups for one pen stroke, as tablets report it through GDK:
/// - the pen-down sample often carries pressure 0 (X11 tablets send the press before the pressure axis
///   updates), which would start every line with a needle-thin tip: that sample waits for the first real
///   pressure and takes it;
/// - the release often carries pressure 0 too (the pen is leaving): the end keeps the last real pressure;
/// - a coalesced sample without a pressure axis takes the last known one.
/// A tap that never reports pressure leaves a dot of the nominal width (pressure 0.5).
/// Pure logic, so it is tested without a tablet.
struct PenPressure {
    /// The pen-down sample, while it waits for a real pressure.
    private(set) var heldDown: InkPoint?
    private var last: Double?

    /// Pen down: the sample to begin the stroke with now, or nil if it waits for the first real pressure.
    mutating func down(_ p: InkPoint, hasPressure: Bool) -> InkPoint? {
        last = nil
        if hasPressure, p.pressure > 0 {
            last = p.pressure
            heldDown = nil
            return p
        }
        heldDown = p
        return nil
    }

    /// Motion samples, oldest first: the held pen-down sample (to begin with, if it was waiting) and the samples to add.
    mutating func move(_ samples: [(point: InkPoint, hasPressure: Bool)]) -> (began: InkPoint?, moved: [InkPoint]) {
        var began: InkPoint?
        if var down = heldDown {
            // The first real pressure of this batch also stands for the zero samples before it.
            guard let first = samples.first(where: { $0.hasPressure && $0.point.pressure > 0 })?.point.pressure else {
                // Still nothing but zeros: keep waiting rather than draw a hairline.
                return (nil, [])
            }
            down.pressure = first
            last = first
            began = down
            heldDown = nil
        }
        var moved: [InkPoint] = []
        moved.reserveCapacity(samples.count)
        for (p, has) in samples {
            var q = p
            if has, p.pressure > 0 { last = p.pressure } else { q.pressure = last ?? 0.5 }
            moved.append(q)
        }
        return (began, moved)
    }

    /// Pen up: the held pen-down sample if the pen never reported pressure (a tap), and the last sample.
    mutating func up(_ p: InkPoint, hasPressure: Bool) -> (began: InkPoint?, ended: InkPoint) {
        var began: InkPoint?
        if var down = heldDown {
            down.pressure = hasPressure && p.pressure > 0 ? p.pressure : 0.5
            last = down.pressure
            began = down
            heldDown = nil
        }
        var end = p
        if !(hasPressure && p.pressure > 0) { end.pressure = last ?? 0.5 }
        return (began, end)
    }
}
