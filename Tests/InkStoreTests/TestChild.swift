import Foundation

extension TempDirTestCase {
    /// Re-runs this test binary as a child that executes one test (`Suite/test`) with extra environment, its stdout
    /// piped back and stderr dropped: how the kill and two-process tests get a real second process to kill. The
    /// child's own temporary folder is made inside this test's, which goes when this test ends (a killed child
    /// never removes its own).
    func startTestChild(_ test: String, environment extra: [String: String]) throws -> (process: Process, stdout: FileHandle) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [test]
        child.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }.merging(["TMPDIR": dir + "/"]) { $1 }
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        return (child, out.fileHandleForReading)
    }
}
