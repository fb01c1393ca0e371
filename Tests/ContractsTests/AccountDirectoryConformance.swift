import AsyncHTTPClient
import Contracts
import Fakes
import Foundation
import NIOPosix
import Platform
import TestSupport
import Testing

@testable import Auth

struct AccountFixture: Sendable {
    /// Creates an email/password account in the given time zone, with the given name, and returns its id.
    var create: @Sendable (_ email: String, _ timeZone: String?, _ name: String?) async throws -> String
    /// Removes the account the way account deletion does.
    var remove: @Sendable (_ userId: String) async throws -> Void
    /// Chooses the account's weight format as `updateUser` does (`kilograms` or `pounds`).
    var chooseWeightFormat: @Sendable (_ userId: String, _ format: String) async throws -> Void
}

/// The `AccountDirectory` contract.
func accountDirectoryConformance(_ directory: some AccountDirectory, fixture: AccountFixture) async throws {
    let id = try await fixture.create("lookup@example.com", "Europe/Berlin", "Sam")
    let account = try #require(try await directory.account(userId: id))
    #expect(account.userId == id)
    #expect(account.email == "lookup@example.com")
    #expect(account.providers == [.password])
    #expect(account.originalProvider == "email")
    #expect(account.timeZone == "Europe/Berlin")
    #expect(account.weekStartsOnMonday)
    #expect(account.name == "Sam")
    #expect(account.weightFormat == nil && account.weightUnit == .kilograms, "kilograms until the user chooses")
    // The format as Auth stores it reads as the unit every module shows weights in.
    try await fixture.chooseWeightFormat(id, "pounds")
    #expect(try await directory.account(userId: id)?.weightUnit == .pounds)
    try await fixture.chooseWeightFormat(id, "kilograms")
    #expect(try await directory.account(userId: id)?.weightUnit == .kilograms)
    let unzoned = try await fixture.create("unzoned@example.com", nil, nil)
    #expect(try await directory.account(userId: unzoned)?.timeZone == nil)
    #expect(try await directory.account(userId: unzoned)?.name == nil)
    #expect(try await directory.account(userId: "no-such-user") == nil)
    try await fixture.remove(id)
    #expect(try await directory.account(userId: id) == nil)
}

@Suite struct AccountDirectoryConformanceTests {
    @Test func fake() async throws {
        let directory = FakeAccountDirectory()
        try await accountDirectoryConformance(
            directory,
            fixture: AccountFixture(
                create: { email, timeZone, name in
                    let id = "u-\(email)"
                    await directory.add(
                        AccountSummary(
                            userId: id, email: email, emailVerified: false, providers: [.password], originalProvider: "email",
                            createdAt: Date(), timeZone: timeZone, name: name))
                    return id
                },
                remove: { id in await directory.remove(userId: id) },
                chooseWeightFormat: { id, format in
                    guard var account = try await directory.account(userId: id) else { return }
                    account.weightFormat = format
                    await directory.add(account)
                }))
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: SystemClock(),
                ids: RandomIDGenerator(), http: .shared, threadPool: .singleton)
            try await accountDirectoryConformance(
                auth.accounts,
                fixture: AccountFixture(
                    create: { email, timeZone, name in
                        try await auth.service.signUp(email: email, password: "secret1", name: name, timeZone: timeZone).user.id
                    },
                    remove: { id in try await auth.eraser.eraseUserData(userId: id) },
                    chooseWeightFormat: { id, format in
                        _ = try await auth.service.updateProfile(userId: id, changes: ProfileChanges(weightFormat: .some(format)))
                    }))
        }
    }
}
