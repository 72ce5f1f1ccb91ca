import XCTest
@testable import InkCore

/// The event log (JSON Lines) parser, the replay that drives an Editor, and the summary JSON.
final class EventLogTests: XCTestCase {
    private func parse(_ line: String) throws -> LogEvent? { try EventLog.event(fromLine: line) }

    private func message(_ line: String, file: StaticString = #filePath, line l: UInt = #line) -> String {
        do {
            _ = try parse(line)
            XCTFail("accepted: \(line)", file: file, line: l)
            return ""
        } catch let e as EventLog.LineError {
            return e.message
        } catch {
            XCTFail("unexpected \(error)", file: file, line: l)
            return ""
        }
    }

    func testParsesEveryEventType() throws {
        XCTAssertEqual(try parse(#"{"type":"touch","phase":"began","id":3,"x":1.5,"y":-2}"#),
                       .touch(InputEvent(pointer: 3, phase: .began, point: InkPoint(x: 1.5, y: -2), device: .touch, hasPressure: false)))
        XCTAssertEqual(try parse(#"{"type":"touch","phase":"moved","id":-7,"x":1e3,"y":2E-1,"pressure":0.25,"device":"pen","t":12.5}"#),
                       .touch(InputEvent(pointer: -7, phase: .moved, point: InkPoint(x: 1000, y: 0.2, pressure: 0.25, time: 12.5), device: .pen, hasPressure: true)))
        XCTAssertEqual(try parse(#"{"type":"touch","phase":"cancelled","id":1,"x":0,"y":0,"device":"mouse"}"#),
                       .touch(InputEvent(pointer: 1, phase: .cancelled, point: InkPoint(x: 0, y: 0), device: .mouse, hasPressure: false)))
        XCTAssertEqual(try parse(##"{"type":"tool","tool":"pen","color":"#FF8000","width":2.5}"##),
                       .tool(.pen, color: RGBA(r: 255, g: 128, b: 0, a: 255), width: 2.5))
        XCTAssertEqual(try parse(##"{"type":"tool","tool":"pen","color":"#ff800080"}"##), .tool(.pen, color: RGBA(r: 255, g: 128, b: 0, a: 128), width: nil))
        XCTAssertEqual(try parse(##"{"type":"tool","tool":"highlighter","color":"#00ff00"}"##),
                       .tool(.highlighter, color: RGBA(r: 0, g: 255, b: 0, a: 0x66), width: nil), "a highlighter stays translucent")
        XCTAssertEqual(try parse(#"{"type":"tool","tool":"stroke-eraser","width":30}"#), .tool(.strokeEraser, color: nil, width: 30))
        XCTAssertEqual(try parse(#"{"type":"tool","tool":"area-eraser"}"#), .tool(.areaEraser, color: nil, width: nil))
        XCTAssertEqual(try parse(#"{"type":"undo"}"#), .undo)
        XCTAssertEqual(try parse(#" { "type" : "redo" } "#), .redo)
        XCTAssertEqual(try parse(#"{"type":"clear"}"#), .clear)
        XCTAssertEqual(try parse(#"{"type":"canvas","width":800,"height":600.5}"#), .canvas(Size(width: 800, height: 600.5)))
        XCTAssertNil(try parse("   \t\r"))
        XCTAssertNil(try parse(""))
    }

    func testIgnoresUnknownKeysOfAnyShapeAndAcceptsNullForOptionals() throws {
        let e = try parse(#"{"note":"h\u00e9\"llo","nested":{"a":[1,2,{"b":null}],"c":true},"type":"touch","phase":"ended","id":2,"x":3,"y":4,"pressure":null,"device":null}"#)
        XCTAssertEqual(e, .touch(InputEvent(pointer: 2, phase: .ended, point: InkPoint(x: 3, y: 4), device: .touch, hasPressure: false)))
    }

    func testNumbersAreExact() throws {
        for (text, value) in [("0.1", 0.1), ("123456.789", 123456.789), ("-0.000001", -0.000001), ("1.7976931348623157e308", 1.7976931348623157e308),
                              ("12345678901234567.5", 12345678901234567.5), ("5e-324", 5e-324), ("0.30000000000000004", 0.30000000000000004)] {
            guard case .touch(let e)? = try parse(#"{"type":"touch","phase":"began","id":1,"x":0,"y":0,"t":\#(text)}"#) else { return XCTFail() }
            XCTAssertEqual(e.point.time, value, text)
        }
        guard case .touch(let e)? = try parse(#"{"type":"touch","phase":"began","id":9007199254740993,"x":0,"y":0}"#) else { return XCTFail() }
        XCTAssertEqual(e.pointer, 9007199254740993, "integer ids are exact beyond 2^53")
        guard case .touch(let f)? = try parse(#"{"type":"touch","phase":"began","id":4.0,"x":0,"y":0}"#) else { return XCTFail() }
        XCTAssertEqual(f.pointer, 4)
    }

    func testPreciseErrors() {
        let touch = #""type":"touch","phase":"began","id":1"#
        XCTAssertEqual(message(#"{"type":"touch","phase":"sideways","id":1,"x":1,"y":2}"#), #"unknown phase "sideways""#)
        XCTAssertEqual(message(#"{"type":"jump"}"#), #"unknown type "jump""#)
        XCTAssertEqual(message(#"{"phase":"began"}"#), #"missing "type""#)
        XCTAssertEqual(message(#"{"type":3}"#), #""type" must be a string, not a number"#)
        XCTAssertEqual(message("{\(touch),\"y\":2}"), #"missing "x""#)
        XCTAssertEqual(message("{\(touch),\"x\":\"1\",\"y\":2}"), #""x" must be a number, not a string"#)
        XCTAssertEqual(message("{\(touch),\"x\":1e999,\"y\":2}"), #""x" is not a finite number"#)
        XCTAssertEqual(message("{\(touch),\"x\":1e16,\"y\":2}"), #""x" 1e+16 is too large (limit ±1000000000000000)"#)
        XCTAssertEqual(message(#"{"type":"touch","phase":"began","id":1.5,"x":1,"y":2}"#), #""id" must be an integer, not 1.5"#)
        XCTAssertEqual(message(#"{"type":"touch","phase":"began","x":1,"y":2}"#), #"missing "id""#)
        XCTAssertEqual(message("{\(touch),\"x\":1,\"y\":2,\"device\":\"finger\"}"), #"unknown device "finger""#)
        XCTAssertEqual(message("{\(touch),\"x\":1,\"y\":2,\"pressure\":1.5}"), #""pressure" 1.5 is outside 0..1"#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"brush"}"#), #"unknown tool "brush""#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"pen","color":"red"}"#), #"bad colour "red" (expected #RRGGBB or #RRGGBBAA)"#)
        XCTAssertEqual(message(##"{"type":"tool","tool":"pen","color":"#12345"}"##), ##"bad colour "#12345" (expected #RRGGBB or #RRGGBBAA)"##)
        XCTAssertEqual(message(##"{"type":"tool","tool":"pen","color":"#gg0000"}"##), ##"bad colour "#gg0000" (expected #RRGGBB or #RRGGBBAA)"##)
        XCTAssertEqual(message(#"{"type":"tool","tool":"pen","width":0}"#), #""width" 0 is outside 0..1000000 (must be more than 0)"#)
        XCTAssertEqual(message(#"{"type":"canvas","width":100}"#), #"missing "height""#)
        XCTAssertEqual(message(#"{"type":"canvas","width":-1,"height":5}"#), #""width" -1 is outside 0..1000000000 (must be more than 0)"#)
        XCTAssertEqual(message(#"{"type":"undo","type":"redo"}"#), #"duplicate key "type""#)
        // Not JSON at all, or not quite.
        XCTAssertEqual(message("hello"), "not JSON: expected an object at column 1")
        XCTAssertEqual(message(#"{"type":"undo""#), "not JSON: expected ',' or '}' at end of line")
        XCTAssertEqual(message(#"{"type" "undo"}"#), "not JSON: expected ':' after key at column 9")
        XCTAssertEqual(message(#"{"type":"undo"} x"#), "not JSON: unexpected text after the object at column 17")
        XCTAssertEqual(message(#"{"type":"undo",}"#), "not JSON: expected a key in quotes at column 16")
        XCTAssertEqual(message(#"{"type":NaN}"#), "not JSON: expected a value at column 9")
        XCTAssertEqual(message(#"{"type":01}"#), "not JSON: expected ',' or '}' at column 10")
        XCTAssertEqual(message(#"[1,2]"#), "not JSON: expected an object at column 1")
        XCTAssertEqual(message(#"{"type":"a\qb"}"#), "not JSON: bad escape in string at column 12")
        XCTAssertEqual(message(String(repeating: "[", count: 10) + "{"), "not JSON: expected an object at column 1")
        XCTAssertEqual(message(#"{"x":"# + String(repeating: "[", count: 100_000)), "not JSON: nested deeper than 64 levels")
        // A hostile value is cut short in the message so it stays one readable line.
        let long = message(#"{"type":""# + String(repeating: "a", count: 5000) + "\"}")
        XCTAssertLessThan(long.count, 80)
        XCTAssertEqual(message(#"{"type":"a\nb"}"#), #"unknown type "a\u000ab""#)
    }

    func testReplayNamesTheLineOfTheFirstBadEvent() {
        let log = """
        {"type":"touch","phase":"began","id":1,"x":1,"y":2}

        {"type":"touch","phase":"sideways","id":1,"x":1,"y":2}
        {"type":"nonsense"}
        """
        XCTAssertThrowsError(try EventLogReplay.replay(log)) { error in
            let e = error as? EventLogError
            XCTAssertEqual(e, EventLogError(line: 3, message: #"unknown phase "sideways""#))
            XCTAssertEqual(e?.message(file: "events.jsonl"), #"events.jsonl:3: unknown phase "sideways""#)
        }
    }

    /// Messages keep their words apart from their values, so the CLI can translate them (the engine links no
    /// gettext): the template and each nested phrase go through the translator, the values do not.
    func testErrorsAreWordedForTranslation() {
        XCTAssertThrowsError(try EventLogReplay.replay(#"{"type":"touch","phase":"began","id":1,"x":"1","y":2}"#)) { error in
            guard let e = error as? EventLogError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.wording.text, #""{0}" must be a number, not {1}"#)
            XCTAssertEqual(e.message, #""x" must be a number, not a string"#)
            let shouted = e.wording.rendered { $0.uppercased() }
            XCTAssertEqual(shouted, #""x" MUST BE A NUMBER, NOT A STRING"#, "the phrase is translated, the key is not")
        }
        XCTAssertThrowsError(try EventLogReplay.replay("{\"type\":\"undo\"}\n[1]")) { error in
            let e = error as? EventLogError
            XCTAssertEqual(e?.line, 2)
            XCTAssertEqual(e?.wording.rendered { ["not JSON: {0} at column {1}": "{1}: {0}", "expected an object": "object?"][$0] ?? $0 },
                           "1: object?", "a translation may put the values in its own order")
        }
        // A value is filled in once: braces in the input stay as they are.
        XCTAssertEqual(Wording("unknown tool {0} and {1}", "{1}", 7).description, "unknown tool {1} and 7")
        XCTAssertEqual(SelectionError("width {0} is outside 0…{1}", "0", "100").message, "width 0 is outside 0…100")
    }

    func testReplayInArbitraryChunksMatchesWholeReplay() throws {
        var lines: [String] = [##"{"type":"canvas","width":640,"height":480}"##, ##"{"type":"tool","tool":"pen","color":"#ff0000","width":4}"##]
        for k in 0..<30 {
            let phase = k == 0 ? "began" : (k == 29 ? "ended" : "moved")
            lines.append(#"{"type":"touch","phase":"\#(phase)","id":1,"x":\#(k * 3),"y":\#(k % 5)}"#)
            lines.append(#"{"type":"touch","phase":"\#(phase)","id":2,"x":\#(k * 3),"y":\#(100 + k % 7)}"#)
        }
        lines.append(#"{"type":"undo"}"#)
        let text = lines.joined(separator: "\r\n") // CRLF and no final newline
        let whole = try EventLogReplay.replay(text)
        for size in [1, 2, 7, 64, 1000] {
            var r = EventLogReplay()
            let bytes = Array(text.utf8)
            var i = 0
            while i < bytes.count { try r.feed(Array(bytes[i..<min(i + size, bytes.count)])); i += size }
            let e = try r.finish()
            XCTAssertEqual(e.drawing.strokes, whole.drawing.strokes, "chunk size \(size)")
            XCTAssertEqual(r.lineNumber, lines.count)
        }
        XCTAssertEqual(whole.drawing.pageSize, Size(width: 640, height: 480))
        XCTAssertEqual(whole.drawing.strokes.count, 1, "two strokes, one undone")
        XCTAssertEqual(whole.history.redoStack.count, 1)
        XCTAssertEqual(whole.drawing.strokes[0].style, StrokeStyle(tool: .pen, color: RGBA(r: 255, g: 0, b: 0), width: 4))
    }

    func testByteOrderMarkOnTheFirstLineIsSkipped() throws {
        var r = EventLogReplay()
        try r.feed([0xEF, 0xBB, 0xBF] + Array(#"{"type":"canvas","width":10,"height":20}"#.utf8))
        XCTAssertEqual(try r.finish().drawing.pageSize, Size(width: 10, height: 20))
    }

    func testOverlongLineIsRefusedWithoutBufferingIt() {
        var r = EventLogReplay()
        XCTAssertNoThrow(try r.feed(Array(#"{"type":"undo"}"#.utf8) + [10]))
        let chunk = [UInt8](repeating: 0x20, count: 1 << 16)
        var thrown: EventLogError?
        do { for _ in 0..<40 { try r.feed(chunk) } } catch { thrown = error as? EventLogError }
        XCTAssertEqual(thrown, EventLogError(line: 2, message: "line is longer than 1048576 bytes"))
    }

    func testUnfinishedGesturesAtTheEndOfTheLogAreDiscarded() throws {
        let log = """
        {"type":"touch","phase":"began","id":1,"x":0,"y":0}
        {"type":"touch","phase":"ended","id":1,"x":10,"y":0}
        {"type":"touch","phase":"began","id":2,"x":0,"y":50}
        {"type":"touch","phase":"moved","id":2,"x":10,"y":50}
        {"type":"tool","tool":"stroke-eraser","width":10}
        {"type":"touch","phase":"began","id":3,"x":5,"y":0}
        """
        let e = try EventLogReplay.replay(log)
        XCTAssertEqual(e.drawing.strokes.count, 1, "the eraser never lifted, so its erasing is undone; finger 2 never lifted")
        XCTAssertEqual(e.drawing.strokes[0].points.map(\.x), [0, 10])
        XCTAssertTrue(e.liveStrokes.isEmpty)
        XCTAssertEqual(e.history.undoStack.count, 1)
    }

    func testSummaryJSON() throws {
        let log = """
        {"type":"tool","tool":"pen","color":"#112233","width":2.5}
        {"type":"touch","phase":"began","id":1,"x":10,"y":20.25}
        {"type":"touch","phase":"ended","id":1,"x":30,"y":5}
        {"type":"tool","tool":"highlighter","color":"#ffff0080","width":12}
        {"type":"touch","phase":"began","id":1,"x":-1,"y":0.1}
        {"type":"touch","phase":"ended","id":1,"x":-1,"y":0.1}
        """
        let e = try EventLogReplay.replay(log)
        let json = DrawingSummary(e.drawing).json()
        XCTAssertEqual(json, ##"{"strokes":2,"points":3,"texts":0,"images":0,"bounds":[-1,0.1,30,20.25],"items":[{"kind":"stroke","tool":"pen","color":"#112233ff","width":2.5,"points":2,"bounds":[10,5,30,20.25]},{"kind":"stroke","tool":"highlighter","color":"#ffff0080","width":12,"points":1,"bounds":[-1,0.1,-1,0.1]}]}"##)
        XCTAssertEqual(DrawingSummary(Drawing()).json(), #"{"strokes":0,"points":0,"texts":0,"images":0,"bounds":null,"items":[]}"#)
        XCTAssertEqual(DrawingSummary(Drawing()).json(extra: [("format", JSONText.string("oekaki")), ("version", "1")]),
                       #"{"strokes":0,"points":0,"texts":0,"images":0,"bounds":null,"items":[],"format":"oekaki","version":1}"#)
        // Valid JSON that Foundation reads back to the same numbers.
        let obj = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertEqual(obj?["points"] as? Int, 3)
    }

    /// `fill` and `style` on a `tool` line set the pen's (shape tools draw with it): the summary names them only on
    /// filled or dashed ink; a line or arrow has no area, so no fill; bad values name what is wrong.
    func testFillAndLineStyleOfToolLines() throws {
        let log = """
        {"type":"tool","tool":"ellipse","fill":128,"style":"dash"}
        {"type":"touch","phase":"began","id":1,"x":10,"y":10}
        {"type":"touch","phase":"ended","id":1,"x":90,"y":60}
        {"type":"tool","tool":"line"}
        {"type":"touch","phase":"began","id":1,"x":10,"y":100}
        {"type":"touch","phase":"ended","id":1,"x":90,"y":120}
        {"type":"tool","tool":"pen","fill":-1,"style":"cust: 1 2.5"}
        {"type":"touch","phase":"began","id":1,"x":10,"y":150}
        {"type":"touch","phase":"ended","id":1,"x":90,"y":160}
        {"type":"tool","tool":"pen","style":"solid"}
        {"type":"touch","phase":"began","id":1,"x":10,"y":170}
        {"type":"touch","phase":"ended","id":1,"x":90,"y":180}
        """
        let e = try EventLogReplay.replay(log)
        XCTAssertEqual(e.drawing.strokes.map(\.style.fill), [128, nil, nil, nil])
        XCTAssertEqual(e.drawing.strokes.map(\.style.line), [.dash, .dash, LineStyle(dashes: [1, 2.5])!, .solid])
        let json = DrawingSummary(e.drawing).json()
        XCTAssertTrue(json.contains(#""points":"#) && json.contains(#","fill":128,"style":"dash","bounds""#), json)
        XCTAssertTrue(json.contains(#""style":"cust: 1.00 2.50""#), json)
        XCTAssertEqual(json.components(separatedBy: "\"fill\"").count, 2, json)
        XCTAssertEqual(json.components(separatedBy: "\"style\"").count, 4, json)
        XCTAssertEqual(message(#"{"type":"tool","tool":"pen","fill":256}"#), #""fill" 256 is not an alpha of 0..255 (or -1 for none)"#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"pen","fill":1.5}"#), #""fill" 1.5 is not an alpha of 0..255 (or -1 for none)"#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"pen","fill":"half"}"#), #""fill" must be a number, not a string"#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"pen","style":"wavy"}"#),
                       #"unknown line style "wavy" (solid, dash, dashdot, dot, or "cust: " and up to 32 lengths of 0..10000, not all 0)"#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"rectangle","style":"cust: 0 0"}"#),
                       #"unknown line style "cust: 0 0" (solid, dash, dashdot, dot, or "cust: " and up to 32 lengths of 0..10000, not all 0)"#)
        XCTAssertEqual(message(#"{"type":"tool","tool":"lasso","fill":10}"#), #""fill" and "style" are for the pen, highlighter and shape tools, not "lasso""#)
    }

    func testNumberFormatting() {
        XCTAssertEqual(JSONText.number(3), "3")
        XCTAssertEqual(JSONText.number(-0.0), "0")
        XCTAssertEqual(JSONText.number(0.1), "0.1")
        XCTAssertEqual(JSONText.number(1e12), "1000000000000")
        XCTAssertEqual(JSONText.number(1e20), "1e+20")
        XCTAssertEqual(JSONText.number(1.0 / 3), "0.3333333333333333")
        XCTAssertEqual(JSONText.number(.nan), "null")
        XCTAssertEqual(JSONText.string("a\"b\\c\n\u{1}"), #""a\"b\\c\n\u0001""#)
    }

    func testReplayPerformance() throws {
        // 40,000 events in debug (the release target is 400,000 in well under 10 s).
        var text = ""
        for s in 0..<400 {
            for k in 0..<100 {
                let phase = k == 0 ? "began" : (k == 99 ? "ended" : "moved")
                text += #"{"type":"touch","phase":"\#(phase)","id":\#(s % 3),"x":\#(Double(k) * 1.5),"y":\#(s),"pressure":0.5,"device":"pen","t":\#(k * 8)}"#
                text += "\n"
            }
        }
        let start = Date()
        let e = try EventLogReplay.replay(text)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(e.drawing.strokes.count, 400)
        XCTAssertEqual(e.drawing.pointCount, 40_000)
        XCTAssertLessThan(elapsed, 10)
    }
}
