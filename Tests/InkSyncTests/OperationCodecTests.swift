import XCTest
import InkCore
import InkStore
@testable import InkSync

final class OperationCodecTests: XCTestCase {
    let a = BoardStrokeID(client: 0xabc, number: 7), b = BoardStrokeID(client: 1, number: 1 << 40)

    func stroke(_ id: BoardStrokeID, place: BoardStrokeID? = nil) -> BoardStroke {
        BoardStroke(id: id, place: place, style: StrokeStyle(tool: .highlighter, color: RGBA(r: 1, g: 2, b: 3, a: 4), width: 16),
                    points: [InkPoint(x: 1.5, y: 2, pressure: 0.2, time: 3), InkPoint(x: 10, y: 20.25, pressure: 1, time: 9)])
    }

    /// One change of every version-1 kind.
    func version1Changes() -> [BoardOperation.Change] {
        var shaped = stroke(a); shaped.shape = .ellipse; shaped.style.trace = .polyline  // shapes are polylines
        var imported = stroke(b); imported.style.trace = .polyline                      // drawn as written, no shape
        return [.add(stroke(a)), .add(shaped), .add(imported), .remove([a, b]), .restore([b]), .replace(removed: [a], added: [stroke(b, place: a)])]
    }

    func testEveryKindRoundTrips() throws {
        for change in version1Changes() {
            let op = BoardOperation(client: 42, number: 9, change: change)
            XCTAssertEqual(try OperationCodec.decode(try OperationCodec.encode(op)), op)
        }
    }

    /// One change of every version-2 kind (and strokes with text and PDF content).
    func version2Changes() -> [BoardOperation.Change] {
        let p = BoardPageID(client: 0x77, number: 3)
        var moved = stroke(a, place: nil); moved.page = p; moved.transform = .rotation(degrees: 30, about: Point(x: 5, y: 5))
        let ruled = PageFormat(size: Size(width: 595.5, height: 842), background: Background(style: .graph, paper: RGBA(r: 9, g: 8, b: 7), spacing: 20, margin: 12))
        return [
            .add(moved), .replace(removed: [b], added: [BoardStroke(id: a, place: b, page: p, style: moved.style, points: moved.points)]),
            .look([LookChange(id: a, transform: .translation(3, -4)), LookChange(id: b, width: 7.5, color: RGBA(r: 1, g: 2, b: 3, a: 4)),
                   LookChange(id: a, transform: .scale(2, 3, about: Point(x: 1, y: 1)), width: 1, color: .black)]),
            .front([a, b]), .back([b]), .reorder([a: 3 << 20, b: UInt64(bitPattern: -(7 << 20))]),
            .addPage(BoardPage(id: p, key: PageKey.between(.first, nil), format: ruled)),
            .addPage(BoardPage(id: .first, key: .first, format: .endless)),
            .deletePages([p, .first]), .restorePages([p]),
            .movePages([p: PageKey.between(nil, .first), .first: PageKey(digits: [3, 0xffff, 1])!]),
            .formatPages([p: ruled, .first: .endless]),
            // A text box, and a PDF page under the paper (by hash: the file's bytes are not on the log).
            .add(BoardStroke(id: b, page: p, style: moved.style, points: [InkPoint(x: 0, y: 0, pressure: 1), InkPoint(x: 100, y: 30, pressure: 1)],
                             content: .text(TextBox(text: "ひらがな and text", font: "Sans", size: 14, color: .black, width: 100)))),
            .formatPages([p: PageFormat(size: nil, background: Background(pdf: PDFPageRef(file: ContentHash(of: [1, 2, 3]), index: 4)))]),
        ]
    }

    /// The bytes of every kind of entry, a large entry's parts and a live stroke, pinned by their SHA-256 as the
    /// codec wrote them before it used `ByteWriter`: the board log's format does not change with the code.
    func testEntryBytesAreUnchanged() throws {
        var all: [UInt8] = []
        var filled = stroke(a); filled.style.tool = .pen; filled.style.fill = 128; filled.style.line = .dashDot; filled.style.cap = .butt
        for (k, change) in (version1Changes() + version2Changes() + [.add(filled)]).enumerated() {
            all += try OperationCodec.encode(BoardOperation(client: 42, number: UInt64(k) << 33, change: change))
        }
        let big = BoardStroke(id: a, style: StrokeStyle(), points: (0..<300_000).map { InkPoint(x: Double($0 % 997), y: Double($0 % 991) / 3, pressure: 0.5) })
        for m in try OperationCodec.messages(BoardOperation(client: 3, number: 4, change: .add(big))) { all += Array(m.id.utf8) + m.bytes }
        all += LiveStroke(id: b, style: StrokeStyle(tool: .highlighter, color: RGBA(r: 1, g: 2, b: 3, a: 4), width: 12.5),
                          points: [InkPoint(x: -1.25, y: 1e6, pressure: 0.3), InkPoint(x: 7, y: 8)], ended: true).encoded()
        XCTAssertEqual(ContentHash(of: all).hex, "136656f0e6bae6b7bbaf10e6900f9a63ed51ee2b2e1099a7fe2e1240601f55d3", "\(all.count) bytes")
    }

    /// A page's picture background travels by its file's hash, alone or with a PDF page, in the flag byte that
    /// older entries fill with 0 or 1 (their bytes are pinned above); a flag past both is an error.
    func testPictureBackgroundsTravelByHash() throws {
        let picture = ContentHash(of: [9, 9, 9]), pdf = PDFPageRef(file: ContentHash(of: [1, 2, 3]), index: 2)
        for bg in [Background(style: .ruled, picture: picture), Background(pdf: pdf, picture: picture)] {
            let op = BoardOperation(client: 5, number: 6, change: .formatPages([.first: PageFormat(size: Size(width: 300, height: 200), background: bg)]))
            let back = try OperationCodec.decode(try OperationCodec.encode(op))
            XCTAssertEqual(back, op)
        }
        let op = BoardOperation(client: 5, number: 6, change: .formatPages([.first: PageFormat(size: nil, background: Background(picture: picture))]))
        var bytes = try OperationCodec.encode(op)
        let at = try XCTUnwrap((0..<bytes.count - 64).last { bytes[$0] == 2 && bytes[($0 + 1)...].starts(with: picture.hex.utf8) })
        bytes[at] = 4
        XCTAssertThrowsError(try OperationCodec.decode(bytes))
    }

    /// An image showing a LaTeX formula travels with its source and its PDF's hash (the bytes are not on the log).
    func testFormulasTravelWithTheirLaTeX() throws {
        let box = ImageBox(file: ContentHash(of: [7]), pixelWidth: 120, pixelHeight: 40,
                           formula: Formula(source: "\\int_0^1 x\\,dx", pdf: ContentHash(of: [8])))
        let op = BoardOperation(client: 5, number: 6, change: .add(BoardStroke(id: a, style: StrokeStyle(width: 1),
            points: [InkPoint(x: 0, y: 0, pressure: 1), InkPoint(x: 30, y: 10, pressure: 1)], content: .image(box))))
        let bytes = try OperationCodec.encode(op)
        XCTAssertEqual(try OperationCodec.decode(bytes), op)
        XCTAssertNotNil(bytes.firstRange(of: Array("\\int_0^1 x\\,dx".utf8)), "the source is on the log")
    }

    /// A stroke with a fill, dashes or caps travels in a version-3 entry; plain ink stays in versions 1 and 2, so
    /// older replicas read it; damaged words are errors.
    func testFilledAndDashedStrokesTravelAsVersion3() throws {
        var filled = stroke(a); filled.style.tool = .pen; filled.style.fill = 128; filled.style.line = .dashDot; filled.style.cap = .butt
        var custom = stroke(b, place: a); custom.style.line = LineStyle(dashes: [1.5, 2.25])!
        for change in [BoardOperation.Change.add(filled), .replace(removed: [a], added: [custom])] {
            let op = BoardOperation(client: 5, number: 6, change: change)
            let bytes = try OperationCodec.encode(op)
            XCTAssertEqual(bytes[2], 3)
            XCTAssertEqual(try OperationCodec.decode(bytes), op)
        }
        XCTAssertEqual(try OperationCodec.encode(BoardOperation(client: 5, number: 6, change: .add(stroke(a))))[2], 1)
        var bytes = try OperationCodec.encode(BoardOperation(client: 5, number: 6, change: .add(filled)))
        let at = try XCTUnwrap(bytes.firstRange(of: Array("fill=128".utf8)))
        bytes.replaceSubrange(at, with: Array("fill=999".utf8))
        XCTAssertThrowsError(try OperationCodec.decode(bytes)) { XCTAssertTrue("\($0)".contains("fill '999'"), "\($0)") }
    }

    func testPageAndSelectionEntriesRoundTripAsVersion2() throws {
        let changes = version2Changes()
        for change in changes {
            let op = BoardOperation(client: 42, number: 9, change: change)
            let bytes = try OperationCodec.encode(op)
            XCTAssertEqual(bytes[2], 2, "\(change)")
            XCTAssertEqual(try OperationCodec.decode(bytes), op)
        }
        // A stroke on the first page, never moved, is still written as version 1: older replicas read it.
        XCTAssertEqual(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(stroke(a))))[2], 1)
    }

    /// Bytes written by the version before pages were shared (OperationCodec at 2f3 of issue 13): still read.
    func testVersion1EntriesStillDecode() throws {
        // add: client 5, number 1, stroke 5-1, no place, pen, #ff0000ff, width 3, freehand, two points.
        let points = try PointCodec.encode([InkPoint(x: 1, y: 2, pressure: 0.5), InkPoint(x: 10, y: 2, pressure: 0.5)])
        var add: [UInt8] = [0x4F, 0x4B, 1, 1, 5, 1, 5, 1, 0, 0, 0xff, 0, 0, 0xff]
        withUnsafeBytes(of: (3.0).bitPattern.littleEndian) { add += $0 }
        add += [0, UInt8(points.count)] + points
        let op = try OperationCodec.decode(add)
        guard case .add(let s) = op.change else { return XCTFail("\(op)") }
        XCTAssertEqual(s.id, BoardStrokeID(client: 5, number: 1))
        XCTAssertEqual(s.page, .first)
        XCTAssertEqual(s.transform, .identity)
        XCTAssertEqual(s.points.map(\.x), [1, 10])
        XCTAssertEqual(s.style.color, RGBA(r: 0xff, g: 0, b: 0))
        XCTAssertEqual(try OperationCodec.decode([0x4F, 0x4B, 1, 2, 5, 2, 1, 5, 1]).change, .remove([BoardStrokeID(client: 5, number: 1)]))
        // Kinds of version 2 are not version 1 entries.
        XCTAssertThrowsError(try OperationCodec.decode([0x4F, 0x4B, 1, 9, 5, 2, 1, 0, 0]))
        XCTAssertThrowsError(try OperationCodec.decode([0x4F, 0x4B, 4, 2, 5, 2, 0])) { XCTAssertTrue("\($0)".contains("version 4")) }
    }

    func testHostileVersion2EntriesAreErrors() throws {
        let p = BoardPageID(client: 1, number: 2)
        let page = try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .addPage(BoardPage(id: p, key: .first, format: .fixed(Size(width: 10, height: 10))))))
        for cut in 0..<page.count { XCTAssertThrowsError(try OperationCodec.decode(Array(page[..<cut]))) }
        // A key ending in 0 (no room below it), a page 1e9 wide, a front of too many strokes, an unknown look part.
        var zeroKey: [UInt8] = [0x4F, 0x4B, 2, 8, 1, 1, 1, 2, 2, 5, 0, 0]
        XCTAssertThrowsError(try OperationCodec.decode(zeroKey)) { XCTAssertTrue("\($0)".contains("key"), "\($0)") }
        zeroKey[8] = 0
        XCTAssertThrowsError(try OperationCodec.decode(zeroKey))
        var huge: [UInt8] = [0x4F, 0x4B, 2, 8, 1, 1, 1, 2, 1, 1, 1]
        for v in [1e9, 10.0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { huge += $0 } }
        XCTAssertThrowsError(try OperationCodec.decode(huge)) { XCTAssertTrue("\($0)".contains("page size"), "\($0)") }
        let many = (0..<(OperationCodec.maxReordered + 1)).map { BoardStrokeID(client: 1, number: UInt64($0)) }
        XCTAssertThrowsError(try OperationCodec.decode(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .front(many)))))
        XCTAssertThrowsError(try OperationCodec.decode([0x4F, 0x4B, 2, 5, 1, 1, 1, 1, 1, 8])) { XCTAssertTrue("\($0)".contains("unknown parts"), "\($0)") }
        var flat: [UInt8] = [0x4F, 0x4B, 2, 5, 1, 1, 1, 1, 1, 1]
        for v in [0.0, 0, 0, 0, 1, 1] { withUnsafeBytes(of: v.bitPattern.littleEndian) { flat += $0 } }
        XCTAssertThrowsError(try OperationCodec.decode(flat)) { XCTAssertTrue("\($0)".contains("placement"), "\($0)") }
        // Finite but huge (found by fuzzing the board's log): it placed the stroke's ink at minus infinity.
        var huge2: [UInt8] = [0x4F, 0x4B, 2, 5, 1, 1, 1, 1, 1, 1]
        for v in [1.0, -1.7e308, 0, 1, 0, 0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { huge2 += $0 } }
        XCTAssertThrowsError(try OperationCodec.decode(huge2)) { XCTAssertTrue("\($0)".contains("placement"), "\($0)") }
        var hugeStroke = stroke(a); hugeStroke.page = p; hugeStroke.transform = .translation(2e12, 0)
        XCTAssertThrowsError(try OperationCodec.decode(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(hugeStroke)))))
        var rng = SeededRandom(seed: 9)
        for _ in 0..<2000 {
            var bytes = page
            for _ in 0..<3 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? OperationCodec.decode(bytes)
        }
    }

    /// An entry over `partBytes` goes out in parts; a replica applies it when the last part arrives, at that place.
    func testLargeEntriesTravelInPartsAndApplyWhole() throws {
        let big = BoardStroke(id: BoardStrokeID(client: 5, number: 1), style: StrokeStyle(),
                              points: (0..<400_000).map { (i: Int) -> InkPoint in InkPoint(x: Double((i * 7919) % 1000), y: Double((i * 104_729) % 997), pressure: 1) })
        let op = BoardOperation(client: 5, number: 1, change: .add(big))
        let messages = try OperationCodec.messages(op)
        XCTAssertGreaterThan(messages.count, 1)
        XCTAssertEqual(Set(messages.map(\.id)).count, messages.count, "each part has its own message id")
        XCTAssertTrue(messages.allSatisfy { $0.bytes.count <= OperationCodec.partBytes + 64 })
        let parts = try messages.map { m -> OperationPart in
            guard case .part(let p) = try OperationCodec.decodeMessage(m.bytes) else { throw OperationCodec.Failure("not a part") }
            return p
        }
        // Another client's stroke lands between the parts; the big one goes above it (it is whole only at the end).
        let small = BoardOperation(client: 6, number: 1, change: .add(BoardStroke(id: BoardStrokeID(client: 6, number: 1), style: StrokeStyle(),
                                                                                   points: [InkPoint(x: 1, y: 1), InkPoint(x: 9, y: 9)])))
        var r = BoardReplica(client: 9, document: Document())
        var sequence: UInt64 = 0
        for (i, p) in parts.enumerated() {
            sequence += 1
            r.receive(p, sequence: sequence)
            if i == 0 {
                sequence += 1
                r.receive(small, sequence: sequence)
            }
            if i < parts.count - 1 {
                XCTAssertEqual(r.drawing.strokes.count, 1, "not applied before it is whole")
                XCTAssertEqual(r.resumeSequence, 0, "a restart reads the parts again")
            }
        }
        XCTAssertEqual(r.drawing.strokes.map(\.points.count), [2, 400_000])
        XCTAssertEqual(r.resumeSequence, sequence)
        // Read again from the start (a restart): nothing applies twice.
        var again = r
        for (k, p) in parts.enumerated() { again.receive(p, sequence: sequence + 1 + UInt64(k)) }
        XCTAssertEqual(again.drawing.strokes.count, 2)

        // Hostile parts: one part only, too many, an index past the count; parts that do not make an entry.
        for (index, count) in [(0, 1), (0, OperationCodec.maxParts + 1), (3, 3)] {
            var bad = ByteWriter([0x4F, 0x4B, 2, 13, 1, 1])
            bad.varint(UInt64(index)); bad.varint(UInt64(count))
            XCTAssertThrowsError(try OperationCodec.decodeMessage(bad.bytes + [1, 2, 3]))
        }
        var junk = BoardReplica(client: 9, document: Document())
        junk.receive(OperationPart(client: 7, number: 1, index: 0, count: 2, bytes: [1, 2, 3]), sequence: 1)
        junk.receive(OperationPart(client: 7, number: 1, index: 1, count: 2, bytes: [4, 5]), sequence: 2)
        XCTAssertTrue(junk.drawing.strokes.isEmpty)
        XCTAssertTrue(junk.takeNotes().contains { $0.contains("in 2 parts") })
        XCTAssertEqual(junk.resumeSequence, 2)
    }

    /// Mutated entries of every kind that still decode are applied without a trap, and the replica stays usable.
    func testMutatedEntriesNeverBreakAReplica() throws {
        let p = BoardPageID(client: 3, number: 1), a = BoardStrokeID(client: 3, number: 2)
        let valid: [BoardOperation.Change] = [
            .addPage(BoardPage(id: p, key: PageKey.between(.first, nil), format: .fixed(Size(width: 100, height: 100)))),
            .add(BoardStroke(id: a, page: p, style: StrokeStyle(), points: [InkPoint(x: 1, y: 1), InkPoint(x: 5, y: 5)], transform: .translation(3, 3))),
            .look([LookChange(id: a, transform: .scale(2, 2, about: Point(x: 0, y: 0)), width: 4, color: .black)]),
            .front([a]), .back([a]), .reorder([a: 1 << 20]), .movePages([p: PageKey.between(nil, .first)]),
            .formatPages([p: .endless]), .deletePages([p, .first]), .restorePages([p]), .remove([a]), .restore([a]),
        ]
        let seeds = try valid.enumerated().map { try OperationCodec.encode(BoardOperation(client: 3, number: UInt64($0.offset + 1), change: $0.element)) }
        var rng = SeededRandom(seed: 11)
        var r = BoardReplica(client: 9, document: Document())
        var sequence: UInt64 = 0
        for round in 0..<3000 {
            var bytes = seeds[round % seeds.count]
            if round >= seeds.count {
                for _ in 0..<Int(1 + rng.next() % 3) where bytes.count > 4 { bytes[4 + Int(rng.next() % UInt64(bytes.count - 4))] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            guard var op = try? OperationCodec.decode(bytes) else { continue }
            op.number = UInt64(round + 1)
            sequence += 1
            r.receive(op, sequence: sequence)
        }
        XCTAssertFalse(r.document.pages.isEmpty)
        _ = r.outbox()
        // Still follows the board: a new page from someone else arrives.
        sequence += 1
        r.receive(BoardOperation(client: 4, number: 1, change: .addPage(BoardPage(id: BoardPageID(client: 4, number: 1), key: PageKey(digits: [0xfff0])!, format: .endless))), sequence: sequence)
        XCTAssertNotNil(r.ledger[page: BoardPageID(client: 4, number: 1)])
    }

    func testAFloodOfPagesStopsAtWhatADocumentHolds() {
        var r = BoardReplica(client: 9, document: Document())
        r.pageLimit = 40
        var key = PageKey.first
        for n in 1...45 {
            key = PageKey.between(key, nil)
            r.receive(BoardOperation(client: 66, number: UInt64(n), change: .addPage(BoardPage(id: BoardPageID(client: 66, number: UInt64(n)), key: key, format: .endless))),
                      sequence: UInt64(n))
        }
        XCTAssertEqual(r.ledger.pages.count, 40)
        XCTAssertEqual(r.document.pages.count, 40)
        XCTAssertTrue(r.takeNotes().contains { $0.contains("ignored: the board has") })
    }

    func testPageKeysAlwaysFitBetween() {
        var keys = [PageKey.first]
        var rng = SeededRandom(seed: 3)
        for _ in 0..<2000 {
            let i = Int(rng.next() % UInt64(keys.count + 1))
            let k = PageKey.between(i > 0 ? keys[i - 1] : nil, i < keys.count ? keys[i] : nil)
            XCTAssertNotNil(PageKey(digits: k.digits))
            if i > 0 { XCTAssertLessThan(keys[i - 1], k) }
            if i < keys.count { XCTAssertLessThan(k, keys[i]) }
            keys.insert(k, at: i)
        }
        // Appending page after page keeps keys short.
        var last = PageKey.first
        for _ in 0..<500 { last = PageKey.between(last, nil) }
        XCTAssertLessThanOrEqual(last.digits.count, 2)
    }

    func testHostileEntriesAreErrorsNotCrashes() throws {
        let good = try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(stroke(a))))
        var unknown = good; unknown[3] = 9
        XCTAssertThrowsError(try OperationCodec.decode(unknown)) { XCTAssertTrue("\($0)".contains("unknown operation kind 9")) }
        for cut in 0..<good.count { XCTAssertThrowsError(try OperationCodec.decode(Array(good[..<cut]))) }
        XCTAssertThrowsError(try OperationCodec.decode(good + [0]))
        XCTAssertThrowsError(try OperationCodec.decode([UInt8](repeating: 0x4F, count: OperationCodec.maxBytes + 1))) {
            XCTAssertTrue("\($0)".contains("limit"))
        }
        // A NaN width; NaN points cannot be written at all (the point codec refuses them).
        var nanWidth = good
        let widthAt = 3 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 4   // magic+version, kind, client, number, id(2 bytes), flag, tool, rgba
        for i in 0..<8 { nanWidth[widthAt + i] = withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { $0[i] } }
        XCTAssertThrowsError(try OperationCodec.decode(nanWidth)) { XCTAssertTrue("\($0)".contains("width")) }
        var nanStroke = stroke(a); nanStroke.points[1].x = .nan
        XCTAssertThrowsError(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(nanStroke))))
        // A list claiming more ids than allowed is refused before anything is allocated.
        var many = ByteWriter([0x4F, 0x4B, 1, 2, 1, 1])
        many.varint(UInt64(OperationCodec.maxIDs + 1))
        XCTAssertThrowsError(try OperationCodec.decode(many.bytes))
        var rng = SeededRandom(seed: 5)
        for _ in 0..<2000 {
            var bytes = good
            for _ in 0..<3 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? OperationCodec.decode(bytes)
        }
    }

    // MARK: the fuzzer's seeds

    /// `Fuzz/corpus/boardlog`: runs of messages (each a 2-byte little-endian length and its bytes) as
    /// `Fuzz/BoardLogFuzz.swift` reads them. They must stay entries this build reads, of every kind, so the fuzzer
    /// starts from real ones. `OEKAKI_WRITE_FUZZ_SEEDS=1` writes them again (after a change to the codec).
    func testTheBoardLogFuzzSeedsAreEntriesOfEveryKind() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/boardlog")
        if ProcessInfo.processInfo.environment["OEKAKI_WRITE_FUZZ_SEEDS"] != nil { try writeBoardLogSeeds(to: folder) }
        var kinds = Set<UInt8>(), parts: [OperationPart] = [], live = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for message in Self.messages(in: [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))) {
                guard message.starts(with: [0x4F, 0x4B]) else {
                    XCTAssertNotNil(LiveStroke(message), file)
                    live += 1
                    continue
                }
                switch try OperationCodec.decodeMessage(message) {
                case .operation: kinds.insert(message[3])
                case .part(let p): parts.append(p)
                }
            }
        }
        XCTAssertEqual(kinds, Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]))
        // The parts make a whole entry again.
        XCTAssertEqual(parts.map(\.index), [0, 1])
        XCTAssertEqual(parts.flatMap(\.bytes), try OperationCodec.encode(BoardOperation(client: 3, number: 1, change: .add(bigStroke()))))
        XCTAssertEqual(live, 2)
    }

    private static func messages(in bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [], at = 0
        while at + 2 <= bytes.count {
            let n = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            out.append(Array(bytes[(at + 2)..<min(at + 2 + n, bytes.count)]))
            at += 2 + n
        }
        return out
    }

    private func bigStroke() -> BoardStroke {
        BoardStroke(id: BoardStrokeID(client: 3, number: 1), style: StrokeStyle(color: .black, width: 2),
                    points: (0..<300).map { InkPoint(x: Double($0), y: 50 + 20 * sin(Double($0) / 9), pressure: 0.5) })
    }

    private func writeBoardLogSeeds(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func framed(_ messages: [[UInt8]]) -> Data {
            Data(messages.flatMap { [UInt8($0.count & 0xff), UInt8($0.count >> 8)] + $0 })
        }
        let all = version1Changes() + version2Changes()
        let entries = try all.enumerated().map { try OperationCodec.encode(BoardOperation(client: 42, number: UInt64($0.offset + 1), change: $0.element)) }
        try framed(entries).write(to: folder.appendingPathComponent("every-kind.bin"))
        // A whole entry in two parts (as an entry over `partBytes` travels), then its stroke erased.
        let whole = try OperationCodec.encode(BoardOperation(client: 3, number: 1, change: .add(bigStroke())))
        let half = whole.count / 2
        let parts = [Array(whole[..<half]), Array(whole[half...])].enumerated().map { i, slice in
            [0x4F, 0x4B, 2, 13, 3, 1, UInt8(i), 2] + slice
        }
        let erase = try OperationCodec.encode(BoardOperation(client: 3, number: 2, change: .remove([bigStroke().id])))
        try framed(parts + [erase]).write(to: folder.appendingPathComponent("parts.bin"))
        // Live strokes: one still being drawn, then ended, then stored.
        let s = bigStroke()
        let live = [LiveStroke(id: s.id, style: s.style, points: Array(s.points.prefix(40)), ended: false).encoded(),
                    LiveStroke(id: s.id, style: s.style, points: s.points, ended: true).encoded(),
                    try OperationCodec.encode(BoardOperation(client: 3, number: 1, change: .add(s)))]
        try framed(live).write(to: folder.appendingPathComponent("live.bin"))
    }
}
