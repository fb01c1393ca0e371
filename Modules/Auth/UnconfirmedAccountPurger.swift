import Foundation
import Logging
import Platform

extension AuthService {
    /// Removes accounts a Google or Apple sign-in created and nobody confirmed within 24 hours. Runs at start and
    /// then every ten minutes; stops with the server.
    var unconfirmedAccountPurger: PeriodicTask {
        let logger = Logger(label: "auth.purge")
        return PeriodicTask(name: "unconfirmed_purge", interval: .seconds(600), logger: logger) { [self] in
            let removed = try await purgeUnconfirmed()
            if removed > 0 {
                logger.info("unconfirmed accounts removed", metadata: ["event": "unconfirmed_purged", "count": "\(removed)"])
            }
        }
    }
}
