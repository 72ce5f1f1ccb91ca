import Foundation

/// The seeds a random simulation runs: the committed ones, or `OEKAKI_SIMULATION_SEEDS=FROM-TO` for a wider
/// run now and then (each wider run so far found a divergence the committed seeds missed).
enum SimulationSeeds {
    static func or(_ committed: [UInt64]) -> [UInt64] {
        guard let text = ProcessInfo.processInfo.environment["OEKAKI_SIMULATION_SEEDS"] else { return committed }
        let ends = text.split(separator: "-").compactMap { UInt64($0) }
        guard ends.count == 2, ends[0] <= ends[1] else { fatalError("OEKAKI_SIMULATION_SEEDS must be FROM-TO, not '\(text)'") }
        return Array(ends[0]...ends[1])
    }
}
