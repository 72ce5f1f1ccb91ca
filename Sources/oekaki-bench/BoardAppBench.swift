import Foundation
import InkCore
import InkStore
import InkSync

/// The app window joined to a shared board with nothing happening: the CPU of its process (all threads) over
/// 10 s, once it has joined and settled. The board is uploaded first by a replica of our own; the window's
/// replica (in its data folder, where `oekaki nats://…/BOARD` looks) is that replica's file, so joining reads no
/// log and the window shows the whole drawing.
enum BoardAppBench {
    struct Result {
        /// 10,000 pressure strokes × 100 points (1M points) and 100,000 (10M points): CPU % of a core over 10 s.
        var idle1m = Samples(), idle10m = Samples()
        /// Seconds each board took: the upload by a replica of our own, then the window joined and at rest.
        var parts: [(name: String, seconds: Double)] = []
        var notes: [String] = []
    }

    static func run(_ w: Workloads, display: VirtualDisplay, seconds: Double = 10) -> Result {
        var r = Result()
        guard let server = SyncBench.serverExecutable else { r.notes.append("board window: nats-server not installed (make deps)"); return r }
        let app = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki-instrumented"
        guard FileManager.default.isExecutableFile(atPath: app) else { r.notes.append("board window: oekaki-instrumented is not built beside the bench"); return r }
        guard let xdotool = Executables.find("xdotool") else { r.notes.append("board window: xdotool is not installed"); return r }
        let dir = w.folder + "/board-window"
        let pid: pid_t, base: String
        do { (pid, base) = try SyncBench.startServer(server, dir: dir) } catch { r.notes.append("board window: \(error)"); return r }
        defer { ChildProcess.stop(pid); try? FileManager.default.removeItem(atPath: dir) }
        for (board, drawing) in [("million", w.million), ("tenmillion", w.large)] {
            let t0 = Clock.nanoseconds()
            do {
                let pct = try idle(board: board, drawing: drawing, base: base, dir: dir, w: w, display: display, app: app, xdotool: xdotool, seconds: seconds)
                if board == "million" { r.idle1m.add(pct) } else { r.idle10m.add(pct) }
            } catch { r.notes.append("board window (\(board)): \(error)") }
            let name = "the window at rest on the \(board == "million" ? "1M" : "10M")-point board (its upload, the window)"
            r.parts.append((name, Double(Clock.nanoseconds() - t0) / 1e9))
            FileHandle.standardError.write(Data("oekaki-bench: shared board: \(name): \(String(format: "%.0f", r.parts.last?.seconds ?? 0)) s\n".utf8))
        }
        return r
    }

    private static func idle(board: String, drawing: Drawing, base: String, dir: String, w: Workloads, display: VirtualDisplay,
                             app: String, xdotool: String, seconds: Double) throws -> Double {
        let url = "\(base)/\(board)"
        let parsed = try BoardURL(url)
        let up = try SyncBench.replica(dir + "/\(board).oekaki", url, drawing: drawing)
        try up.syncOnce(timeoutMs: 600_000)
        up.disconnect(); up.document.close()
        // Where the window looks for the board's replica: `$XDG_DATA_HOME/oekaki/boards/BOARD on HOST PORT.oekaki`.
        let boards = w.home + "/.local/share/oekaki/boards"
        try FileManager.default.createDirectory(atPath: boards, withIntermediateDirectories: true)
        let replica = "\(boards)/\(board) on \(parsed.host) \(parsed.port).oekaki"
        for s in ["", "-wal", "-shm"] { unlink(replica + s) }
        try FileManager.default.moveItem(atPath: dir + "/\(board).oekaki", toPath: replica)
        guard let s = AppBench.Session(app: app, file: url, floor: false, w: w, display: display, xdotool: xdotool) else {
            throw BoardSync.Failure.other("the window did not appear")
        }
        defer { s.stop(); for x in ["", "-wal", "-shm"] { unlink(replica + x) } }
        // Joined (connect, the one comparison at start, the first frames), then quiet.
        usleep(3_000_000)
        s.settle()
        guard let a = s.cpuMs() else { throw BoardSync.Failure.other("the window exited") }
        usleep(UInt32(seconds * 1_000_000))
        guard let b = s.cpuMs() else { throw BoardSync.Failure.other("the window exited") }
        return (b - a) / (seconds * 1000) * 100
    }
}
