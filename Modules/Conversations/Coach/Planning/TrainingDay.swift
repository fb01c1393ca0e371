/// The kind of one session of a split ("Upper", "Push", "Chest & Back") and the movement slots it trains.
///
/// A kind has one or more slot lists; its first session in a routine uses the first list, the second the
/// second (wrapping), so "Upper A" leads with the bench press and "Upper B" with the pulldown. Lists are in
/// priority order: a short session keeps the front of the list (`SessionBudget`), so the first five slots of
/// every list cover what the day's name promises. A slot listed twice takes a second exercise ("Push": two
/// triceps movements).
enum TrainingDay: String, Sendable, CaseIterable {
    case fullBody
    case upper
    case lower
    case push
    case pull
    case legs
    case chest
    case back
    case shoulders
    case arms
    case chestAndBack
    case shouldersAndArms
    case chestAndTriceps
    case backAndBiceps

    /// The session's name without its A/B letter.
    var title: String {
        switch self {
        case .fullBody: "Full Body"
        case .upper: "Upper"
        case .lower: "Lower"
        case .push: "Push"
        case .pull: "Pull"
        case .legs: "Legs"
        case .chest: "Chest"
        case .back: "Back"
        case .shoulders: "Shoulders"
        case .arms: "Arms"
        case .chestAndBack: "Chest & Back"
        case .shouldersAndArms: "Shoulders & Arms"
        case .chestAndTriceps: "Chest & Triceps"
        case .backAndBiceps: "Back & Biceps"
        }
    }

    /// The kind whose sessions this one follows in the rotation: in the five-day hybrid, "Push" and "Pull" come
    /// after "Upper", and "Legs" after "Lower", as B days would, instead of repeating their exercises.
    var follows: TrainingDay? {
        switch self {
        case .push, .pull: .upper
        case .legs: .lower
        default: nil
        }
    }

    /// The slot lists, one per rotation (A, B, C …).
    var slotLists: [[MovementSlot]] {
        switch self {
        case .fullBody:
            [
                [.squat, .horizontalPush, .horizontalPull, .hinge, .lateralRaise, .biceps, .triceps, .core],
                [.hinge, .verticalPush, .verticalPull, .singleLeg, .inclinePush, .calves, .core, .biceps],
                [.squat, .inclinePush, .verticalPull, .legCurl, .verticalPush, .triceps, .rearDelt, .core],
            ]
        case .upper:
            [
                [.horizontalPush, .horizontalPull, .verticalPush, .verticalPull, .lateralRaise, .biceps, .triceps, .chestFly],
                [.verticalPull, .inclinePush, .horizontalPull, .verticalPush, .rearDelt, .triceps, .biceps, .lateralRaise],
            ]
        case .lower, .legs:
            [
                [.squat, .hinge, .singleLeg, .legCurl, .calves, .core, .legExtension, .glutes],
                [.hinge, .squat, .legCurl, .singleLeg, .calves, .glutes, .legExtension, .core],
            ]
        case .push:
            [
                [.horizontalPush, .verticalPush, .inclinePush, .lateralRaise, .triceps, .chestFly, .triceps],
                [.verticalPush, .inclinePush, .horizontalPush, .lateralRaise, .triceps, .chestFly, .triceps],
            ]
        case .pull:
            [
                [.verticalPull, .horizontalPull, .horizontalPull, .rearDelt, .biceps, .biceps],
                [.horizontalPull, .verticalPull, .verticalPull, .rearDelt, .biceps, .biceps],
            ]
        case .chest: [[.horizontalPush, .inclinePush, .chestFly, .horizontalPush, .chestFly]]
        case .back: [[.verticalPull, .horizontalPull, .verticalPull, .horizontalPull, .rearDelt]]
        case .shoulders: [[.verticalPush, .lateralRaise, .rearDelt, .verticalPush, .lateralRaise]]
        case .arms: [[.biceps, .triceps, .biceps, .triceps, .biceps, .triceps]]
        case .chestAndBack: [[.horizontalPush, .horizontalPull, .inclinePush, .verticalPull, .chestFly, .horizontalPull]]
        case .shouldersAndArms: [[.verticalPush, .lateralRaise, .biceps, .triceps, .rearDelt, .biceps, .triceps]]
        case .chestAndTriceps: [[.horizontalPush, .inclinePush, .chestFly, .triceps, .triceps]]
        case .backAndBiceps: [[.verticalPull, .horizontalPull, .horizontalPull, .biceps, .biceps]]
        }
    }

    /// How many of the first slots of each list a session keeps however short it is (with fewer sets: `SessionBudget`):
    /// a full-body day's lower-body lift, push and pull; another day's first two.
    var essentials: Int { self == .fullBody ? 3 : 2 }

    /// Whether the kind's sessions train the group: one of its slots does.
    func trains(_ group: WeeklyVolume.Group) -> Bool {
        slotLists.joined().contains { WeeklyVolume.Group(slot: $0) == group }
    }

    /// Slots that top up a session its equipment left with fewer than two exercises (a bodyweight "Shoulders"
    /// day has one shoulder exercise in the catalog): movements that belong on the day, never a leg slot on an
    /// upper-body day or the reverse.
    var backupSlots: [MovementSlot] {
        switch self {
        case .fullBody, .lower, .legs: [.glutes, .core]
        case .upper, .chest, .chestAndBack, .chestAndTriceps, .push: [.horizontalPush, .inclinePush, .triceps]
        case .pull, .back, .backAndBiceps: [.verticalPull, .horizontalPull, .biceps]
        case .shoulders, .shouldersAndArms: [.horizontalPush, .triceps]
        case .arms: [.triceps, .biceps]
        }
    }
}
