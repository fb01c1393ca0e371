import Foundation
import Logging
import Platform

extension AuthService {
    /// Removes accounts a Google or Apple sign-in created and nobody confirmed within 24 hours. Runs at start and
    /// then every ten minutes; stops with the server.
    var unconfirmedAccountPurger: PeriodicTask {
        PeriodicTask.purge(name: "unconfirmed_purge", logger: Logger(label: "auth.purge"), message: "unconfirmed accounts removed") {
            [self] in
            try await purgeUnconfirmed()
        }
    }
}
