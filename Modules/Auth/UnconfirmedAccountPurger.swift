import Foundation
import Logging
import ServiceLifecycle

/// Removes accounts a Google or Apple sign-in created and nobody confirmed within 24 hours. Runs at start and
/// then every ten minutes; stops with the server.
struct UnconfirmedAccountPurger: Service {
    let service: AuthService
    var interval: Duration = .seconds(600)
    let logger = Logger(label: "auth.purge")

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await service.purgeUnconfirmed()
                    if removed > 0 {
                        logger.info("unconfirmed accounts removed", metadata: ["event": "unconfirmed_purged", "count": "\(removed)"])
                    }
                } catch {
                    logger.error("purging unconfirmed accounts failed", metadata: ["event": "unconfirmed_purge_failed", "error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
