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

    /// Something happened on the connection (a message arrived, an error, a disconnect or reconnect): the owner
    /// may want to look. Called on libnats' threads; set it before subscribing.
    final class Activity: @unchecked Sendable {
        private let lock = NSLock()
        private var handler: (@Sendable () -> Void)?
        private var inboxes: [UInt: Inbox] = [:]
        func set(_ h: (@Sendable () -> Void)?) { lock.lock(); handler = h; lock.unlock() }
        func ring() { lock.lock(); let h = handler; lock.unlock(); h?() }
        fileprivate func register(_ sub: OpaquePointer?, _ inbox: Inbox) {
            lock.lock(); inboxes[UInt(bitPattern: Int(bitPattern: sub.map { UnsafeRawPointer($0) }))] = inbox; lock.unlock()
        }
        fileprivate func inbox(of sub: OpaquePointer?) -> Inbox? {
            lock.lock(); defer { lock.unlock() }
            return inboxes[UInt(bitPattern: Int(bitPattern: sub.map { UnsafeRawPointer($0) }))]
        }
        fileprivate func forget(_ sub: OpaquePointer?) {
            lock.lock(); inboxes[UInt(bitPattern: Int(bitPattern: sub.map { UnsafeRawPointer($0) }))] = nil; lock.unlock()
        }
    }

    /// The messages libnats delivered to one subscription, waiting to be taken on the owner's thread, and the
    /// error its heartbeats reported. Nothing polls: the delivery thread appends and rings the `Activity`.
    fileprivate final class Inbox: @unchecked Sendable {
        let condition = NSCondition()
        var messages: [Message] = []
        var head = 0
        var failure: Failure?
        let activity: Activity
        init(_ a: Activity) { activity = a }

        func deliver(_ m: Message) {
            condition.lock(); messages.append(m); condition.signal(); condition.unlock()
            activity.ring()
        }
        func fail(_ f: Failure) {
            condition.lock(); failure = f; condition.signal(); condition.unlock()
            activity.ring()
        }
        var count: Int { condition.lock(); defer { condition.unlock() }; return messages.count - head }

        /// The next message, waiting up to `timeoutMs`; nil when none came.
        func take(timeoutMs: Int64) throws -> Message? {
            condition.lock(); defer { condition.unlock() }
            let deadline = Date().addingTimeInterval(Double(max(timeoutMs, 0)) / 1000)
            while head == messages.count && failure == nil {
                if !condition.wait(until: deadline) { break }
            }
            if let f = failure { failure = nil; throw f }
            guard head < messages.count else { return nil }
            let m = messages[head]
            head += 1
            // Taken messages are dropped in bulk, so a long catch-up costs no quadratic shifting.
            if head > 1024 && head * 2 > messages.count { messages.removeFirst(head); head = 0 }
            return m
        }
    }

    final class Subscription {
        fileprivate var sub: OpaquePointer?
        fileprivate let inbox: Inbox
        fileprivate init(_ s: OpaquePointer?, _ inbox: Inbox) { sub = s; self.inbox = inbox }
        deinit {
            if let s = sub {
                inbox.activity.forget(s)
                natsSubscription_Unsubscribe(s); natsSubscription_Destroy(s)
            }
        }
    }

    private var nc: OpaquePointer?
    private var js: OpaquePointer?
    private let waitMs: Int64
    let activity = Activity()

    /// Connects to one of `urls` within `timeoutMs`; afterwards libnats reconnects by itself forever, to any of
    /// them (and to the cluster's other nodes the server announces), buffering what is published meanwhile
    /// (JetStream publishes fail until it is back, so they stay in the outbox).
    convenience init(url: String, user: String?, password: String?, timeoutMs: Int64, name: String) throws {
        try self.init(urls: [url], user: user, password: password, timeoutMs: timeoutMs, name: name)
    }

    init(urls: [String], user: String?, password: String?, timeoutMs: Int64, name: String) throws {
        waitMs = timeoutMs
        var opts: OpaquePointer?
        try Self.check(natsOptions_Create(&opts), "cannot set up the NATS client")
        defer { natsOptions_Destroy(opts) }
        let copies = urls.map { strdup($0) }
        defer { for c in copies { free(c) } }
        var list = copies.map { UnsafePointer($0) }
        try Self.check(list.withUnsafeMutableBufferPointer { natsOptions_SetServers(opts, $0.baseAddress, Int32($0.count)) },
                       "bad server address")
        if let user { natsOptions_SetUserInfo(opts, user, password ?? "") }
        natsOptions_SetTimeout(opts, timeoutMs)
        natsOptions_SetName(opts, name)
        natsOptions_SetAllowReconnect(opts, true)
        natsOptions_SetMaxReconnect(opts, -1)
        natsOptions_SetReconnectWait(opts, 200)
        natsOptions_SetPingInterval(opts, 1000)
        natsOptions_SetMaxPingsOut(opts, 3)
        // The activity box lives until libnats says the connection is closed (its last callback).
        let box = Unmanaged.passRetained(activity).toOpaque()
        natsOptions_SetErrorHandler(opts, Self.onError, box)
        natsOptions_SetDisconnectedCB(opts, Self.onConnectionEvent, box)
        natsOptions_SetReconnectedCB(opts, Self.onConnectionEvent, box)
        natsOptions_SetClosedCB(opts, Self.onClosed, box)
        let s = natsConnection_Connect(&nc, opts)
        if s != NATS_OK { Unmanaged<Activity>.fromOpaque(box).release() }
        guard s == NATS_OK else {
            let detail = Self.lastError()
            switch s {
            case NATS_NO_SERVER, NATS_TIMEOUT, NATS_IO_ERROR:
                throw Failure(kind: .unreachable, description: urls.count > 1 ? "none of the \(urls.count) NATS servers answered within \(timeoutMs / 1000) s"
                                                                               : "no NATS server answered within \(timeoutMs / 1000) s")
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

    private static let onError: @convention(c) (OpaquePointer?, OpaquePointer?, natsStatus, UnsafeMutableRawPointer?) -> Void = { _, sub, status, box in
        guard let box else { return }
        let activity = Unmanaged<Activity>.fromOpaque(box).takeUnretainedValue()
        if status == NATS_MISSED_HEARTBEAT || status == NATS_SLOW_CONSUMER || status == NATS_MISMATCH, let inbox = activity.inbox(of: sub) {
            inbox.fail(Failure(kind: .unreachable, description: "the board's log stopped (\(String(cString: natsStatus_GetText(status))))"))
        } else {
            activity.ring()
        }
    }
    private static let onConnectionEvent: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, box in
        guard let box else { return }
        Unmanaged<Activity>.fromOpaque(box).takeUnretainedValue().ring()
    }
    private static let onClosed: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, box in
        guard let box else { return }
        Unmanaged<Activity>.fromOpaque(box).release()
    }
    /// libnats' delivery thread: the message is copied into its subscription's inbox.
    private static let onMessage: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _, msg, box in
        guard let msg else { return }
        guard let box else { natsMsg_Destroy(msg); return }
        Unmanaged<Inbox>.fromOpaque(box).takeUnretainedValue().deliver(message(msg))
    }
    private static let onComplete: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
        guard let box else { return }
        Unmanaged<Inbox>.fromOpaque(box).release()
    }

    /// Copies a message's bytes and JetStream position out, and frees it.
    private static func message(_ msg: OpaquePointer) -> Message {
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

    /// Wraps a new asynchronous subscription: its inbox is retained for libnats until the subscription completes.
    private func adopt(_ sub: OpaquePointer?, _ inbox: Inbox, _ box: UnsafeMutableRawPointer) -> Subscription {
        activity.register(sub, inbox)
        if natsSubscription_SetOnCompleteCB(sub, Self.onComplete, box) != NATS_OK { _ = Unmanaged<Inbox>.fromOpaque(box).retain() }
        return Subscription(sub, inbox)
    }

    func close() {
        if let j = js { jsCtx_Destroy(j); js = nil }
        if let c = nc { natsConnection_Close(c); natsConnection_Destroy(c); nc = nil }
    }

    var isConnected: Bool { nc.map { natsConnection_Status($0) == NATS_CONN_STATUS_CONNECTED } ?? false }

    // MARK: JetStream

    /// The last sequence of a stream, nil if it does not exist.
    func streamLastSequence(_ stream: String) throws -> UInt64? { try streamBounds(stream)?.last }

    /// The first and last sequence a stream holds (first is last + 1 when it is empty), nil if it does not exist.
    /// `waitMs`: how long to wait for the answer, when not the connection's usual wait (a request the user has no
    /// permission for is never answered: it times out).
    func streamBounds(_ stream: String, waitMs: Int64? = nil) throws -> (first: UInt64, last: UInt64)? {
        var si: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        var options = jsOptions()
        jsOptions_Init(&options)
        if let waitMs { options.Wait = waitMs }
        let s = waitMs == nil ? js_GetStreamInfo(&si, js, stream, nil, &code) : js_GetStreamInfo(&si, js, stream, &options, &code)
        defer { if let si { jsStreamInfo_Destroy(si) } }
        if s == NATS_NOT_FOUND { return nil }
        try check(s, "cannot read board \(stream)")
        return (si?.pointee.State.FirstSeq ?? 0, si?.pointee.State.LastSeq ?? 0)
    }

    /// Creates a stream that keeps only the newest message of each subject (a snapshot's parts and its head):
    /// rollup headers allowed, `replicas` copies.
    func addLatestStream(_ stream: String, subjects: String, replicas: Int, maxMessageBytes: Int) throws {
        try addStream(stream, subject: subjects, replicas: replicas, maxMessageBytes: maxMessageBytes, failure: "cannot create \(stream)") {
            $0.MaxMsgsPerSubject = 1
            $0.AllowRollup = true
        }
    }

    /// Publishes with headers (e.g. `Nats-Rollup: sub`) and waits for the acknowledgement; returns the sequence.
    @discardableResult
    func publish(_ subject: String, _ data: [UInt8], headers: [(String, String)]) throws -> UInt64 {
        var msg: OpaquePointer?
        let created: natsStatus = data.withUnsafeBytes { natsMsg_Create(&msg, subject, nil, $0.baseAddress?.assumingMemoryBound(to: CChar.self), Int32($0.count)) }
        try check(created, "cannot publish to \(subject)")
        defer { natsMsg_Destroy(msg) }
        for (k, v) in headers { try check(natsMsgHeader_Set(msg, k, v), "cannot publish to \(subject)") }
        var po = jsPubOptions()
        jsPubOptions_Init(&po)
        po.MaxWait = waitMs
        var ack: UnsafeMutablePointer<jsPubAck>?
        var code = jsErrCode(0)
        let s = js_PublishMsg(&ack, js, msg, &po, &code)
        defer { if let ack { jsPubAck_Destroy(ack) } }
        try check(s, "cannot publish to \(subject)")
        return ack?.pointee.Sequence ?? 0
    }

    /// The newest message a stream holds on `subject`: its bytes, or nil when there is none.
    func lastMessage(stream: String, subject: String) throws -> [UInt8]? {
        var msg: OpaquePointer?
        var code = jsErrCode(0)
        let s = js_GetLastMsg(&msg, js, stream, subject, nil, &code)
        if s == NATS_NOT_FOUND { return nil }
        try check(s, "cannot read \(subject)")
        guard let msg else { return nil }
        defer { natsMsg_Destroy(msg) }
        let n = Int(natsMsg_GetDataLength(msg))
        var data = [UInt8](repeating: 0, count: n)
        if n > 0, let p = natsMsg_GetData(msg) { data.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: p, count: n)) } }
        return data
    }

    /// Removes a stream's messages before `sequence`.
    func purge(_ stream: String, before sequence: UInt64) throws {
        var o = jsOptions()
        jsOptions_Init(&o)
        o.Stream.Purge.Sequence = sequence
        var code = jsErrCode(0)
        try check(js_PurgeStream(js, stream, &o, &code), "cannot remove old entries of \(stream)")
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
        try addStream(stream, subject: subject, replicas: replicas, maxMessageBytes: maxMessageBytes, failure: "cannot create board \(stream)") {
            $0.Duplicates = 120 * 1_000_000_000
        }
    }

    /// A file-backed stream over `subject` with `replicas` copies, shaped further by `configure`.
    private func addStream(_ stream: String, subject: String, replicas: Int, maxMessageBytes: Int, failure: String,
                           configure: (inout jsStreamConfig) -> Void) throws {
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
                    cfg.MaxMsgSize = Int32(maxMessageBytes)
                    configure(&cfg)
                    return js_AddStream(&si, js, &cfg, nil, &code)
                }
            }
        }
        if let si { jsStreamInfo_Destroy(si) }
        // Someone else created it meanwhile: fine.
        if s != NATS_OK, code == JSStreamNameExistErr { return }
        try check(s, failure)
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
        let inbox = Inbox(activity)
        let box = Unmanaged.passRetained(inbox).toOpaque()
        let s: natsStatus = stream.withCString { name in
            so.Stream = name
            return js_Subscribe(&sub, js, subject, Self.onMessage, box, nil, &so, &code)
        }
        if s != NATS_OK { Unmanaged<Inbox>.fromOpaque(box).release() }
        try check(s, "cannot read board \(stream)")
        // A new replica of a big board reads its whole log at once: the default 65,536 messages would overflow.
        natsSubscription_SetPendingLimits(sub, 10_000_000, 1 << 30)
        return adopt(sub, inbox, box)
    }

    // MARK: core NATS (live strokes, presence)

    func publishCore(_ subject: String, _ data: [UInt8]) {
        _ = data.withUnsafeBytes { natsConnection_Publish(nc, subject, $0.baseAddress, Int32($0.count)) }
    }

    func flush() { _ = natsConnection_FlushTimeout(nc, 1000) }

    func subscribe(_ subject: String) throws -> Subscription {
        var sub: OpaquePointer?
        let inbox = Inbox(activity)
        let box = Unmanaged.passRetained(inbox).toOpaque()
        let s = natsConnection_Subscribe(&sub, nc, subject, Self.onMessage, box)
        if s != NATS_OK { Unmanaged<Inbox>.fromOpaque(box).release() }
        try check(s, "cannot subscribe to \(subject)")
        return adopt(sub, inbox, box)
    }

    /// Messages waiting in the subscription (taking them costs no waiting).
    func pending(_ s: Subscription) -> Int { s.inbox.count }

    /// The next message, or nil after `timeoutMs` (0: only what is already here). Waiting sleeps until a message
    /// or an error arrives: nothing polls.
    func next(_ s: Subscription, timeoutMs: Int64) throws -> Message? {
        try s.inbox.take(timeoutMs: timeoutMs)
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
