import InkCore
@testable import InkRender
import XCTest

/// A screen render's bands are cut by the work the strokes' bounds promise, on the lattice, heaviest first and
/// the last ones small, so the cores end together.
final class BandCutsTests: XCTestCase {
    /// Estimated work of each band between `edges`.
    private func work(_ cuts: BandCuts, _ edges: [Int], perRow: (Int) -> Double) -> [Double] {
        (0..<(edges.count - 1)).map { b in (edges[b]..<edges[b + 1]).reduce(0) { $0 + perRow($1) } }
    }

    func testCutsLieOnTheLatticeAndCoverEveryRow() {
        for (height, dy) in [(681, 0.0), (1193, -37.4), (700, 12.99), (97, 5)] {
            let mapping = DeviceMapping(scale: 1.15, dx: 0, dy: dy)
            var cuts = BandCuts(height: height)
            cuts.add(1000, rows: 0, Double(height))
            let edges = cuts.edges(mapping: mapping, bands: 8)
            XCTAssertEqual(edges.first, 0)
            XCTAssertEqual(edges.last, height)
            XCTAssertEqual(edges, edges.sorted())
            XCTAssertEqual(Set(edges).count, edges.count, "no empty band")
            let lines = Set(BandCuts.latticeLines(height: height, mapping: mapping))
            for e in edges.dropFirst().dropLast() {
                XCTAssertTrue(lines.contains(e), "cut \(e) of \(height) rows at dy \(dy) is off the lattice")
                // The lattice: where page y = 0 lands, floored, plus whole steps.
                XCTAssertEqual((Double(e) - dy.rounded(.down)).truncatingRemainder(dividingBy: Double(CairoContext.latticeStep)), 0)
            }
        }
    }

    func testEvenWorkIsSharedOutFallingToTheLastBand() {
        let height = 1024
        var cuts = BandCuts(height: height)
        cuts.add(1024, rows: 0, 1024)
        let edges = cuts.edges(mapping: DeviceMapping(scale: 1), bands: 4)
        // Shares 4:3:2:1 of 1024 rows: 409.6, 716.8, 921.6, each on the nearest line of 32.
        XCTAssertEqual(edges, [0, 416, 704, 928, 1024])
    }

    func testBandsCrowdWhereTheInkIs() {
        let height = 800
        var cuts = BandCuts(height: height)
        // A little paper everywhere, heavy ink in rows 100…300.
        cuts.add(80, rows: 0, 800)
        cuts.add(10_000, rows: 100, 300)
        let edges = cuts.edges(mapping: DeviceMapping(scale: 1), bands: 8)
        let inside = edges.filter { $0 > 100 && $0 < 300 }.count
        XCTAssertGreaterThanOrEqual(inside, 5, "cuts \(edges)")
        let shares = work(cuts, edges) { y in 0.1 + (y >= 100 && y < 300 ? 50 : 0) }
        // The first band holds the most work, the last the least.
        XCTAssertEqual(shares.firstIndex(of: shares.max()!), 0, "\(shares)")
        XCTAssertLessThan(shares.last!, shares.first! / 3, "\(shares)")
    }

    func testNoWorkCutsTheRowsAndShortSurfacesStayWhole() {
        let cuts = BandCuts(height: 640)
        let edges = cuts.edges(mapping: DeviceMapping(scale: 1), bands: 4)
        XCTAssertEqual(edges, [0, 256, 448, 576, 640])
        var short = BandCuts(height: 20)
        short.add(5, rows: 0, 20)
        XCTAssertEqual(short.edges(mapping: DeviceMapping(scale: 1), bands: 8), [0, 20])
        // Work partly or wholly outside the surface, or not finite, is no trouble.
        var odd = BandCuts(height: 100)
        odd.add(50, rows: -1e300, 1e300)
        odd.add(7, rows: .nan, 3)
        odd.add(9, rows: 200, 300)
        XCTAssertEqual(odd.edges(mapping: DeviceMapping(scale: 1), bands: 2).first, 0)
    }
}
