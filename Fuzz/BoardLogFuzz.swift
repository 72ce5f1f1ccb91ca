// libFuzzer harness: what a shared board takes from the network, where any peer (or anyone who can publish to
// the stream) may send anything. The input is a run of messages, each a 2-byte little-endian length and its
// bytes, received in that order as the board's log (and each also read as a live stroke). Hostile bytes must
// fail with an error; an entry that reads must encode and read back as itself; and a replica receiving every
// message must keep each page's strokes in drawing order, every one with finite points.
// Built by Fuzz/fuzz.sh against InkCore, InkStore and the codec's files of InkSync (not its NATS client).
import InkCore
import InkSync

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var replica = BoardReplica(client: 99, document: Document())
    var at = 0, sequence: UInt64 = 0
    while at + 2 <= bytes.count {
        let n = Int(bytes[at]) | Int(bytes[at + 1]) << 8
        let message = Array(bytes[(at + 2)..<min(at + 2 + n, bytes.count)])
        at += 2 + n
        sequence += 1
        if let live = LiveStroke(message), LiveStroke(live.encoded()) != live { fatalError("a live stroke does not read back as itself") }
        guard let m = try? OperationCodec.decodeMessage(message) else {
            replica.skip(sequence: sequence, because: "unreadable")
            continue
        }
        switch m {
        case .operation(let op):
            let again: BoardOperation
            do { again = try OperationCodec.decode(try OperationCodec.encode(op)) } catch {
                fatalError("an entry that reads does not encode again: \(error)")
            }
            if again != op { fatalError("an entry does not read back as itself") }
            replica.receive(op, sequence: sequence)
        case .part(let part):
            replica.receive(part, sequence: sequence)
        }
    }
    for page in replica.document.pages { for layer in page.layers { checkStrokes(layer.drawing.strokes) } }
    return 0
}
