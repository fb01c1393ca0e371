import Contracts
import Foundation
import Logging
import Platform
import SQLKit

/// Workouts plugged in: the exercise catalog, templates, routines with their cursor, the active workout
/// and history.
public struct WorkoutsModule: Sendable {
    let context: WorkoutsContext
    public let catalog: SQLExerciseCatalog
    let templates: TemplateService
    let routines: RoutineService
    let active: ActiveWorkoutService
    let history: HistoryService
    public let eraser: WorkoutsUserDataEraser
    public let planLibrary: SQLPlanLibrary
    public let trainingLog: SQLTrainingLog
    public let activeWorkoutControl: SQLActiveWorkoutControl
    let endedWorkoutRetention: EndedWorkoutRetention
    /// History import from Strong and Hevy exports (`importWorkouts`, `povver-workouts import`).
    public let importer: WorkoutImporter

    /// `accounts` gives the user's unit to an import that names none (a composition passes Auth's directory; without
    /// one, as in the CLI, such an import reads kilograms).
    public init(database: Database, clock: any WallClock, ids: any IDGenerator, accounts: (any AccountDirectory)? = nil) {
        let catalog = SQLExerciseCatalog(database: database)
        let context = WorkoutsContext(
            database: database, clock: clock, ids: ids, catalog: catalog,
            idempotency: IdempotencyStore(
                table: "workouts_idempotency", lockClass: Self.idempotencyLockClass, database: database, clock: clock))
        self.context = context
        self.catalog = catalog
        self.templates = TemplateService(context: context)
        self.routines = RoutineService(context: context)
        self.active = ActiveWorkoutService(context: context, routines: routines)
        self.history = HistoryService(context: context)
        self.eraser = WorkoutsUserDataEraser(database: database)
        self.planLibrary = SQLPlanLibrary(templates: templates, routines: routines)
        self.trainingLog = SQLTrainingLog(history: history)
        self.activeWorkoutControl = SQLActiveWorkoutControl(active: active)
        self.endedWorkoutRetention = EndedWorkoutRetention(database: database, clock: clock)
        let match = ExerciseNameMatch(catalog: catalog)
        self.importer = WorkoutImporter(
            base: WorkoutImport(context: context, resolve: { try await match.id(for: $0) }, accounts: accounts))
    }

    public static let migrations = WorkoutsMigrations.all

    /// The advisory lock class of Workouts' idempotency keys (`IdempotencyStore.lockClass`), as it was before the
    /// store moved to Platform: replicas of both versions must wait for each other during a rolling deploy.
    static let idempotencyLockClass: Int32 = 74102

    /// Purges idempotency records older than seven days. After that the same key counts as new, which changes
    /// nothing that matters: logging a set again writes the same values into the same set; a late retry of a
    /// start while that workout is still running gets `CONFLICT` with its id, and one for a finished workout would
    /// start an empty one, as any new request does.
    var idempotencyPurger: PeriodicTask {
        context.idempotency.purger(name: "idempotency_purge", logger: Logger(label: "workouts.idempotency"))
    }

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: ModuleName.workouts, migrations: Self.migrations,
            endpoints: Endpoint.linking(planEndpoints() + activeEndpoints() + importEndpoints(), WorkoutsLinks.all),
            services: [idempotencyPurger, endedWorkoutRetention.purger], eraser: eraser, prepare: { [catalog] in await catalog.prepare() })
    }
}

/// Removes every Workouts row of a user: plans, settings, active and archived workouts, idempotency records.
/// The catalog is shared and holds nothing of a user.
public struct WorkoutsUserDataEraser: UserDataEraser {
    public let module = ModuleName.workouts
    static let tables = [
        "workouts_templates", "workouts_routines", "workouts_user_settings", "workouts_active_sets", "workouts_active_exercises",
        "workouts_active",
        "workouts_history", "workouts_idempotency",
    ]
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// The user's workout headers, locked (PostgreSQL).
    static let lockWorkouts = FixedSQL("SELECT id FROM workouts_active WHERE user_id = ? ORDER BY id FOR UPDATE")

    public func eraseUserData(userId: String) async throws {
        let engine = database.engine
        try await database.transaction { tx in
            if engine == .postgres {
                // Each statement sees what was committed when it began (READ COMMITTED). A start or a change of
                // structure (which rewrites a workout's exercise and set rows under its header's lock) committing
                // between the DELETE of the sets and that of the headers would leave rows of no workout, which
                // nothing would ever remove. So writes under way finish first: the user's starts and headers are
                // locked before anything is deleted (SQLite's single writer runs this whole transaction alone).
                try await tx.sql.run(ActiveWorkoutService.lockStarts(SQLValue(userId)))
                _ = try await tx.sql.all(Self.lockWorkouts(SQLValue(userId)))
            }
            for table in Self.tables {
                try await tx.sql.raw("DELETE FROM \(ident: table) WHERE user_id = \(bind: userId)").run()
            }
        }
    }
}
