import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// How the SMTP connection is protected.
public enum SMTPSecurity: String, Sendable {
    /// Plain connection upgraded with STARTTLS before anything else is said; refused if the server can't.
    case startTLS = "starttls"
    /// TLS from the first byte (port 465).
    case tls
    /// No encryption: only for a relay on the same host. Credentials are never sent this way.
    case none
}

/// Where and how to deliver mail over SMTP (`POVVER_SMTP_*`). Its description never shows the password.
public struct SMTPSettings: Sendable, Equatable, CustomStringConvertible {
    public var description: String {
        "smtp://\(username.map { "\($0):***@" } ?? "")\(host):\(port) (\(security.rawValue))"
    }

    public var host: String
    public var port: Int
    public var security: SMTPSecurity
    public var username: String?
    public var password: String?
    /// PEM file of the CAs trusted for the server's certificate, instead of the system's.
    public var caFile: String?
    /// The name given in EHLO.
    public var heloName: String
    public var timeout: TimeAmount

    public init(
        host: String, port: Int, security: SMTPSecurity, username: String? = nil, password: String? = nil, caFile: String? = nil,
        heloName: String = "povver.localhost", timeout: TimeAmount = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.caFile = caFile
        self.heloName = heloName
        self.timeout = timeout
    }
}

/// Delivers mail to an SMTP server (RFC 5321): EHLO, STARTTLS (or implicit TLS), AUTH PLAIN or LOGIN,
/// MAIL/RCPT/DATA, QUIT. One connection per message: the outbox sends few messages, and a fresh connection
/// never inherits a broken state.
public struct SMTPMailTransport: MailTransport {
    public let name = "smtp"
    let settings: SMTPSettings
    let tls: NIOSSLContext?

    public init(settings: SMTPSettings) throws {
        self.settings = settings
        if settings.security == .none {
            tls = nil
        } else {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            if let caFile = settings.caFile {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            }
            tls = try NIOSSLContext(configuration: configuration)
        }
    }

    public func send(_ message: MailMessage) async throws {
        let session = try await SMTPSession.connect(settings: settings, tls: tls)
        do {
            try await session.deliver(message, settings: settings)
            await session.close()
        } catch {
            await session.close()
            throw error
        }
    }

    /// The message as sent after DATA: headers, a base64 body (any text survives any relay), CRLF line ends,
    /// without the final dot.
    static func render(_ message: MailMessage, date: Date, messageID: String) -> String {
        var lines = [
            "From: \(message.from)",
            "To: \(message.to)",
            "Subject: \(encodedHeader(message.subject))",
            "Date: \(rfc5322Date(date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
        ]
        let body = message.body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        let encoded = Data(body.utf8).base64EncodedString()
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func encodedHeader(_ text: String) -> String {
        let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        guard clean.unicodeScalars.contains(where: { !$0.isASCII }) else { return clean }
        return "=?UTF-8?B?\(Data(clean.utf8).base64EncodedString())?="
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// The bare address of `Name <address>` or `address`.
    static func address(_ mailbox: String) -> String {
        if let open = mailbox.lastIndex(of: "<"), let close = mailbox.lastIndex(of: ">"), open < close {
            return String(mailbox[mailbox.index(after: open)..<close])
        }
        return mailbox.trimmingCharacters(in: .whitespaces)
    }
}

/// One SMTP reply: the code and its text lines.
struct SMTPReply: Sendable {
    var code: Int
    var lines: [String]

    var text: String { lines.joined(separator: " ") }
}

/// What the server sent that the session has not read yet: complete replies waiting for it, and an unfinished line
/// or multi-line reply. The upgrade to TLS must find nothing: bytes that came in plain text behind the `220` to
/// STARTTLS (an on-path attacker's, RFC 3207 §6) would otherwise be read as replies of the encrypted session.
final class SMTPInbound: Sendable {
    private let state = Mutex((replies: 0, bytes: 0, lines: 0))

    func replyQueued() { state.withLock { $0.replies += 1 } }
    func replyTaken() { state.withLock { $0.replies -= 1 } }
    func unfinished(bytes: Int) { state.withLock { $0.bytes = bytes } }
    func unfinished(lines: Int) { state.withLock { $0.lines = lines } }
    var isEmpty: Bool { state.withLock { $0.replies == 0 && $0.bytes == 0 && $0.lines == 0 } }
}

/// One connection to the server, driven by `deliver`.
final class SMTPSession: Sendable {
    let channel: any Channel
    let replies: SMTPReplies
    let inbound: SMTPInbound
    let deadline: Scheduled<Void>
    let tls: NIOSSLContext?

    private init(
        channel: any Channel, replies: AsyncThrowingStream<SMTPReply, any Error>, inbound: SMTPInbound, deadline: Scheduled<Void>,
        tls: NIOSSLContext?
    ) {
        self.channel = channel
        self.inbound = inbound
        self.replies = SMTPReplies(replies.makeAsyncIterator())
        self.deadline = deadline
        self.tls = tls
    }

    static func connect(settings: SMTPSettings, tls: NIOSSLContext?) async throws -> SMTPSession {
        let (stream, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let inbound = SMTPInbound()
        let implicitTLS = settings.security == .tls ? tls : nil
        let host = settings.host
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(settings.timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let implicitTLS {
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: implicitTLS, serverHostname: Self.sniName(host)))
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPLineDecoder(inbound: inbound)))
                        try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler(continuation: continuation, inbound: inbound))
                    }
                }
                .connect(host: settings.host, port: settings.port).get()
        } catch {
            throw MailDeliveryError(permanent: false, "cannot connect to the SMTP server \(settings.host):\(settings.port): \(error)")
        }
        // One deadline for the whole conversation: past it the connection closes and the reply stream ends.
        let deadline = channel.eventLoop.scheduleTask(in: settings.timeout * 2) { channel.close(promise: nil) }
        return SMTPSession(channel: channel, replies: stream, inbound: inbound, deadline: deadline, tls: tls)
    }

    /// An IP address is not a valid SNI name.
    static func sniName(_ host: String) -> String? {
        host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
    }

    func deliver(_ message: MailMessage, settings: SMTPSettings) async throws {
        try expect(try await nextReply(), 220, "greeting")
        var capabilities = try await ehlo(settings.heloName)
        var encrypted = settings.security == .tls
        if settings.security == .startTLS {
            guard capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                throw MailDeliveryError(permanent: false, "the SMTP server does not offer STARTTLS")
            }
            try expect(try await command("STARTTLS"), 220, "STARTTLS")
            try await startTLS(settings: settings)
            encrypted = true
            capabilities = try await ehlo(settings.heloName)
        }
        if let username = settings.username, let password = settings.password {
            guard encrypted else { throw MailDeliveryError(permanent: true, "refusing to send SMTP credentials without TLS") }
            try await authenticate(username: username, password: password, capabilities: capabilities)
        }
        let from = SMTPMailTransport.address(message.from)
        let to = SMTPMailTransport.address(message.to)
        for address in [from, to] where address.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" }) {
            throw MailDeliveryError(permanent: true, "invalid address")
        }
        try expect(try await command("MAIL FROM:<\(from)>"), 250, "MAIL FROM")
        let rcpt = try await command("RCPT TO:<\(to)>")
        guard rcpt.code == 250 || rcpt.code == 251 else { throw failure(rcpt, "RCPT TO") }
        try expect(try await command("DATA"), 354, "DATA")
        let rendered = SMTPMailTransport.render(message, date: Date(), messageID: "\(UUID().uuidString.lowercased())@\(settings.heloName)")
        // Dot-stuffing (RFC 5321 4.5.2), then the terminating line.
        let stuffed = rendered.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n")
        try await write(stuffed + ".\r\n")
        try expect(try await nextReply(), 250, "message")
        _ = try? await command("QUIT")
    }

    func close() async {
        deadline.cancel()
        try? await channel.close()
    }

    private func ehlo(_ name: String) async throws -> [String] {
        let reply = try await command("EHLO \(name)")
        try expect(reply, 250, "EHLO")
        return reply.lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private func authenticate(username: String, password: String, capabilities: [String]) async throws {
        let mechanisms =
            capabilities.first { $0.uppercased().hasPrefix("AUTH") }?
            .uppercased().split(whereSeparator: { $0 == " " || $0 == "=" }).dropFirst().map(String.init) ?? []
        if mechanisms.contains("PLAIN") {
            let token = Data("\u{0}\(username)\u{0}\(password)".utf8).base64EncodedString()
            let reply = try await command("AUTH PLAIN \(token)", secret: true)
            guard reply.code == 235 else { throw failure(reply, "AUTH") }
        } else if mechanisms.contains("LOGIN") {
            try expect(try await command("AUTH LOGIN"), 334, "AUTH")
            try expect(try await command(Data(username.utf8).base64EncodedString(), secret: true), 334, "AUTH")
            let reply = try await command(Data(password.utf8).base64EncodedString(), secret: true)
            guard reply.code == 235 else { throw failure(reply, "AUTH") }
        } else {
            throw MailDeliveryError(permanent: false, "the SMTP server offers neither AUTH PLAIN nor AUTH LOGIN")
        }
    }

    private func startTLS(settings: SMTPSettings) async throws {
        guard let configuration = tls else { throw MailDeliveryError(permanent: true, "no TLS configuration") }
        let sni = Self.sniName(settings.host)
        let channel = self.channel
        let inbound = self.inbound
        try await channel.eventLoop.submit {
            // On the event loop, after every byte read so far went through the decoder.
            guard inbound.isEmpty else {
                throw MailDeliveryError(
                    permanent: false, "the SMTP server sent more than its reply to STARTTLS in plain text; refusing to upgrade")
            }
            try channel.pipeline.syncOperations.addHandler(
                try NIOSSLClientHandler(context: configuration, serverHostname: sni), position: .first)
        }.get()
    }

    private func command(_ line: String, secret: Bool = false) async throws -> SMTPReply {
        try await write(line + "\r\n")
        return try await nextReply()
    }

    private func write(_ text: String) async throws {
        do {
            try await channel.writeAndFlush(ByteBuffer(string: text))
        } catch {
            throw MailDeliveryError(permanent: false, "SMTP connection lost: \(error)")
        }
    }

    private func nextReply() async throws -> SMTPReply {
        do {
            guard let reply = try await replies.next() else {
                throw MailDeliveryError(permanent: false, "the SMTP server closed the connection or timed out")
            }
            inbound.replyTaken()
            return reply
        } catch let error as MailDeliveryError {
            throw error
        } catch {
            throw MailDeliveryError(permanent: false, "SMTP connection failed: \(error)")
        }
    }

    private func expect(_ reply: SMTPReply, _ code: Int, _ step: String) throws {
        guard reply.code == code else { throw failure(reply, step) }
    }

    /// 5xx replies are permanent (RFC 5321 4.2.1); 4xx, and a reply that makes no sense at that step (a session out of
    /// step, as after an injection), temporary.
    private func failure(_ reply: SMTPReply, _ step: String) -> MailDeliveryError {
        MailDeliveryError(permanent: (500..<600).contains(reply.code), "SMTP \(step) refused: \(reply.code) \(reply.text)")
    }
}

/// The session's replies, read by one task at a time (a session is a strict command/reply sequence).
final class SMTPReplies: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    init(_ iterator: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> SMTPReply? {
        try await iterator.next()
    }
}

/// Splits the byte stream into CRLF-terminated lines (bare LF tolerated), at most 4 KB each.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String
    let inbound: SMTPInbound

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > 4096 { throw MailDeliveryError(permanent: false, "SMTP reply line too long") }
            inbound.unfinished(bytes: buffer.readableBytes)
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        var line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        inbound.unfinished(bytes: buffer.readableBytes)
        if line.hasSuffix("\r") { line.removeLast() }
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }
}

/// Gathers multi-line replies (`250-…` … `250 …`) and hands each complete reply to the session.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = String

    let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    let inbound: SMTPInbound
    var lines: [String] = []

    init(continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation, inbound: SMTPInbound) {
        self.continuation = continuation
        self.inbound = inbound
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, let code = Int(String(line.prefix(3))) else {
            continuation.finish(throwing: MailDeliveryError(permanent: false, "malformed SMTP reply"))
            context.close(promise: nil)
            return
        }
        lines.append(bytes.count > 4 ? String(line.dropFirst(4)) : "")
        if bytes.count == 3 || bytes[3] == UInt8(ascii: " ") {
            inbound.replyQueued()
            continuation.yield(SMTPReply(code: code, lines: lines))
            lines = []
        }
        inbound.unfinished(lines: lines.count)
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}
