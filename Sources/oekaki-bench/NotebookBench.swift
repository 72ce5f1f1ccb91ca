import Foundation
import InkCore
import InkSamples
import InkRender
import InkStore

/// The real window scrolling a 500-page notebook of 2,000,000 points: CPU per scroll event at page 1 and at
/// page 500 (End), which must be the same: only the visible pages are looked at and drawn.
enum NotebookBench {
    static let pages = 500
    static let strokesPerPage = 40
    static let pointsPerStroke = 100

    /// 500 A4 pages, each with its own wandering strokes (2,000,000 points in all).
    static func notebook() -> Document {
        let a4 = PagePreset.a4.size
        var nextStroke: StrokeID = 1
        let pages = (0..<pages).map { i -> Page in
            let id = PageID(i + 1)
            var rng = SampleInk.Generator(seed: UInt64(1000 + i))
            var d = Drawing(pageSize: a4)
            for _ in 0..<strokesPerPage {
                var s = SampleInk.stroke(id: nextStroke, points: pointsPerStroke, pageSize: a4, rng: &rng)
                s.page = id
                d.insert(s)
                nextStroke += 1
            }
            return Page(id: id, format: .fixed(a4), drawing: d)
        }
        return Document(pages: pages)
    }

    /// A scroll gesture with the middle button: the page moves up 150 px and back, staying within the page
    /// shown (A4 at 100 % is taller than the window), so both places draw one page's ink.
    static let scrollPath: [(Double, Double)] = (0..<AppBench.eventsPerGesture).map { i in
        let t = Double(i) / Double(AppBench.eventsPerGesture - 1)
        return (0, -150 * sin(Double.pi * t))
    }

    /// Adds CPU per scroll event at page 1 and page 500 to `r`, `rounds` times each, interleaved.
    static func run(_ w: Workloads, display: VirtualDisplay, rounds: Int, xdotool: String, app: String, into r: inout AppBench.Result) {
        let file = w.folder + "/notebook-500.oekaki"
        do {
            for s in ["", "-wal", "-shm"] { unlink(file + s) }
            try DocumentFile.create(path: file, document: notebook()).close()
        } catch {
            r.notes.append("notebook bench: \(error)"); return
        }
        defer { for s in ["", "-wal", "-shm"] { unlink(file + s) } }
        for _ in 0..<rounds {
            for last in [false, true] {
                guard let s = AppBench.Session(app: app, file: file, floor: false, w: w, display: display, xdotool: xdotool) else {
                    r.notes.append("notebook bench: the window did not appear"); continue
                }
                defer { s.stop() }
                s.settle()
                if last {
                    _ = AppBench.Session.output(xdotool, ["mousemove", "\(Int(s.centre.0))", "\(Int(s.centre.1))", "key", "End"], env: s.env)
                    s.settle()
                }
                if let cpu = s.cpuPerEvent(button: 2, path: scrollPath) {
                    if last { r.scrollPage500.add(cpu) } else { r.scrollPage1.add(cpu) }
                }
            }
        }
    }
}
