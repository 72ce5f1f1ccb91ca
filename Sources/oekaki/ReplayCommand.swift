import Foundation

enum ReplayCommand {
    static func run(_ args: [String]) throws {
        throw CommandFailure.input("'replay' is not implemented yet")
    }
}
