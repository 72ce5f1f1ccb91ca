// libFuzzer harness: the image decoders (PNG through cairo/libpng, JPEG through gdk-pixbuf/libjpeg) behind the
// pure-Swift header check, and the painter's halved levels, as an embedded image of a document reaches them.
import Foundation
import InkCore
import InkRender

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let header: ImageHeader
    do { header = try ImageHeader(reading: bytes) } catch is ImageError { return 0 } catch { fatalError("unexpected error type: \(error)") }
    if !ImageLimits.allow(width: header.width, height: header.height) {
        fatalError("header \(header) passed the size limit")
    }
    // A decoder allocates width × height × 4 bytes whatever the input's length; claims beyond 1 MP are the
    // header's business (ImageHeaderTests); decoding them here only filled ASan's quarantine (1.7 GB peak at 4 MP).
    guard header.width * header.height <= 1_000_000 else { return 0 }
    do {
        let s = try ImageDecoder.decode(bytes)
        if s.width != header.width || s.height != header.height { fatalError("decoded \(s.width)×\(s.height), header \(header)") }
        _ = s.pixel(x: s.width - 1, y: s.height - 1)
    } catch is ImageError {
        return 0
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
