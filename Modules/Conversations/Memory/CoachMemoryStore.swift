import Contracts
import Foundation
import Platform
import SQLKit

/// Each user's `CoachMemory`, one row a user (a JSON document: a handful of small facts, always read whole).
struct CoachMemoryStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// The user's facts; empty when none are kept.
    func memory(userId: String) async throws -> CoachMemory {
        guard
            let document = try await database.sql.raw(
                "SELECT document FROM conversations_memory WHERE user_id = \(bind: userId)"
            ).first(decodingColumn: "document", as: String.self)
        else { return CoachMemory() }
        return try JSONCoding.load(CoachMemory.self, from: document)
    }

    /// Sets the facts `changes` names and clears those `forget` names, in one transaction; answers the facts kept.
    /// A value out of range is `INVALID_ARGUMENT` and changes nothing. Forgetting the last fact removes the row.
    @discardableResult
    func update(userId: String, changes: CoachMemory, forget: [CoachMemory.Fact] = []) async throws -> CoachMemory {
        let now = clock.now()
        return try await database.transaction { tx in
            let lock: SQLQueryString = tx.engine == .postgres ? " FOR UPDATE" : ""
            let stored = try await tx.sql.raw(
                "SELECT document FROM conversations_memory WHERE user_id = \(bind: userId)\(lock)"
            ).first(decodingColumn: "document", as: String.self)
            let current = try stored.map { try JSONCoding.load(CoachMemory.self, from: $0) } ?? CoachMemory()
            let next = try current.applying(changes, forgetting: forget)
            guard next.with(updatedAt: nil) != current.with(updatedAt: nil) else { return current }
            if next.isEmpty {
                try await tx.sql.raw("DELETE FROM conversations_memory WHERE user_id = \(bind: userId)").run()
                return CoachMemory()
            }
            let kept = next.with(updatedAt: now)
            try await tx.sql.raw(
                """
                INSERT INTO conversations_memory (user_id, document, updated_at)
                VALUES (\(bind: userId), \(bind: try JSONCoding.store(kept)), \(bind: now.millisecondsSince1970))
                ON CONFLICT (user_id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at
                """
            ).run()
            return kept
        }
    }
}
