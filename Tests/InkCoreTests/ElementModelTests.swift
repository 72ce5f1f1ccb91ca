import XCTest
@testable import InkCore

/// The shared element model of issue 12: text boxes and images are strokes with content, named files by SHA-256.
final class ElementModelTests: XCTestCase {
    private func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

    func testSHA256KnownVectors() {
        XCTAssertEqual(hex(SHA256.hash([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // 55, 56 and 64 bytes: the padding's edge cases.
        XCTAssertEqual(hex(SHA256.hash([UInt8](repeating: 0x61, count: 55))), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(hex(SHA256.hash([UInt8](repeating: 0x61, count: 56))), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(hex(SHA256.hash([UInt8](repeating: 0x61, count: 64))), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
        var s = SHA256()
        for _ in 0..<1000 { s.update([UInt8](repeating: 0x61, count: 1000)) }
        XCTAssertEqual(hex(s.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "a million 'a's fed in pieces")
        XCTAssertEqual(ContentHash(of: Array("abc".utf8)).hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertNil(ContentHash(hex: "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"), "upper case is not a stored name")
        XCTAssertNil(ContentHash(hex: "abc"))
    }

    func testFilesAreKeptOncePerContent() {
        var d = Document()
        let a = d.addFile([1, 2, 3]), b = d.addFile([1, 2, 3]), c = d.addFile([4])
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        XCTAssertEqual(d.files.count, 2)
    }

    func testABoxIsTwoCornersPlacedByItsTransform() {
        let box = TextBox(text: "こんにちは", font: "Sans", size: 12, color: .black, width: 100)
        var s = Stroke(id: 1, content: .text(box), frame: Rect(x: 10, y: 20, width: 100, height: 30))
        XCTAssertEqual(s.drawnBox, Rect(x: 10, y: 20, width: 100, height: 30))
        XCTAssertTrue(s.boxContains(Point(50, 40)))
        XCTAssertFalse(s.boxContains(Point(5, 40)))
        s.setTransform(.translation(100, 0))
        XCTAssertTrue(s.boxContains(Point(150, 40)))
        XCTAssertFalse(s.boxContains(Point(50, 40)))
        XCTAssertEqual(s.drawnBox, Rect(x: 10, y: 20, width: 100, height: 30), "the drawn box never changes")
        s.setTransform(.rotation(degrees: 30, about: Point(10, 20)))
        let ink = s.inkBounds!, corners = s.shownCorners!
        XCTAssertTrue(corners.allSatisfy { ink.contains($0) }, "a rotated box's area covers all four corners")
        XCTAssertFalse(corners.allSatisfy { s.bounds!.contains($0) }, "which its two points alone do not")
    }

    /// A text box shows (and a selection frames) its box; what a render looks for reaches further, a third below
    /// and half a line around, where lines laid out taller than the stored height land. An image needs no reach.
    func testATextBoxReachesPastItsStoredHeightButShowsItsBox() {
        let box = TextBox(text: "a\nb\nc", font: "Sans", size: 12, color: .black, width: 100)
        let s = Stroke(id: 1, content: .text(box), frame: Rect(x: 10, y: 20, width: 100, height: 30))
        XCTAssertEqual(s.shownBounds, Rect(x: 9, y: 19, width: 102, height: 32))
        XCTAssertEqual(s.inkBounds, Rect(minX: 3, minY: 13, maxX: 117, maxY: 20 + 30 + 10 + 6 + 1))
        let editor = Editor()
        let image = Stroke(id: 2, content: .image(ImageBox(file: editor.addFile([9, 9, 9]), pixelWidth: 4, pixelHeight: 4)),
                           frame: Rect(x: 10, y: 20, width: 100, height: 30))
        XCTAssertEqual(image.inkBounds, image.shownBounds)
        _ = editor.perform(.add([s]))
        editor.selection = [1]
        XCTAssertEqual(editor.selectionBounds, s.shownBounds, "the selection frames the box, not the reach")
    }

    func testErasersNeverTouchTextOrImages() {
        let editor = Editor()
        let h = editor.addFile([9, 9, 9])
        let text = Stroke(id: 100, content: .text(TextBox(text: "keep")), frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let image = Stroke(id: 101, content: .image(ImageBox(file: h, pixelWidth: 4, pixelHeight: 4)), frame: Rect(x: 0, y: 0, width: 100, height: 100))
        _ = editor.perform(.add([text, image]))
        editor.line(1, from: (0, 50), to: (100, 50))
        for tool in [Tool.strokeEraser, .areaEraser] {
            editor.tool = tool
            editor.style.width = 30
            _ = editor.play(gesture(9, [(0, 50), (50, 50), (100, 50), (50, 10), (10, 90)]))
            XCTAssertEqual(Set(editor.drawing.strokes.map(\.id)), [100, 101], "\(tool) took the ink only")
            _ = editor.undo()
        }
    }

    func testRestyleColoursTextAndSelectionHitsInsideTheBox() throws {
        let editor = Editor()
        let text = Stroke(id: 100, content: .text(TextBox(text: "hi", color: .black)), frame: Rect(x: 0, y: 0, width: 100, height: 40))
        _ = editor.perform(.add([text]))
        XCTAssertEqual(editor.topmostStroke(at: Point(50, 20))?.id, 100, "a tap anywhere in the box takes it")
        try editor.apply(.all)
        try editor.apply(.style(color: RGBA(r: 200, g: 0, b: 0), keepsAlpha: false, width: 7))
        let s = try XCTUnwrap(editor.drawing.strokes.first)
        XCTAssertEqual(s.content.text?.color, RGBA(r: 200, g: 0, b: 0))
        XCTAssertEqual(s.content.text?.text, "hi")
        XCTAssertEqual(s.style.width, 1, "a box has no line width")
        try editor.apply(.delete)
        XCTAssertTrue(editor.drawing.strokes.isEmpty)
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.first?.content.text?.text, "hi")
    }

    func testLongTextIsCutAtACharacterBoundary() {
        let t = String(repeating: "あ", count: 10)   // 3 bytes each
        XCTAssertNil(TextBox.truncated(t, maxBytes: 30))
        XCTAssertEqual(TextBox.truncated(t, maxBytes: 29), String(repeating: "あ", count: 9))
        XCTAssertNotNil(TextBox(text: String(repeating: "x", count: TextBox.maxTextBytes + 1)).problem)
        XCTAssertNil(TextBox(text: String(repeating: "x", count: TextBox.maxTextBytes)).problem)
    }
}

/// Text boxes as edits (what the app's text tool calls).
final class TextCommandsTests: XCTestCase {
    func testPlaceEditResizeAndDeleteAreEachOneUndoableEdit() throws {
        let e = Editor()
        e.textColor = RGBA(r: 0, g: 0, b: 200)
        XCTAssertTrue(e.addText(TextBox(text: "", width: 100), at: Point(10, 20), height: 14).changes.isEmpty, "empty text places nothing")
        let placed = e.addText(TextBox(text: "hello", color: e.textColor, width: 100), at: Point(10, 20), height: 14)
        XCTAssertEqual(placed.changes.count, 1)
        let first = try XCTUnwrap(e.textBox(at: Point(50, 30)))
        XCTAssertEqual(first.drawnBox, Rect(x: 10, y: 20, width: 100, height: 14))
        XCTAssertEqual(first.content.text?.color, RGBA(r: 0, g: 0, b: 200))
        // The text tool's clicks draw nothing.
        e.tool = .text
        _ = e.play(gesture(1, [(0, 0), (50, 50)]))
        XCTAssertEqual(e.drawing.strokes.count, 1)

        // Edit: new text, same place and drawing order.
        _ = e.changeText(first.id, to: TextBox(text: "hello world", width: 100), height: 28)
        let edited = try XCTUnwrap(e.drawing.strokes.first)
        XCTAssertEqual(edited.content.text?.text, "hello world")
        XCTAssertEqual(edited.order, first.order)
        XCTAssertEqual(edited.drawnBox, Rect(x: 10, y: 20, width: 100, height: 28))

        // Resize the selected box to double width: it re-wraps (wider box, same size text), left edge kept.
        try e.apply(.all)
        let r = try XCTUnwrap(e.rewrap(under: .scale(2, 1.5, about: Point(10, 20))))
        XCTAssertEqual(r.box.width, 200)
        XCTAssertEqual(r.box.size, edited.content.text?.size)
        XCTAssertEqual(r.origin, Point(10, 20))
        _ = e.changeText(r.id, to: r.box, height: 14, origin: r.origin)
        XCTAssertEqual(e.drawing.strokes.first?.drawnBox, Rect(x: 10, y: 20, width: 200, height: 14))
        XCTAssertEqual(e.selection.count, 1, "the re-wrapped box stays selected")

        // Emptied: the box goes.
        _ = e.changeText(e.drawing.strokes[0].id, to: TextBox(text: "", width: 200), height: 14)
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        for expected in ["hello world", "hello world", "hello", nil] {
            _ = e.undo()
            XCTAssertEqual(e.drawing.strokes.first?.content.text?.text, expected)
        }
    }

    /// Found by its text: a label's empty width (boxes are as wide as they wrap) neither answers a click nor hides
    /// a box under it; the check gets the point from the box's top-left, under the box's placement.
    func testATextBoxIsFoundByItsTextWhenAsked() throws {
        let e = Editor()
        _ = e.addText(TextBox(text: "under", width: 100), at: Point(300, 20), height: 14)
        _ = e.addText(TextBox(text: "wide label", width: 500), at: Point(10, 20), height: 14)   // on top, reaching x 510
        let under = try XCTUnwrap(e.drawing.strokes.first { $0.content.text?.text == "under" })
        let label = try XCTUnwrap(e.drawing.strokes.first { $0.content.text?.text == "wide label" })
        // Its text: the first 60 units of its box.
        func holds(_ box: TextBox, _ q: Point) -> Bool { q.x <= (box.text == "under" ? 30 : 60) && q.y <= 14 }
        XCTAssertEqual(e.textBox(at: Point(310, 25))?.id, label.id, "by its box: the label on top")
        XCTAssertEqual(e.textBox(at: Point(310, 25), text: holds)?.id, under.id, "by its text: the box under it")
        XCTAssertEqual(e.textBox(at: Point(40, 25), text: holds)?.id, label.id)
        XCTAssertNil(e.textBox(at: Point(200, 25), text: holds), "beside both texts: none, a new box goes there")
        // Moved by 100: the check still gets the point from the box's own corner.
        _ = try e.apply(.all)
        _ = try e.apply(.translate(dx: 100, dy: 0))
        var seen: Point?
        XCTAssertEqual(e.textBox(at: Point(150, 25)) { box, q in seen = q; return holds(box, q) }?.id, label.id)
        XCTAssertEqual(seen?.x ?? 0, 40, accuracy: 1e-9)
        XCTAssertEqual(seen?.y ?? 0, 5, accuracy: 1e-9)
    }
}
