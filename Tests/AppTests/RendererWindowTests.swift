import XCTest

/// GTK draws with GL wherever the display offers it, also where GL is Mesa's CPU rasterizer (Xvfb here, a virtual
/// machine, a remote desktop): there every pen frame rasterized the whole window again. The app hands such windows
/// to cairo; a renderer the user chose stays theirs.
final class RendererWindowTests: WindowTestCase {
    /// The renderer the window's first frame was drawn with, from the trace.
    private func renderer(environment: [String: String]) throws -> String {
        let trace = home.appendingPathComponent("trace-\(UUID().uuidString.prefix(6)).txt")
        try launch(home.appendingPathComponent("renderer.oekaki").path, environment: environment.merging(["OEKAKI_TRACE": trace.path]) { $1 })
        _ = try waitForPage()
        defer { quit() }
        let line = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").first { $0.hasPrefix("renderer ") }
        return line.map { String($0.dropFirst("renderer ".count)) } ?? "(no renderer line)"
    }

    func testSoftwareGLIsLeftForCairoUnlessTheUserChoseGL() throws {
        // GL works on this display (Xvfb's is llvmpipe): chosen, the window draws with it.
        let chosen = try renderer(environment: ["GSK_RENDERER": "gl"])
        guard chosen == "GskGLRenderer" else { throw XCTSkip("no GL on this display (\(chosen)): nothing to avoid") }
        // Not chosen: GTK would take the same software GL; the app gives the window to cairo.
        XCTAssertEqual(try renderer(environment: ["GSK_RENDERER": ""]), "GskCairoRenderer")
    }
}

@testable import OekakiApp

final class SoftwareGLTests: XCTestCase {
    /// GL_RENDERER strings as Mesa and the GPU drivers report them.
    func testMesasCPURasterizersAreToldFromGPUs() {
        for software in ["llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer", "zink (llvmpipe (LLVM 15.0.6, 256 bits))",
                         "SWR (LLVM 12.0.0, 256 bits)"] {
            XCTAssertTrue(GtkRenderer.rendersInSoftware(software), software)
        }
        for gpu in ["Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)",
                    "NVIDIA GeForce GTX 1060 6GB/PCIe/SSE2", "virgl (Apple M1)", "Mali-G52 (Panfrost)"] {
            XCTAssertFalse(GtkRenderer.rendersInSoftware(gpu), gpu)
        }
    }
}
