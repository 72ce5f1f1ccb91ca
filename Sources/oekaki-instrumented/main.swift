import AppInstruments
import Foundation
import OekakiApp

// The app as `oekaki` opens it (`oekaki-instrumented [FILE | nats://…/BOARD]`), with the observer the benchmarks
// and the window tests read installed (`OEKAKI_TRACE`, `OEKAKI_LAYOUT_REPORT`, `OEKAKI_FLOOR`). Never installed:
// the shipped `oekaki` does not link these hooks. Subcommands are `oekaki`'s alone.
let args = Array(CommandLine.arguments.dropFirst())
guard args.count <= 1, !(args.first?.hasPrefix("-") ?? false) else {
    FileHandle.standardError.write(Data("usage: oekaki-instrumented [FILE]\n".utf8))
    exit(2)
}
EnvironmentInstruments().installIfAsked()
exit(OekakiApplication.run(file: args.first))
