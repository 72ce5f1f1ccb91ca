import Foundation
import XCTest

/// `make install DESTDIR=…` into a temporary root: every file a desktop needs is there and valid, the MIME database
/// built from that root recognises a `.oekaki` (by name and by content), and `make uninstall` takes it all away.
final class InstallTests: XCTestCase {
    static let appID = "io.github.oekaki.Oekaki"
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    var root: URL!
    var share: URL { root.appendingPathComponent("usr/share") }

    override func setUpWithError() throws {
        for tool in ["make", "desktop-file-validate", "appstreamcli", "update-mime-database", "xdg-mime", "gio", "msgfmt"] {
            guard Shell.find(tool) != nil else { throw XCTSkip("\(tool) is needed (make deps installs it)") }
        }
        guard let bin = OekakiBinary.url else { throw OekakiBinary.Failure.notFound(OekakiBinary.candidates.map(\.path)) }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-install-\(UUID().uuidString)")
        let make = try Shell.run("make", ["--no-print-directory", "install", "DESTDIR=\(root.path)", "PREFIX=/usr", "OEKAKI_BIN=\(bin.path)"],
                                 in: Self.packageRoot)
        XCTAssertEqual(make.status, 0, "make install: \(make.output)")
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    static let installed = [
        "bin/oekaki",
        "bin/oekaki-thumbnailer",
        "share/applications/\(appID).desktop",
        "share/icons/hicolor/scalable/apps/\(appID).svg",
        "share/icons/hicolor/symbolic/apps/\(appID)-symbolic.svg",
        "share/icons/hicolor/scalable/mimetypes/application-x-oekaki.svg",
        "share/mime/packages/\(appID).xml",
        "share/thumbnailers/\(appID).thumbnailer",
        "share/metainfo/\(appID).metainfo.xml",
        "share/man/man1/oekaki.1",
        "share/man/man1/oekaki-thumbnailer.1",
        "share/bash-completion/completions/oekaki",
        "share/locale/ja/LC_MESSAGES/oekaki.mo",
    ]

    func testInstallPutsEveryFileInPlaceAndUninstallRemovesThem() throws {
        let usr = root.appendingPathComponent("usr")
        for path in Self.installed {
            let size = (try? FileManager.default.attributesOfItem(atPath: usr.appendingPathComponent(path).path)[.size] as? Int) ?? nil
            XCTAssertGreaterThan(size ?? 0, 0, "\(path) is installed and not empty")
        }
        let version = try Shell.run(usr.appendingPathComponent("bin/oekaki").path, ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.output.hasPrefix("oekaki "), version.output)
        let thumbnailer = try Shell.run(usr.appendingPathComponent("bin/oekaki-thumbnailer").path, ["--help"])
        XCTAssertEqual(thumbnailer.status, 0, thumbnailer.output)
        // The thumbnailer entry names the installed thumbnailer.
        let entry = try String(contentsOf: share.appendingPathComponent("thumbnailers/\(Self.appID).thumbnailer"), encoding: .utf8)
        XCTAssertTrue(entry.contains("\nExec=oekaki-thumbnailer %i %o --size %s\n"), entry)

        // The launcher names the installed binary and icon, under the one app id.
        let desktop = try String(contentsOf: share.appendingPathComponent("applications/\(Self.appID).desktop"), encoding: .utf8)
        XCTAssertTrue(desktop.contains("\nExec=oekaki %f\n"), desktop)
        XCTAssertTrue(desktop.contains("\nIcon=\(Self.appID)\n"))
        XCTAssertTrue(desktop.contains("MimeType=application/x-oekaki;application/x-xopp;"))
        let metainfo = try String(contentsOf: share.appendingPathComponent("metainfo/\(Self.appID).metainfo.xml"), encoding: .utf8)
        XCTAssertTrue(metainfo.contains("<id>\(Self.appID)</id>"))
        XCTAssertTrue(metainfo.contains("<launchable type=\"desktop-id\">\(Self.appID).desktop</launchable>"))
        let version0 = version.output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "oekaki ", with: "")
        XCTAssertTrue(metainfo.contains("<release version=\"\(version0)\""), "release notes for this version (\(version0))")

        // The man page formats without warnings.
        if Shell.find("groff") != nil {
            for page in ["oekaki.1", "oekaki-thumbnailer.1"] {
                let man = try Shell.run("groff", ["-man", "-Tutf8", "-ww", "-z", share.appendingPathComponent("man/man1/" + page).path])
                XCTAssertEqual(man.status, 0)
                XCTAssertEqual(man.output, "", "groff warnings in \(page)")
            }
        }

        let uninstall = try Shell.run("make", ["--no-print-directory", "uninstall", "DESTDIR=\(root.path)", "PREFIX=/usr"], in: Self.packageRoot)
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        let left = FileManager.default.enumerator(atPath: root.path)?.compactMap { p -> String? in
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: root.appendingPathComponent(p as! String).path, isDirectory: &isDir)
            return isDir.boolValue ? nil : p as? String
        } ?? []
        XCTAssertEqual(left, [], "make uninstall leaves no file behind")
    }

    func testDesktopFileAndMetainfoPassTheValidators() throws {
        let desktop = try Shell.run("desktop-file-validate", [share.appendingPathComponent("applications/\(Self.appID).desktop").path])
        XCTAssertEqual(desktop.status, 0, desktop.output)
        XCTAssertEqual(desktop.output, "", "no hints or warnings")
        let appstream = try Shell.run("appstreamcli", ["validate", "--no-net", share.appendingPathComponent("metainfo/\(Self.appID).metainfo.xml").path])
        XCTAssertEqual(appstream.status, 0, appstream.output)
        XCTAssertTrue(appstream.output.contains("Validation was successful"), appstream.output)
    }

    func testTheRootsMimeDatabaseKnowsOekakiByNameAndByContent() throws {
        let mime = try Shell.run("update-mime-database", [share.appendingPathComponent("mime").path])
        XCTAssertEqual(mime.status, 0, mime.output)
        let dir = root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let drawing = dir.appendingPathComponent("drawing.oekaki")
        let log = dir.appendingPathComponent("one.jsonl")
        try #"""
        {"type":"touch","phase":"began","id":1,"x":10,"y":10}
        {"type":"touch","phase":"ended","id":1,"x":90,"y":40}

        """#.write(to: log, atomically: true, encoding: .utf8)
        XCTAssertEqual(try OekakiBinary.run(["replay", log.path, "-o", drawing.path]).status, 0)
        let renamed = dir.appendingPathComponent("no-extension")
        try FileManager.default.copyItem(at: drawing, to: renamed)
        // Another SQLite database with our extension's neighbour: content decides, it is not ours.
        let otherDB = dir.appendingPathComponent("other")
        var header = Data("SQLite format 3\0".utf8) + Data(count: 84)
        header[68] = 0x12
        try header.write(to: otherDB)

        // xdg-mime asks gio under GNOME; gio reads the shared-mime-info database of XDG_DATA_DIRS.
        func filetype(_ file: URL) throws -> String {
            var env = ProcessInfo.processInfo.environment
            env["XDG_CURRENT_DESKTOP"] = "GNOME"
            env["XDG_DATA_DIRS"] = share.path + ":/usr/share"
            env["XDG_DATA_HOME"] = root.appendingPathComponent("home-data").path
            let r = try Shell.run("xdg-mime", ["query", "filetype", file.path], environment: env)
            XCTAssertEqual(r.status, 0, r.output)
            return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try filetype(drawing), "application/x-oekaki")
        XCTAssertEqual(try filetype(renamed), "application/x-oekaki", "the magic (SQLite header + application_id) finds it without the name")
        XCTAssertNotEqual(try filetype(otherDB), "application/x-oekaki", "a SQLite database of another application is not a drawing")
        let xopp = dir.appendingPathComponent("notes.xopp")
        XCTAssertEqual(try OekakiBinary.run(["export", drawing.path, xopp.path]).status, 0)
        XCTAssertEqual(try filetype(xopp), "application/x-xopp")
    }

    func testBashCompletionOffersTheCommands() throws {
        let framework = "/usr/share/bash-completion/bash_completion"
        guard FileManager.default.fileExists(atPath: framework) else { throw XCTSkip("bash-completion is not installed") }
        let script = share.appendingPathComponent("bash-completion/completions/oekaki").path
        func complete(_ words: [String]) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try Shell.run("bash", ["-c", """
                source \(framework); source '\(script)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _oekaki; echo "${COMPREPLY[*]}"
                """], in: root)
            XCTAssertEqual(r.status, 0, r.output)
            return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try complete(["oekaki", "thu"]), "thumbnail")
        XCTAssertEqual(try complete(["oekaki", "export", "in.oekaki", "out.png", "--tr"]), "--transparent")
        XCTAssertEqual(try complete(["oekaki", "thumbnail", "in.oekaki", "out.png", "--"]), "--size")
    }
}

/// Runs other programs for the install and package tests.
enum Shell {
    struct Result {
        var status: Int32
        /// stdout and stderr together.
        var output: String
    }

    static func find(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let dirs = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return dirs.map { $0 + "/" + tool }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ tool: String, _ args: [String], in directory: URL? = nil, environment: [String: String]? = nil,
                    timeout: TimeInterval = 600) throws -> Result {
        guard let exe = find(tool) else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: tool]) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        if let environment { p.environment = environment }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let collected = Collected()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { collected.data = out.fileHandleForReading.readDataToEndOfFile(); done.signal() }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(p.processIdentifier, SIGKILL)
            throw OekakiBinary.Failure.timedOut([tool] + args)
        }
        p.waitUntilExit()
        return Result(status: p.terminationStatus, output: String(decoding: collected.data, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable { var data = Data() }
}
