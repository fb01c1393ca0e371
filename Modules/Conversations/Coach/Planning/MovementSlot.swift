/// A place in a training day for one exercise of a movement pattern: a squat, a hinge, a horizontal press …
///
/// A day is a list of slots (`TrainingDay`); the planner fills each with an exercise from the slot's curated
/// catalog ids (`MovementSlot+Candidates.swift`) that the user's equipment allows, or, when none does, with a
/// catalog exercise whose first primary muscle is one of the slot's `muscles`.
enum MovementSlot: String, Sendable, CaseIterable {
    case squat
    case hinge
    case singleLeg
    case legCurl
    case legExtension
    case glutes
    case calves
    case horizontalPush
    case inclinePush
    case chestFly
    case verticalPush
    case lateralRaise
    case rearDelt
    case horizontalPull
    case verticalPull
    case biceps
    case triceps
    case core

    /// The primary muscles an exercise in this slot may have, the first the one a fallback search asks for.
    var muscles: [String] {
        switch self {
        case .squat, .singleLeg, .legExtension: ["quadriceps"]
        case .hinge: ["hamstrings", "lower back", "glutes"]
        case .legCurl: ["hamstrings"]
        case .glutes: ["glutes"]
        case .calves: ["calves"]
        case .horizontalPush, .inclinePush, .chestFly: ["chest"]
        case .verticalPush, .lateralRaise, .rearDelt: ["shoulders"]
        case .horizontalPull: ["middle back", "lats"]
        case .verticalPull: ["lats"]
        case .biceps: ["biceps"]
        case .triceps: ["triceps"]
        case .core: ["abdominals"]
        }
    }

    /// Whether the slot is for a multi-joint lift (a fallback then looks for a compound exercise, and the
    /// prescription is a compound one: `SetPrescription`).
    var isCompound: Bool {
        switch self {
        case .squat, .hinge, .singleLeg, .horizontalPush, .inclinePush, .verticalPush, .horizontalPull, .verticalPull: true
        case .legCurl, .legExtension, .glutes, .calves, .chestFly, .lateralRaise, .rearDelt, .biceps, .triceps, .core: false
        }
    }

    /// The slots that train the same muscles the same way when the equipment has nothing for this one: a row for a
    /// pulldown (dumbbells, kettlebells), a pulldown or pull-up for a row.
    var standIns: [MovementSlot] {
        switch self {
        case .verticalPull: [.horizontalPull]
        case .horizontalPull: [.verticalPull]
        default: []
        }
    }
}
