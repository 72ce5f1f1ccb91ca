import Foundation
import Localization
import Thumbnailer

// `oekaki-thumbnailer IN OUT.png [--size N]`: `oekaki thumbnail` for the desktop's thumbnailer entry. A file
// manager starts it once per file, so it links no GTK (whose libraries take longer to load than a thumbnail
// takes to draw); the messages and exit codes are `oekaki thumbnail`'s.

func fail(_ message: String, usage: Bool) -> Never {
    var text = "oekaki-thumbnailer: \(message)\n"
    if usage { text += localized("usage:") + " oekaki-thumbnailer IN OUT.png [--size N]\n" }
    FileHandle.standardError.write(Data(text.utf8))
    exit(usage ? 2 : 1)
}

let args = Array(CommandLine.arguments.dropFirst())
if args.first == "--help" || args.first == "-h" {
    print(localized("usage:") + " oekaki-thumbnailer IN OUT.png [--size N]")
    print(localized("the first page fitted into N×N pixels (default 256)"))
    exit(0)
}
do {
    try ThumbnailCommand.run(args)
} catch ThumbnailCommand.Failure.usage(let m) {
    fail(m, usage: true)
} catch ThumbnailCommand.Failure.input(let m) {
    fail(m, usage: false)
} catch {
    fail("\(error)", usage: false)
}
