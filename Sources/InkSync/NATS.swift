import CNats
import Foundation

/// The NATS C client (libnats) behind a small typed surface. The only file in InkSync that touches C pointers.
/// Not thread-safe: one owner thread (libnats runs its own I/O threads underneath).
final class NatsConnection {
    struct Failure: Error, CustomStringConvertible {
        enum Kind { case unreachable, credentials, permission, notFound, timeout, tooLarge, other }
        let kind: Kind
        let description: String
    }

    /// One message taken from a subscription.
    struct Message {
        var data: [UInt8]
        /// The stream sequence (JetStream messages only, else 0) and how many are still to come.
        var sequence: UInt64
        var pending: UInt64
        var subject: String
    }

    final class Subscription {
        fileprivate var sub: OpaquePointer?
        fileprivate init(_ s: OpaquePointer?) { sub = s }
        deinit { if let s = sub { natsSubscription_Unsubscribe(s); natsSubscription_Destroy(s) } }
    }

    private var nc: OpaquePointer?
    private var js: OpaquePointer?
    private let waitMs: Int64

    /// Connects within `timeoutMs`; afterwards libnats reconnects by itself forever, buffering what is published
    /// meanwhile (JetStream publishes fail until it is back, so they stay in the outbox).
    init(url: String, user: String?, password: String?, timeoutMs: Int64, name: String) throws {
        waitMs = timeoutMs
        var opts: OpaquePointer?
        try Self.check(natsOptions_Create(&opts), "cannot set up the NATS client")
        defer { natsOptions_Destroy(opts) }
        natsOptions_SetURL(opts, url)
        if let user { natsOptions_SetUserInfo(opts, user, password ?? "") }
        natsOptions_SetTimeout(opts, timeoutMs)
        natsOptions_SetName(opts, name)
        natsOptions_SetAllowReconnect(opts, true)
        natsOptions_SetMaxReconnect(opts, -1)
        natsOptions_SetReconnectWait(opts, 200)
        natsOptions_SetPingInterval(opts, 1000)
        natsOptions_SetMaxPingsOut(opts, 3)
        let s = natsConnection_Connect(&nc, opts)
        guard s == NATS_OK else {
            let detail = Self.lastError()
            switch s {
            case NATS_NO_SERVER, NATS_TIMEOUT, NATS_IO_ERROR:
                throw Failure(kind: .unreachable, description: "no NATS server answered within \(timeoutMs / 1000) s")
            case NATS_CONNECTION_AUTH_FAILED, NATS_NOT_PERMITTED:
                throw Failure(kind: .credentials, description: "the server refused the user name or password")
            default:
                if detail.lowercased().contains("authorization") {
                    throw Failure(kind: .credentials, description: "the server refused the user name or password")
                }
                throw Failure(kind: .other, description: "cannot connect: \(detail)")
            }
        }
        var jo = jsOptions()
        jsOptions_Init(&jo)
        jo.Wait = timeoutMs
        try Self.check(natsConnection_JetStream(&js, nc, &jo), "JetStream is not available")
    }

    deinit { close() }

    func close() {
        if let j = js { jsCtx_Destroy(j); js = nil }
        if let c = nc { natsConnection_Close(c); natsConnection_Destroy(c); nc = nil }
    }

    var isConnected: Bool { nc.map { natsConnection_Status($0) == NATS_CONN_STATUS_CONNECTED } ?? false }

    // MARK: JetStream

    /// The last sequence of a stream, nil if it does not exist.
    func streamLastSequence(_ stream: String) throws -> UInt64? {
        var si: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        let s = js_GetStreamInfo(&si, js, stream, nil, &code)
        defer { if let si { jsStreamInfo_Destroy(si) } }
        if s == NATS_NOT_FOUND { return nil }
        try check(s, "cannot read board \(stream)")
        return si?.pointee.State.LastSeq ?? 0
    }

    /// The server leading a replicated stream (nil for a single server).
    func streamLeader(_ stream: String) throws -> String? {
        var si: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        try check(js_GetStreamInfo(&si, js, stream, nil, &code), "cannot read board \(stream)")
        defer { if let si { jsStreamInfo_Destroy(si) } }
        return si?.pointee.Cluster?.pointee.Leader.map { String(cString: $0) }
    }

    /// Creates a file-backed stream over one subject: de-duplication window two minutes, `replicas` copies.
    func addStream(_ stream: String, subject: String, replicas: Int, maxMessageBytes: Int) throws {
        var cfg = jsStreamConfig()
        jsStreamConfig_Init(&cfg)
        var code = jsErrCode(0)
        var si: UnsafeMutablePointer<jsStreamInfo>?
        let s: natsStatus = stream.withCString { name in
            subject.withCString { subj in
                var subjects: [UnsafePointer<CChar>?] = [subj]
                return subjects.withUnsafeMutableBufferPointer { list in
                    cfg.Name = name
                    cfg.Subjects = list.baseAddress
                    cfg.SubjectsLen = 1
                    cfg.Storage = js_FileStorage
                    cfg.Replicas = Int64(replicas)
                    cfg.Duplicates = 120 * 1_000_000_000
                    cfg.MaxMsgSize = Int32(maxMessageBytes)
                    return js_AddStream(&si, js, &cfg, nil, &code)
                }
            }
        }
        if let si { jsStreamInfo_Destroy(si) }
        // Someone else created it meanwhile: fine.
        if s != NATS_OK, code == JSStreamNameExistErr { return }
        try check(s, "cannot create board \(stream)")
    }

    /// Publishes to a stream and waits for its acknowledgement: the entry is stored (on a majority of replicas).
    func publish(_ subject: String, _ data: [UInt8], messageID: String) throws -> (sequence: UInt64, duplicate: Bool) {
        var po = jsPubOptions()
        jsPubOptions_Init(&po)
        po.MaxWait = waitMs
        var ack: UnsafeMutablePointer<jsPubAck>?
        var code = jsErrCode(0)
        let s: natsStatus = messageID.withCString { id in
            po.MsgId = id
            return data.withUnsafeBytes { js_Publish(&ack, js, subject, $0.baseAddress, Int32($0.count), &po, &code) }
        }
        defer { if let ack { jsPubAck_Destroy(ack) } }
        try check(s, "cannot publish to \(subject)")
        return (ack?.pointee.Sequence ?? 0, ack?.pointee.Duplicate ?? false)
    }

    /// A push consumer of a stream from `start` (1 = everything): one ephemeral consumer without acks delivers
    /// in sequence order. (libnats' "ordered consumer" would repair gaps itself but insists on a `_INBOX` delivery
    /// subject.) Heartbeats every second let `next` notice a server that went away; the caller then reconnects.
    /// Entries are delivered to `deliverPrefix`.<random> rather than a shared `_INBOX`, so a board's content only
    /// ever travels on subjects that the board's permissions cover.
    func consume(stream: String, subject: String, from start: UInt64, deliverPrefix: String) throws -> Subscription {
        var so = jsSubOptions()
        jsSubOptions_Init(&so)
        so.Config.AckPolicy = js_AckNone
        so.Config.Heartbeat = 1_000_000_000
        so.Config.InactiveThreshold = 30 * 1_000_000_000
        let deliver = strdup("\(deliverPrefix).\(UInt64.random(in: 1...UInt64.max))")
        defer { free(deliver) }
        so.Config.DeliverSubject = UnsafePointer(deliver)
        if start > 1 {
            so.Config.DeliverPolicy = js_DeliverByStartSequence
            so.Config.OptStartSeq = start
        }
        var sub: OpaquePointer?
        var code = jsErrCode(0)
        let s: natsStatus = stream.withCString { name in
            so.Stream = name
            return js_SubscribeSync(&sub, js, subject, nil, &so, &code)
        }
        try check(s, "cannot read board \(stream)")
        // A new replica of a big board reads its whole log at once: the default 65,536 messages would overflow.
        natsSubscription_SetPendingLimits(sub, 10_000_000, 1 << 30)
        return Subscription(sub)
    }

    // MARK: core NATS (live strokes, presence)

    func publishCore(_ subject: String, _ data: [UInt8]) {
        _ = data.withUnsafeBytes { natsConnection_Publish(nc, subject, $0.baseAddress, Int32($0.count)) }
    }

    func flush() { _ = natsConnection_FlushTimeout(nc, 1000) }

    func subscribe(_ subject: String) throws -> Subscription {
        var sub: OpaquePointer?
        try check(natsConnection_SubscribeSync(&sub, nc, subject), "cannot subscribe to \(subject)")
        return Subscription(sub)
    }

    /// Messages waiting in the subscription (taking them costs no waiting).
    func pending(_ s: Subscription) -> Int {
        var msgs: Int32 = 0, bytes: Int32 = 0
        guard natsSubscription_GetPending(s.sub, &msgs, &bytes) == NATS_OK else { return 0 }
        return Int(msgs)
    }

    /// The next message, or nil after `timeoutMs` (0: only what is already here).
    func next(_ s: Subscription, timeoutMs: Int64) throws -> Message? {
        var msg: OpaquePointer?
        let st = natsSubscription_NextMsg(&msg, s.sub, max(timeoutMs, 1))
        if st == NATS_TIMEOUT { return nil }
        if st == NATS_MISSED_HEARTBEAT || st == NATS_SLOW_CONSUMER || st == NATS_MISMATCH {
            throw Failure(kind: .unreachable, description: "the board's log stopped (\(String(cString: natsStatus_GetText(st))))")
        }
        try check(st, "cannot read the board")
        guard let msg else { return nil }
        defer { natsMsg_Destroy(msg) }
        let n = Int(natsMsg_GetDataLength(msg))
        var data = [UInt8](repeating: 0, count: n)
        if n > 0, let p = natsMsg_GetData(msg) { data.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: p, count: n)) } }
        var sequence: UInt64 = 0, pending: UInt64 = 0
        var meta: UnsafeMutablePointer<jsMsgMetaData>?
        if natsMsg_GetMetaData(&meta, msg) == NATS_OK, let m = meta {
            sequence = m.pointee.Sequence.Stream; pending = m.pointee.NumPending
            jsMsgMetaData_Destroy(m)
        }
        let subject = natsMsg_GetSubject(msg).map { String(cString: $0) } ?? ""
        return Message(data: data, sequence: sequence, pending: pending, subject: subject)
    }

    // MARK: errors

    private static func lastError() -> String {
        var st = NATS_OK
        guard let p = nats_GetLastError(&st) else { return "" }
        return String(cString: p)
    }

    private func connectionError() -> String {
        var p: UnsafePointer<CChar>?
        _ = natsConnection_GetLastError(nc, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    private static func check(_ s: natsStatus, _ what: String) throws {
        guard s == NATS_OK else { throw Failure(kind: .other, description: "\(what): \(String(cString: natsStatus_GetText(s)))") }
    }

    /// Maps a failed call to what the user can act on. A permissions violation arrives asynchronously from the
    /// server, and the request itself just times out; the connection's last error tells the two apart.
    private func check(_ s: natsStatus, _ what: String) throws {
        guard s != NATS_OK else { return }
        let detail = connectionError() + " " + Self.lastError()
        if detail.lowercased().contains("permissions violation") || s == NATS_NOT_PERMITTED {
            throw Failure(kind: .permission, description: "\(what): no permission (the server's permissions for this user do not include this board)")
        }
        switch s {
        case NATS_TIMEOUT, NATS_NO_RESPONDERS:
            throw Failure(kind: .timeout, description: "\(what): the server did not answer in time")
        case NATS_CONNECTION_CLOSED, NATS_CONNECTION_DISCONNECTED, NATS_IO_ERROR, NATS_NO_SERVER:
            throw Failure(kind: .unreachable, description: "\(what): disconnected")
        case NATS_MAX_PAYLOAD:
            throw Failure(kind: .tooLarge, description: "\(what): larger than the server's max_payload")
        case NATS_NOT_FOUND:
            throw Failure(kind: .notFound, description: "\(what): not found")
        default:
            throw Failure(kind: .other, description: "\(what): \(String(cString: natsStatus_GetText(s))) \(detail)")
        }
    }
}
