import Contracts
import Platform

/// Workouts: the exercise catalog, templates, routines, active workouts and history. Plugged in with its name and eraser; its tables, routes, handlers and jobs arrive with
/// the issue that builds the module.
public struct WorkoutsModule: Sendable {
    public init() {}

    public var plugin: ModulePlugin {
        ModulePlugin(name: "workouts", eraser: WorkoutsUserDataEraser())
    }
}

/// Erases the user's Workouts data. The module owns no tables yet, so there is nothing of a user to remove;
/// each table the module adds is deleted here in the same change.
public struct WorkoutsUserDataEraser: UserDataEraser {
    public let module = "workouts"

    public init() {}

    public func eraseUserData(userId: String) async throws {}
}
