import Foundation
import Logging

/// One plain-text email.
public struct MailMessage: Sendable, Equatable {
    public var from: String
    public var to: String
    public var subject: String
    public var body: String

    public init(from: String, to: String, subject: String, body: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
    }
}

/// Why a delivery failed: `permanent` failures (the server refused the recipient or the message) are not
/// retried; everything else is.
public struct MailDeliveryError: Error, CustomStringConvertible, Sendable {
    public var permanent: Bool
    public var description: String

    public init(permanent: Bool, _ description: String) {
        self.permanent = permanent
        self.description = description
    }
}

/// Delivers one message. Throws `MailDeliveryError` (or any error, treated as temporary).
public protocol MailTransport: Sendable {
    /// `log` or `smtp`, for logs and the outbox.
    var name: String { get }
    func send(_ message: MailMessage) async throws
}

/// Development transport: the message is "sent" by writing it to the log (recipient and subject only; the body
/// carries codes, so it stays in the outbox table, where `povver-auth outbox show` reads it).
public struct LogMailTransport: MailTransport {
    public let name = "log"
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func send(_ message: MailMessage) async throws {
        logger.info(
            "mail delivered to the log transport; read it with povver-auth outbox show",
            metadata: ["event": "mail_logged", "subject": "\(message.subject)"])
    }
}
