import Foundation

enum InfoCommand {
    static func run(_ args: [String]) throws {
        throw CommandFailure.input("'info' is not implemented yet")
    }
}
