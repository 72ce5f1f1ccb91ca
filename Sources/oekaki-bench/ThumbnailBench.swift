import Foundation
import InkCore
import InkRender
import InkStore
import Thumbnailer

/// `oekaki-thumbnailer ink-1m.oekaki out.png` (256×256, what a file manager asks for), timed from spawn to exit as
/// the desktop's thumbnailer entry runs it; the same work inside this process; and, for comparison, the same
/// command through the app's binary (`oekaki thumbnail`, which loads GTK first).
enum ThumbnailBench {
    struct Result {
        var process = Samples()
        /// CPU time of the process (user + system, all threads): what it costs whatever else the machine runs.
        var cpu = Samples()
        var inProcess = Samples()
        /// `oekaki thumbnail`, spawn to exit.
        var viaApp = Samples()
        var failures: [String] = []
    }

    static func run(_ w: Workloads, rounds: Int) -> Result {
        var r = Result()
        let me = ChildProcess.ownExecutable
        let cli = (me as NSString).deletingLastPathComponent + "/oekaki-thumbnailer"
        let app = (me as NSString).deletingLastPathComponent + "/oekaki"
        let out = w.folder + "/thumbnail.png"
        let env = ["PATH": Executables.path, "HOME": w.home, "LANG": "C.UTF-8"]
        for _ in 0..<rounds {
            if FileManager.default.isExecutableFile(atPath: cli) {
                unlink(out)
                do {
                    let c = try ChildProcess.measure(cli, [w.oekaki, out], environment: env, log: w.log, timeout: 60)
                    if c.exitStatus != 0 || c.timedOut {
                        r.failures.append("oekaki-thumbnailer: exit status \(c.exitStatus) (see \(w.log))")
                    } else if PNGHeader.size(out).map({ $0 != (256, 256) }) ?? true {
                        r.failures.append("oekaki-thumbnailer left no 256×256 PNG")
                    } else {
                        r.process.add(c.wallMs)
                        r.cpu.add(c.cpuMs)
                    }
                } catch { r.failures.append("\(error)") }
            } else if r.failures.isEmpty {
                r.failures.append("oekaki-thumbnailer is not built beside the bench: thumbnail_ms_1m is null")
            }
            if FileManager.default.isExecutableFile(atPath: app),
               let c = try? ChildProcess.measure(app, ["thumbnail", w.oekaki, out], environment: env, log: w.log, timeout: 60),
               c.exitStatus == 0, !c.timedOut {
                r.viaApp.add(c.wallMs)
            }
            if let ms = try? Clock.ms({ try ThumbnailCommand.write(w.oekaki, to: out, size: Thumbnail.defaultSize) }).1 {
                r.inProcess.add(ms)
            }
        }
        unlink(out)
        return r
    }
}
