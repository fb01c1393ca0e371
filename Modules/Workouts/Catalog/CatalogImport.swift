import Contracts
import Foundation
import Platform
import SQLKit

/// Reading and storing catalog files: the seed bundled with the module, or a file an operator imports.
public enum CatalogImport {
    /// The catalog file's own shape (the free-exercise-db fields).
    struct FileEntry: Decodable {
        var id: String
        var name: String
        var category: String
        var equipment: String?
        var force: String?
        var level: String?
        var mechanic: String?
        var primaryMuscles: [String]
        var secondaryMuscles: [String]?
    }

    /// The catalog that ships with the module.
    public static func bundled() throws -> [Exercise] {
        guard let url = Bundle.module.url(forResource: "exercise-catalog", withExtension: "json") else {
            throw ServiceError(.internalError, "The bundled exercise catalog is missing.")
        }
        return try parse(Data(contentsOf: url))
    }

    /// Parses and validates a catalog file: every entry needs an id, a name, a category and at least one
    /// primary muscle; ids are unique. Throws `INVALID_ARGUMENT` naming the first bad entry.
    public static func parse(_ data: Data) throws -> [Exercise] {
        let entries: [FileEntry]
        do {
            entries = try JSONDecoder().decode([FileEntry].self, from: data)
        } catch let error as DecodingError {
            throw ErrorMapper.decodingError(error)
        }
        var seen = Set<String>()
        return try entries.enumerated().map { index, entry in
            let id = entry.id.trimmingCharacters(in: .whitespaces)
            let name = entry.name.trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty, id.count <= 128 else { throw ServiceError.invalidArgument(field: "[\(index)].id", reason: "must be 1 to 128 characters") }
            guard !name.isEmpty, name.count <= 200 else { throw ServiceError.invalidArgument(field: "[\(index)].name", reason: "must be 1 to 200 characters") }
            guard !entry.category.isEmpty else { throw ServiceError.invalidArgument(field: "[\(index)].category", reason: "must not be empty") }
            guard !entry.primaryMuscles.isEmpty else {
                throw ServiceError.invalidArgument(field: "[\(index)].primaryMuscles", reason: "needs at least one muscle")
            }
            guard seen.insert(id).inserted else { throw ServiceError.invalidArgument(field: "[\(index)].id", reason: "duplicate id \(id)") }
            return Exercise(
                id: id, name: name, category: entry.category, equipment: entry.equipment, force: entry.force, level: entry.level,
                mechanic: entry.mechanic, primaryMuscles: entry.primaryMuscles, secondaryMuscles: entry.secondaryMuscles ?? [])
        }
    }

    /// Inserts new exercises and updates changed ones, in one transaction. Returns (inserted, updated).
    @discardableResult
    public static func upsert(_ exercises: [Exercise], into database: Database, at date: Date) async throws -> (inserted: Int, updated: Int) {
        try await database.transaction { tx in try await upsert(exercises, sql: tx.sql, at: date) }
    }

    static func upsert(_ exercises: [Exercise], sql: any SQLDatabase, at date: Date) async throws -> (inserted: Int, updated: Int) {
        var existing: [String: Exercise] = [:]
        for row in try await sql.raw("SELECT id, document FROM workouts_exercises").all() {
            existing[try row.decode(column: "id", as: String.self)] = try JSONCoding.load(Exercise.self, from: try row.decode(column: "document", as: String.self))
        }
        var inserted = 0
        var updated = 0
        let stamp = date.millisecondsSince1970
        for exercise in exercises {
            let document = try JSONCoding.store(exercise)
            switch existing[exercise.id] {
            case nil:
                try await sql.raw(
                    "INSERT INTO workouts_exercises (id, name, document, updated_at) VALUES (\(bind: exercise.id), \(bind: exercise.name), \(bind: document), \(bind: stamp))"
                ).run()
                inserted += 1
            case let stored? where stored != exercise:
                try await sql.raw(
                    "UPDATE workouts_exercises SET name = \(bind: exercise.name), document = \(bind: document), updated_at = \(bind: stamp) WHERE id = \(bind: exercise.id)"
                ).run()
                updated += 1
            default:
                break
            }
        }
        return (inserted, updated)
    }
}
