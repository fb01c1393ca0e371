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
    /// primary muscle; ids are unique. Text is trimmed (spaces and line breaks); a text that is blank once
    /// trimmed (a muscle, or an optional field such as `equipment`: leave it out or null instead) is refused, as
    /// it could never be searched or filtered. Muscles are stored in lower case with single spaces, and a list
    /// naming one muscle twice is refused. Throws `INVALID_ARGUMENT` naming the first bad field.
    public static func parse(_ data: Data) throws -> [Exercise] {
        let entries: [FileEntry]
        do {
            entries = try JSONDecoder().decode([FileEntry].self, from: data)
        } catch let error as DecodingError {
            throw ErrorMapper.decodingError(error)
        }
        var seen = Set<String>()
        return try entries.enumerated().map { index, entry in
            func text(_ value: String, _ field: String, limit: Int = 200) throws -> String {
                try WorkoutsValidation.refuseNUL(value, field: "[\(index)].\(field)")
                let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, trimmed.count <= limit else {
                    throw ServiceError.invalidArgument(
                        field: "[\(index)].\(field)", reason: "must be 1 to \(limit) characters, not counting spaces around")
                }
                return trimmed
            }
            // Muscles are keys of the analytics (sets and volume per muscle): one spelling each, lower case with
            // single spaces as in the bundled catalog, and each once per list, or a workout would count "Chest"
            // apart from "chest", or count an exercise's volume twice for one muscle.
            func muscles(_ values: [String], _ field: String) throws -> [String] {
                var listed = Set<String>()
                return try values.enumerated().map { offset, value in
                    let muscle = try text(value, "\(field)[\(offset)]", limit: 100).lowercased()
                        .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    guard listed.insert(muscle).inserted else {
                        throw ServiceError.invalidArgument(field: "[\(index)].\(field)[\(offset)]", reason: "lists \(muscle) twice")
                    }
                    return muscle
                }
            }
            let id = try text(entry.id, "id", limit: 128)
            let primaryMuscles = try muscles(entry.primaryMuscles, "primaryMuscles")
            guard !primaryMuscles.isEmpty else {
                throw ServiceError.invalidArgument(field: "[\(index)].primaryMuscles", reason: "needs at least one muscle")
            }
            guard seen.insert(id).inserted else { throw ServiceError.invalidArgument(field: "[\(index)].id", reason: "duplicate id \(id)") }
            return Exercise(
                id: id, name: try text(entry.name, "name"), category: try text(entry.category, "category", limit: 100),
                equipment: try entry.equipment.map { try text($0, "equipment", limit: 100) },
                force: try entry.force.map { try text($0, "force", limit: 100) },
                level: try entry.level.map { try text($0, "level", limit: 100) },
                mechanic: try entry.mechanic.map { try text($0, "mechanic", limit: 100) }, primaryMuscles: primaryMuscles,
                secondaryMuscles: try muscles(entry.secondaryMuscles ?? [], "secondaryMuscles"))
        }
    }

    /// Inserts new exercises and updates changed ones, in one transaction. Returns (inserted, updated).
    @discardableResult
    public static func upsert(_ exercises: [Exercise], into database: Database, at date: Date) async throws -> (inserted: Int, updated: Int)
    {
        try await database.transaction { tx in
            if database.engine == .postgres {
                // Imports from two hosts at once go one after the other, so the later one stamps after the earlier.
                try await tx.sql.raw("LOCK TABLE workouts_exercises IN SHARE ROW EXCLUSIVE MODE").run()
            }
            return try await upsert(exercises, sql: tx.sql, at: date)
        }
    }

    static func upsert(_ exercises: [Exercise], sql: any SQLDatabase, at date: Date) async throws -> (inserted: Int, updated: Int) {
        var existing: [String: Exercise] = [:]
        var latest: Int64 = .min
        for row in try await sql.raw("SELECT id, document, updated_at FROM workouts_exercises").all() {
            existing[try row.decode(column: "id", as: String.self)] = try JSONCoding.load(
                Exercise.self, from: try row.decode(column: "document", as: String.self))
            latest = max(latest, try row.decode(column: "updated_at", as: Int64.self))
        }
        var inserted = 0
        var updated = 0
        // Later than every stamp in the table, even from a host whose clock is behind the last import's: servers
        // notice a change by the row count and the newest stamp (`SQLExerciseCatalog`), and an update-only import
        // stamped earlier would go unseen until they restart.
        let stamp = latest == .min ? date.millisecondsSince1970 : max(date.millisecondsSince1970, latest + 1)
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
