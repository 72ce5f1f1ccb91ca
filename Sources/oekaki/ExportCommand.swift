import Foundation

enum ExportCommand {
    static func run(_ args: [String]) throws {
        throw CommandFailure.input("'export' is not implemented yet")
    }
}
