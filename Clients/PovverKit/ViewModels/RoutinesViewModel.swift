import Foundation
import Observation
import OpenAPIRuntime
import PovverClient

/// A routine as the routines screen lists it.
public struct RoutineSummary: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var description: String?
    public var frequency: Int?
    public var templateIds: [String]
    public var isActive: Bool
    public var version: Int
}

/// The routines screen: the user's routines, which one is active, and switching it.
@MainActor @Observable
public final class RoutinesViewModel {
    private let client: Client
    public private(set) var routines: [RoutineSummary] = []
    public private(set) var isLoading = false
    public private(set) var failure: PovverError?

    public init(client: Client) { self.client = client }

    /// The active routine, if any.
    public var active: RoutineSummary? { routines.first(where: \.isActive) }

    /// Reads every routine (`getRoutines`, page by page).
    public func load() async {
        isLoading = true
        defer { isLoading = false }
        do {
            var all: [RoutineSummary] = []
            var cursor: String?
            repeat {
                let output = try await client.getRoutines(body: .json(.init(cursor: cursor, limit: 100)))
                switch output {
                case .ok(let ok):
                    let page = try ok.body.json.data
                    all += try page.items.map { try Reshape.convert($0, to: RoutineSummary.self) }
                    cursor = page.nextCursor
                case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
                }
            } while cursor != nil
            routines = all
            failure = nil
        } catch {
            failure = PovverError.from(error)
        }
    }

    /// Makes `routineId` the active routine (nil: none), then reads the list again.
    public func activate(_ routineId: String?) async {
        do {
            let output = try await client.setActiveRoutine(body: .json(.init(idempotencyKey: UUID().uuidString, routineId: routineId)))
            if case .default(let status, let failure) = output { throw PovverError.failure(status: status) { try failure.body.json } }
        } catch {
            failure = PovverError.from(error)
            return
        }
        await load()
    }
}
