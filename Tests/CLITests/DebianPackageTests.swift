import Foundation
import XCTest

/// `make deb`: the package runs without the Swift toolchain. Extracted with `dpkg-deb -x`, its binary resolves no
/// library under the toolchain's folder, and `oekaki --version`, `replay` and an export work with the toolchain out
/// of PATH and LD_LIBRARY_PATH; lintian reports no errors. `make deb` rebuilds only when a source changed, so
/// the release build (minutes on two cores) happens once per change, not once per test run.
final class DebianPackageTests: XCTestCase {
    func testPackageRunsWithoutTheToolchain() throws {
        for tool in ["make", "dpkg-deb", "dpkg-shlibdeps", "ldd"] {
            guard Shell.find(tool) != nil else { throw XCTSkip("\(tool) is needed (make deps installs it)") }
        }
        let root = InstallTests.packageRoot
        let build = try Shell.run("make", ["--no-print-directory", "deb"], in: root, timeout: 3600)
        XCTAssertEqual(build.status, 0, "make deb: \(build.output.suffix(3000))")
        let version = try OekakiBinary.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "oekaki ", with: "")
        let deb = root.appendingPathComponent("oekaki_\(version)_amd64.deb")
        guard FileManager.default.fileExists(atPath: deb.path) else { return XCTFail("no \(deb.lastPathComponent) after make deb") }

        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let tree = tmp.appendingPathComponent("root")
        XCTAssertEqual(try Shell.run("dpkg-deb", ["-x", deb.path, tree.path]).status, 0)
        let bin = tree.appendingPathComponent("usr/bin/oekaki").path
        for file in ["usr/share/applications/io.github.oekaki.Oekaki.desktop", "usr/share/man/man1/oekaki.1.gz", "usr/bin/oekaki-thumbnailer",
                     "usr/share/metainfo/io.github.oekaki.Oekaki.metainfo.xml", "usr/share/doc/oekaki/copyright",
                     "usr/share/thumbnailers/io.github.oekaki.Oekaki.thumbnailer", "usr/share/locale/ja/LC_MESSAGES/oekaki.mo"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: tree.appendingPathComponent(file).path), "\(file) is in the package")
        }

        // The toolchain's folder: where `swift` really lives, two levels up (/opt/swift/usr/bin/swift → /opt/swift).
        let swift = URL(fileURLWithPath: Shell.find("swift") ?? "/opt/swift/usr/bin/swift").resolvingSymlinksInPath()
        let toolchain = swift.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let clean = ["PATH": "/usr/bin:/bin", "HOME": tmp.path, "LANG": "C.UTF-8"]
        let ldd = try Shell.run("ldd", [bin], environment: clean)
        XCTAssertEqual(ldd.status, 0, ldd.output)
        XCTAssertFalse(ldd.output.contains(toolchain), "nothing resolves under \(toolchain):\n\(ldd.output)")
        XCTAssertFalse(ldd.output.contains("not found"), ldd.output)
        XCTAssertTrue(ldd.output.contains("libgtk-4.so"), "GTK comes from Debian: \(ldd.output)")

        let v = try Shell.run(bin, ["--version"], environment: clean)
        XCTAssertEqual(v.status, 0, v.output)
        XCTAssertEqual(v.output, "oekaki \(version)\n")
        let log = tmp.appendingPathComponent("line.jsonl")
        try #"""
        {"type":"touch","phase":"began","id":1,"x":100,"y":100}
        {"type":"touch","phase":"moved","id":1,"x":300,"y":200}
        {"type":"touch","phase":"ended","id":1,"x":500,"y":100}

        """#.write(to: log, atomically: true, encoding: .utf8)
        let doc = tmp.appendingPathComponent("d.oekaki").path, png = tmp.appendingPathComponent("d.png").path
        XCTAssertEqual(try Shell.run(bin, ["replay", log.path, "-o", doc], environment: clean).status, 0)
        let export = try Shell.run(bin, ["export", doc, png], environment: clean)
        XCTAssertEqual(export.status, 0, export.output)
        let header = (try? Data(contentsOf: URL(fileURLWithPath: png)).prefix(8)) ?? Data()
        XCTAssertEqual([UInt8](header), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG was written")

        // The thumbnailer the package's entry names: no GTK, nothing from the toolchain, and it works.
        let thumbnailer = tree.appendingPathComponent("usr/bin/oekaki-thumbnailer").path
        let tldd = try Shell.run("ldd", [thumbnailer], environment: clean)
        XCTAssertEqual(tldd.status, 0, tldd.output)
        XCTAssertFalse(tldd.output.contains(toolchain) || tldd.output.contains("not found") || tldd.output.contains("libgtk"), tldd.output)
        let thumb = tmp.appendingPathComponent("t.png").path
        let t = try Shell.run(thumbnailer, [doc, thumb, "--size", "64"], environment: clean)
        XCTAssertEqual(t.status, 0, t.output)
        let theader = (try? Data(contentsOf: URL(fileURLWithPath: thumb)).prefix(8)) ?? Data()
        XCTAssertEqual([UInt8](theader), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a thumbnail was written")

        let info = try Shell.run("dpkg-deb", ["-f", deb.path, "Depends"])
        for lib in ["libgtk-4-1", "libcairo2", "libsqlite3-0", "zlib1g", "libc6"] {
            XCTAssertTrue(info.output.contains(lib), "Depends names \(lib): \(info.output)")
        }
        XCTAssertFalse(info.output.contains("swift"), info.output)

        if Shell.find("lintian") != nil {
            let lint = try Shell.run("lintian", ["--tag-display-limit", "0", deb.path], timeout: 600)
            let errors = lint.output.split(separator: "\n").filter { $0.hasPrefix("E:") }
            XCTAssertEqual(errors, [], "lintian errors:\n\(lint.output)")
        }
    }
}
