import Auth
import Contracts
import Foundation
import Logging
import Platform

/// `povver-auth`: accounts, the mail outbox, sessions and deletion, on a composition with Auth (the server's
/// database and signing key). Deletion erases what every module of that composition keeps, so `delete` runs on
/// every module. Each command returns the text to print.
public struct AuthTool: Sendable {
    let composition: Composition
    let auth: AuthModule

    /// Works on `composition`, which must hold Auth (the CLI's `AdminComposition`, or a test's server).
    public init(composition: Composition) throws {
        self.composition = composition
        self.auth = try composition.module(AuthModule.self)
    }

    var service: AuthService { auth.service }

    public func listUsers(limit: Int, email: String?) async throws -> String {
        let users = try await service.adminUsers(limit: limit, email: email)
        return TextTable.render(
            ["id", "email", "status", "providers", "sessions", "created"],
            users.map { [$0.id, $0.email, $0.status, $0.providers.joined(separator: ","), "\($0.openSessions)", $0.createdAt.rfc3339] })
    }

    public func showUser(id: String) async throws -> String {
        guard let user = try await service.adminUser(id: id) else { throw ServiceError(.notFound, "No account with id \(id).") }
        let shown = { (text: String) in TerminalText.escaped(text) }
        return """
            id:                \(shown(user.id))
            email:             \(shown(user.email))
            status:            \(shown(user.status))
            original provider: \(shown(user.originalProvider))
            providers:         \(shown(user.providers.joined(separator: ", ")))
            created:           \(user.createdAt.rfc3339)
            last sign-in:      \(user.lastSignInAt?.rfc3339 ?? "-")
            open sessions:     \(user.openSessions)

            """
    }

    public func listOutbox(limit: Int, userId: String?) async throws -> String {
        let mails = try await auth.outbox.list(limit: limit, userId: userId)
        return TextTable.render(
            ["id", "created", "status", "kind", "to", "subject"],
            mails.map { [$0.id, $0.createdAt.rfc3339, $0.status, $0.kind, $0.recipient, $0.subject] })
    }

    public func showOutbox(id: String) async throws -> String {
        guard let mail = try await auth.outbox.mail(id: id) else { throw ServiceError(.notFound, "No message with id \(id).") }
        let shown = { (text: String) in TerminalText.escaped(text) }
        let body =
            mail.body.isEmpty
            ? "(body removed once delivered or failed for good: it carried a one-time code)"
            : TerminalText.escaped(mail.body, keepingLines: true)
        return """
            id:        \(shown(mail.id))
            status:    \(shown(mail.status)) (\(mail.attempts) attempt(s)\(mail.transport.map { ", \(shown($0))" } ?? ""))\(mail.lastError.map { "\nerror:     \(shown($0))" } ?? "")
            created:   \(mail.createdAt.rfc3339)
            sent:      \(mail.sentAt?.rfc3339 ?? "-")
            to:        \(shown(mail.recipient))
            subject:   \(shown(mail.subject))

            \(body)

            """
    }

    public func revokeSessions(userId: String) async throws -> String {
        guard try await service.adminUser(id: userId) != nil else { throw ServiceError(.notFound, "No account with id \(userId).") }
        let count = try await service.revokeAllSessions(userId: userId)
        return "\(count) open session(s) revoked for \(userId)\n"
    }

    /// The same durable path as `deleteAccount`: the account stops signing in at once, then the deletion job
    /// runs here (or in a running server, whichever takes it first). Waits up to `wait` for it to finish; if it
    /// has not, the job stays queued and is retried by a running server or by this command again.
    public func deleteUser(userId: String, wait: Duration = .seconds(60)) async throws -> String {
        let jobId = try await service.requestDeletion(userId: userId)
        let jobs = composition.platform.jobs
        let logger = composition.platform.logger
        let worker = JobWorker(
            name: "povver-auth-\(UUID().uuidString.prefix(8))", queue: jobs,
            definitions: auth.deletionJobs(erasers: composition.erasers)
                + UserErasure.jobs(modules: composition.erasers.modules, queue: jobs), logger: logger)
        let deadline = ContinuousClock.now + wait
        var job = try await jobs.job(id: jobId)
        while true {
            try await worker.drain(limit: 100)
            job = try await jobs.job(id: jobId)
            guard job?.status == .queued || job?.status == .leased, ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        switch job?.status {
        case .done?:
            let minutes = Int(saturating: AuthService.deletionSecondPassDelay / 60)
            return "account \(userId) deleted from every module; in \(minutes) minutes a running server erases again whatever "
                + "a request under way at the time wrote\n"
        case let status?:
            // A failed job used all its attempts; asking for the deletion again starts it over.
            let next = status == .failed ? "run this command again to start it over" : "it will be retried"
            return
                "deletion of \(userId) started but not finished (job \(jobId): \(status.rawValue)\(job?.lastError.map { ", \(TerminalText.escaped($0))" } ?? "")); \(next)\n"
        case nil: return "account \(userId) deleted\n"
        }
    }
}
