// libFuzzer harness: the .oekaki point-BLOB decoder. Decoding hostile bytes must fail cleanly or give points
// that encode and decode back to themselves.
import InkCore
import InkStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let points = try? PointCodec.decode(bytes) else { return 0 }
    if points.isEmpty { fatalError("decode returned no points without an error") }
    let again: [InkPoint]
    do { again = try PointCodec.decode(try PointCodec.encode(points)) } catch {
        fatalError("decoded points do not encode again: \(error)")
    }
    if again.count != points.count { fatalError("round trip changed the point count") }
    for (p, q) in zip(points, again) where abs(p.x - q.x) > 0.05 || abs(p.y - q.y) > 0.05 || abs(p.pressure - q.pressure) > 0.01 {
        fatalError("round trip moved a point: \(p) → \(q)")
    }
    return 0
}
