import Foundation
import Commands
import Localization
import Thumbnailer

// `oekaki-thumbnailer IN OUT.png [--size N]`: `oekaki thumbnail` for the desktop's thumbnailer entry. A file
// manager starts it once per file, so it links no GTK (whose libraries take longer to load than a thumbnail
// takes to draw); the messages and exit codes are `oekaki thumbnail`'s.

let usage = localized("usage:") + " oekaki-thumbnailer " + ThumbnailCommand.syntax
let args = Array(CommandLine.arguments.dropFirst())
if args.first == "--help" || args.first == "-h" {
    print(usage)
    print(ThumbnailCommand.usage.lines[0].what)
    exit(0)
}
do {
    try ThumbnailCommand.run(args)
} catch {
    exit(CommandFailure.report(error, program: "oekaki-thumbnailer", usage: usage))
}
