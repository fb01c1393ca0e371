import Contracts
import Foundation
import Logging
import Platform
import Workouts

/// `povver-workouts`: the Workouts module and its storage, nothing else. Each command returns the text to print.
public struct WorkoutsTool: Sendable {
    let database: Database
    let module: WorkoutsModule
    let clock: any WallClock

    /// Opens the database at `url` (as `POVVER_DATABASE_URL` reads) and applies Platform's and Workouts' migrations.
    public static func open(url: String, logger: Logger, clock: any WallClock = SystemClock()) async throws -> WorkoutsTool {
        let location = try DatabaseLocation(url: url)
        try location.requireExistingFile()
        let database = try await Database.open(location, maxConnectionsPerEventLoop: 1, logger: logger)
        do {
            try await Migrator(database: database, logger: logger).migrate([
                Migrator.platformMigrations, (ModuleName.workouts, WorkoutsModule.migrations),
            ])
        } catch {
            await database.shutdown()
            throw error
        }
        return WorkoutsTool(
            database: database, module: WorkoutsModule(database: database, clock: clock, ids: RandomIDGenerator()), clock: clock)
    }

    public func close() async { await database.shutdown() }

    /// A page of results; when more follow, the last line gives the `--cursor` that lists the next page.
    public func searchCatalog(query: String?, muscle: String?, equipment: String?, category: String?, limit: Int, cursor: String? = nil)
        async throws -> String
    {
        let page = try await module.catalog.search(
            ExerciseQuery(text: query, muscle: muscle, equipment: equipment, category: category, limit: limit, cursor: cursor))
        let rows = page.items.map { [$0.id, $0.name, $0.category, $0.equipment ?? "-", $0.primaryMuscles.joined(separator: ",")] }
        return TextTable.render(["id", "name", "category", "equipment", "primary muscles"], rows)
            + (page.nextCursor.map { "(more: --cursor \($0))\n" } ?? "")
    }

    public func listTemplates(userId: String) async throws -> String {
        let templates = try await module.planLibrary.templates(userId: userId)
        let rows = templates.map {
            [
                $0.id, $0.name, "v\($0.version)", "\($0.analytics.totalSets) sets", "\($0.analytics.estimatedDurationMinutes) min",
                $0.exercises.map(\.name).joined(separator: "; "),
            ]
        }
        return TextTable.render(["id", "name", "version", "sets", "duration", "exercises"], rows)
    }

    /// A page of history; when more follow, the last line gives the `--cursor` that lists the next page.
    public func history(userId: String, limit: Int, cursor: String? = nil) async throws -> String {
        let (workouts, next) = try await module.trainingLog.recentWorkouts(userId: userId, limit: limit, cursor: cursor)
        let rows = workouts.map {
            [
                $0.id, $0.endTime.rfc3339, $0.name ?? "-", "\($0.analytics.totals.sets)", "\($0.analytics.totals.reps)",
                String(format: "%.1f", $0.analytics.totals.volume),
            ]
        }
        return TextTable.render(["id", "completed", "name", "sets", "reps", "volume kg"], rows)
            + (next.map { "(more: --cursor \($0))\n" } ?? "")
    }

    /// Validates the whole file first; nothing is written if any entry is bad.
    public func importCatalog(path: String) async throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServiceError(.notFound, "Cannot read \(path).")
        }
        let exercises = try CatalogImport.parse(data)
        let (inserted, updated) = try await CatalogImport.upsert(exercises, into: database, at: clock.now())
        module.catalog.invalidate()
        return
            "\(exercises.count) exercises read: \(inserted) added, \(updated) updated, \(exercises.count - inserted - updated) unchanged\n"
    }

    /// Imports a Strong or Hevy export (`format`: `strong` or `hevy`) for the user, in one transaction; `progress`
    /// shows the workouts written. The summary lists skipped rows and unmatched exercise names.
    public func importHistory(
        userId: String, format: String, path: String, weightUnit: String?, timeZone: String?, progress: ProgressReport? = nil
    ) async throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw ServiceError(.notFound, "Cannot read \(path).") }
        guard let content = String(data: data, encoding: .utf8) else {
            throw ServiceError.invalidArgument(field: "file", reason: "not UTF-8 text", message: "\(path) is not UTF-8 text.")
        }
        let summary = try await module.importer.importFile(
            userId: userId, format: "\(format)_csv", content: content, weightUnit: weightUnit, timeZone: timeZone,
            progress: { done, total in progress?.update(done, of: total) })
        progress?.finish()
        var text = "\(summary.imported) workouts imported (\(summary.sets) sets)\n"
        if !summary.skipped.isEmpty {
            text +=
                "\(summary.skippedTotal) rows skipped"
                + (summary.skippedTotal > summary.skipped.count ? " (the first \(summary.skipped.count) listed)" : "") + ":\n"
                + TextTable.render(["row", "reason"], summary.skipped.map { ["\($0.row)", $0.reason] })
        }
        if !summary.unmatched.isEmpty {
            text +=
                "exercises not in the catalog (not imported):\n"
                + TextTable.render(["name", "rows"], summary.unmatched.map { [$0.name, "\($0.rows)"] })
        }
        return text
    }
}
