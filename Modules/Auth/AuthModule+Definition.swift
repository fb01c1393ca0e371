import Contracts
import Foundation
import Platform

extension AuthModule {
    /// Auth in a composition: provides token verification and the account directory, consumes nothing. Its deletion
    /// job erases the modules of the composition it is part of and waits for every other module with tables to
    /// erase in a process that composes it. `signingKey` overrides `settings.signingKeyFile` (tests).
    public static func definition(settings: AuthSettings, signingKey: SigningKey? = nil) -> ModuleDefinition {
        ModuleDefinition(
            name: ModuleName.auth,
            provides: [.contract(Contract.accessTokenVerifier, \.verifier), .contract(Contract.accountDirectory, \.accounts)],
            build: { context in
                let platform = context.platform
                return try await AuthModule(
                    database: platform.database, signingKey: signingKey ?? SigningKey.loadOrCreate(path: settings.signingKeyFile),
                    accessTokenLifetime: TimeInterval(settings.accessTokenTTL), bcryptCost: settings.bcryptCost, clock: platform.clock,
                    ids: platform.ids, rateLimits: settings.rateLimitsEnabled, recentLoginSeconds: settings.recentLoginSeconds,
                    refreshGraceSeconds: settings.refreshGraceSeconds,
                    identityProviders: settings.identityProviders,
                    mail: MailSettings(transport: platform.mail.transport, from: platform.mail.from),
                    appleClientSecret: settings.appleClientSecret, http: platform.http, threadPool: platform.threadPool,
                    timer: platform.timer, logger: platform.logger)
            },
            plugin: { module, context in
                var plugin = module.plugin
                plugin.jobs.append(contentsOf: module.deletionJobs(erasers: context.erasers))
                return plugin
            })
    }

    /// The definition with its settings read from `environment` (a bad value stops the start, naming the variable).
    public static func definition(environment: [String: String], signingKey: SigningKey? = nil) throws -> ModuleDefinition {
        definition(settings: try AuthSettings(environment: environment), signingKey: signingKey)
    }
}
