import Contracts
import Foundation
import Platform

extension AuthModule {
    /// Auth in a composition: provides token verification and the account directory (and itself, for the admin
    /// CLI), consumes nothing. Its deletion job erases the modules of the composition it is part of and waits for
    /// every other module with tables to erase in a process that composes it.
    /// `signingKey` overrides `settings.signingKeyFile` (tests).
    public static func definition(settings: AuthSettings, signingKey: SigningKey? = nil) -> ModuleDefinition {
        ModuleDefinition(
            name: "auth", provides: [Contract.accessTokenVerifier.erased, Contract.accountDirectory.erased, Self.handle.erased]
        ) { context in
            let platform = context.platform
            let module = try await AuthModule(
                database: platform.database, signingKey: signingKey ?? SigningKey.loadOrCreate(path: settings.signingKeyFile),
                accessTokenLifetime: TimeInterval(settings.accessTokenTTL), bcryptCost: settings.bcryptCost, clock: platform.clock,
                ids: platform.ids, rateLimits: settings.rateLimitsEnabled, recentLoginSeconds: settings.recentLoginSeconds,
                refreshGraceSeconds: settings.refreshGraceSeconds,
                identityProviders: settings.identityProviders,
                mail: MailSettings(transport: platform.mail.transport, from: platform.mail.from),
                appleClientSecret: settings.appleClientSecret, http: platform.http, threadPool: platform.threadPool, timer: platform.timer,
                logger: platform.logger)
            var plugin = module.plugin
            plugin.provides = [
                ProvidedContract(Contract.accessTokenVerifier, module.verifier),
                ProvidedContract(Contract.accountDirectory, module.accounts),
                ProvidedContract(Self.handle, module),
            ]
            plugin.jobs.append(contentsOf: module.deletionJobs(erasers: context.erasers))
            return plugin
        }
    }

    /// The built module itself, for the admin CLI (`povver-auth`) composed with it.
    public static let handle = ContractKey<AuthModule>(name: "AuthModule", providedBy: "auth")
}
