import XCTest
@testable import InkCore

/// Shape tools: a drag from `began` to `ended` makes one ordinary pen stroke tracing the exact shape.
final class ShapeToolTests: XCTestCase {
    func replay(_ lines: [String]) throws -> Editor {
        try EventLogReplay.replay(lines.joined(separator: "\n") + "\n")
    }

    func drag(_ tool: String, from a: (Double, Double), to b: (Double, Double), extra: String = "") -> [String] {
        [
            ##"{"type":"tool","tool":"pen","color":"#1a5fb4","width":4}"##,
            #"{"type":"tool","tool":"\#(tool)"\#(extra)}"#,
            #"{"type":"touch","phase":"began","id":1,"x":\#(a.0),"y":\#(a.1),"device":"mouse","t":0}"#,
            #"{"type":"touch","phase":"moved","id":1,"x":\#((a.0 + b.0) / 3),"y":\#(a.1 + 7),"device":"mouse","t":10}"#,
            #"{"type":"touch","phase":"ended","id":1,"x":\#(b.0),"y":\#(b.1),"device":"mouse","t":20}"#,
        ]
    }

    func testEachToolMakesItsShapeInThePenStyle() throws {
        for tool in ["line", "arrow", "rectangle", "ellipse"] {
            let e = try replay(drag(tool, from: (100, 100), to: (300, 200)))
            XCTAssertEqual(e.drawing.strokes.count, 1, tool)
            let s = try XCTUnwrap(e.drawing.strokes.first)
            XCTAssertEqual(s.style.tool, .pen, "\(tool): an ordinary pen stroke")
            XCTAssertEqual(s.style.color, RGBA(hex: "#1a5fb4"))
            XCTAssertEqual(s.style.width, 4)
            XCTAssertEqual(s.style.trace, .polyline)
            XCTAssertTrue(s.points.allSatisfy { $0.pressure == 0.5 }, "the pen's nominal width all along")
            let pts = s.points.map(\.point)
            switch tool {
            case "line":
                XCTAssertEqual(s.shape, .line)
                XCTAssertEqual(pts, [Point(100, 100), Point(300, 200)], "from began to ended; the move between does not matter")
            case "arrow":
                XCTAssertEqual(s.shape, .arrow)
                XCTAssertEqual(pts.count, 5)
                XCTAssertEqual(pts[0], Point(100, 100)); XCTAssertEqual(pts[1], Point(300, 200)); XCTAssertEqual(pts[3], Point(300, 200))
                // Two barbs of equal length either side of the shaft, pointing back.
                let b1 = pts[2] - pts[1], b2 = pts[4] - pts[1], back = Point(-200, -100)
                XCTAssertEqual(b1.length, b2.length, accuracy: 1e-9)
                XCTAssertEqual(b1.length, ShapeTool.arrowHead(length: back.length, width: 4), accuracy: 1e-9)
                XCTAssertGreaterThan(ShapeFit.dot(b1, back), 0); XCTAssertGreaterThan(ShapeFit.dot(b2, back), 0)
                XCTAssertLessThan((back.x * b1.y - back.y * b1.x) * (back.x * b2.y - back.y * b2.x), 0)
            case "rectangle":
                XCTAssertEqual(s.shape, .rectangle)
                XCTAssertEqual(pts, [Point(100, 100), Point(300, 100), Point(300, 200), Point(100, 200), Point(100, 100)])
            default:
                XCTAssertEqual(s.shape, .ellipse)
                XCTAssertEqual(pts.first, pts.last, "closed")
                for p in pts {
                    let x = (p.x - 200) / 100, y = (p.y - 150) / 50
                    XCTAssertEqual(x * x + y * y, 1, accuracy: 1e-9, "on the ellipse inscribed in the drag")
                }
                let b = try XCTUnwrap(s.bounds)
                XCTAssertEqual(b.minX, 100, accuracy: 1e-9); XCTAssertEqual(b.maxX, 300, accuracy: 1e-9)
                XCTAssertEqual(b.minY, 100, accuracy: 0.01); XCTAssertEqual(b.maxY, 200, accuracy: 0.01)
            }
            // The summary names the shape; freehand ink has no key.
            XCTAssertTrue(DrawingSummary(e.drawing).json().contains(#""shape":"\#(s.shape!.rawValue)""#))
        }
        let free = try replay([#"{"type":"tool","tool":"pen"}"#] + Array(drag("pen", from: (0, 0), to: (50, 50)).dropFirst(2)))
        XCTAssertFalse(DrawingSummary(free.drawing).json().contains("shape"))
    }

    func testConstrainedMakesSquaresCirclesAnd15DegreeSteps() throws {
        let e = Editor()
        e.constrainShapes = true
        for (tool, to) in [(Tool.rectangle, (180.0, 130.0)), (.ellipse, (40.0, 170.0)), (.line, (197.0, 129.0)), (.arrow, (100.0, 190.0))] {
            e.tool = tool
            e.play(gesture(1, [(100, 100), to]))
        }
        let s = e.drawing.strokes
        XCTAssertEqual(s.count, 4)
        let sq = try XCTUnwrap(s[0].bounds)
        XCTAssertEqual(sq.width, 80); XCTAssertEqual(sq.height, 80, "a square on the longer side")
        let circle = try XCTUnwrap(s[1].bounds)
        XCTAssertEqual(circle.width, 70, accuracy: 0.1); XCTAssertEqual(circle.height, 70, accuracy: 0.1)
        XCTAssertEqual(circle.maxX, 100, accuracy: 1e-9, "towards the drag")
        for k in [2, 3] {
            let d = s[k].points[1].point - s[k].points[0].point
            let deg = atan2(d.y, d.x) * 180 / .pi
            XCTAssertEqual(deg, (deg / 15).rounded() * 15, accuracy: 1e-9)
        }
        XCTAssertEqual(s[2].points[1].point.distance(to: Point(100, 100)), Point(97, 29).length, accuracy: 1e-9, "same length")
    }

    /// Live, the stroke is the shape to the pointer; a click draws nothing; cancel leaves nothing.
    func testLiveShapeClickAndCancel() throws {
        let e = Editor()
        e.tool = .rectangle
        _ = e.handle(event(1, .began, 10, 10))
        _ = e.handle(event(1, .moved, 50, 40))
        XCTAssertEqual(e.liveStrokes.first?.points.map(\.point), [Point(10, 10), Point(50, 10), Point(50, 40), Point(10, 40), Point(10, 10)])
        let u = e.handle(event(1, .moved, 30, 20))
        XCTAssertEqual(u.dirty?.maxX ?? 0, 50 + 3 * StrokeShape.maxWidthFactor / 2 + 1, accuracy: 1e-9, "the old shape is repainted")
        _ = e.handle(event(1, .cancelled, 30, 20))
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        e.play(gesture(2, [(5, 5)]))
        XCTAssertTrue(e.drawing.strokes.isEmpty, "a click is no shape")
        // Undo removes the shape like any stroke.
        e.play(gesture(3, [(5, 5), (60, 60)]))
        XCTAssertEqual(e.drawing.strokes.count, 1)
        _ = e.undo()
        XCTAssertTrue(e.drawing.strokes.isEmpty)
    }

    func testEventLogToolAndRecognizeKeys() throws {
        XCTAssertEqual(try EventLog.event(fromLine: #"{"type":"tool","tool":"ellipse"}"#), .tool(.ellipse, color: nil, width: nil))
        XCTAssertEqual(try EventLog.event(fromLine: #"{"type":"tool","tool":"pen","recognize":true}"#), .tool(.pen, color: nil, width: nil, recognize: true))
        XCTAssertThrowsError(try EventLog.event(fromLine: #"{"type":"tool","tool":"pen","recognize":1}"#)) { e in
            XCTAssertEqual((e as? EventLog.LineError)?.message, #""recognize" must be true or false, not a number"#)
        }
        XCTAssertThrowsError(try EventLog.event(fromLine: #"{"type":"tool","tool":"hexagon"}"#))
        let e = try replay([#"{"type":"tool","tool":"pen","recognize":true}"#, ##"{"type":"tool","tool":"line","color":"#ff0000"}"##])
        XCTAssertTrue(e.recognizeShapes)
        XCTAssertEqual(e.tool, .line)
        XCTAssertEqual(e.styles[.pen]?.color, RGBA(hex: "#ff0000"), "a shape tool's colour is the pen's")
    }

    /// An area-eraser piece of a shape is ink again (no longer the shape) but stays straight.
    func testCutShapeKeepsPolylineButNotItsKind() throws {
        let e = Editor()
        e.tool = .rectangle
        e.play(gesture(1, [(100, 100), (300, 200)]))
        e.tool = .areaEraser
        e.play(gesture(2, [(200, 80), (200, 120)]))
        XCTAssertFalse(e.drawing.strokes.isEmpty)
        for s in e.drawing.strokes {
            XCTAssertNil(s.shape)
            XCTAssertEqual(s.style.trace, .polyline)
        }
    }
}
