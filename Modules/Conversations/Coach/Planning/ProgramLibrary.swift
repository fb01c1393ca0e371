import Contracts

/// The sessions of the programs lifters know by name (`NamedProgram`), as their authors publish them: each lift with
/// its catalog id, the movement it is (so another equipment can stand in for it: `ProgramPlanner`) and its sets. The
/// first week is written out: StrongLifts and Starting Strength add weight every session, 5/3/1 moves on to its 3s
/// and 5/3/1 weeks, GZCLP to its next stage, as the description says (`NamedProgram.scheme`).
///
/// Sources: StrongLifts 5×5 (Mehdi, stronglifts.com), Starting Strength (Rippetoe, 3rd ed., the novice program),
/// PHUL (Brandon Campbell), 5/3/1 Boring But Big (Wendler), GZCLP (Cody Lefever).
enum ProgramLibrary {
    /// One lift of a session.
    struct Lift: Sendable {
        let id: String
        let slot: MovementSlot
        let sets: [TemplateSet]
    }

    /// One session: its name and lifts, in order.
    struct Session: Sendable {
        let name: String
        let lifts: [Lift]
    }

    static let squat = "Barbell_Squat", bench = "Barbell_Bench_Press_-_Medium_Grip", row = "Bent_Over_Barbell_Row"
    static let press = "Standing_Military_Press", deadlift = "Barbell_Deadlift"

    /// `count` sets of `reps` at `rir` reps in reserve; the last at `lastRir` when given (0: as many reps as possible).
    static func sets(_ count: Int, _ reps: Int, rir: Int, lastRir: Int? = nil) -> [TemplateSet] {
        (0..<count).map { TemplateSet(targetReps: reps, targetRir: $0 == count - 1 ? (lastRir ?? rir) : rir) }
    }

    /// The program's sessions, in the order they are trained.
    static func sessions(_ program: NamedProgram) -> [Session] {
        switch program {
        case .stronglifts:
            [
                Session(
                    name: "Workout A",
                    lifts: [
                        Lift(id: squat, slot: .squat, sets: sets(5, 5, rir: 2)),
                        Lift(id: bench, slot: .horizontalPush, sets: sets(5, 5, rir: 2)),
                        Lift(id: row, slot: .horizontalPull, sets: sets(5, 5, rir: 2)),
                    ]),
                Session(
                    name: "Workout B",
                    lifts: [
                        Lift(id: squat, slot: .squat, sets: sets(5, 5, rir: 2)),
                        Lift(id: press, slot: .verticalPush, sets: sets(5, 5, rir: 2)),
                        Lift(id: deadlift, slot: .hinge, sets: sets(1, 5, rir: 2)),
                    ]),
            ]
        case .startingStrength:
            [
                Session(
                    name: "Workout A",
                    lifts: [
                        Lift(id: squat, slot: .squat, sets: sets(3, 5, rir: 1)),
                        Lift(id: press, slot: .verticalPush, sets: sets(3, 5, rir: 1)),
                        Lift(id: deadlift, slot: .hinge, sets: sets(1, 5, rir: 1)),
                    ]),
                Session(
                    name: "Workout B",
                    lifts: [
                        Lift(id: squat, slot: .squat, sets: sets(3, 5, rir: 1)),
                        Lift(id: bench, slot: .horizontalPush, sets: sets(3, 5, rir: 1)),
                        Lift(id: "Power_Clean", slot: .hinge, sets: sets(5, 3, rir: 2)),
                    ]),
            ]
        case .phul: phul
        case .fiveThreeOne: fiveThreeOne
        case .gzclp: gzclp
        }
    }

    static let phul: [Session] = [
        Session(
            name: "Upper Power",
            lifts: [
                Lift(id: bench, slot: .horizontalPush, sets: sets(4, 5, rir: 2)),
                Lift(id: "Incline_Dumbbell_Press", slot: .inclinePush, sets: sets(3, 8, rir: 2)),
                Lift(id: row, slot: .horizontalPull, sets: sets(4, 5, rir: 2)),
                Lift(id: "Wide-Grip_Lat_Pulldown", slot: .verticalPull, sets: sets(3, 8, rir: 2)),
                Lift(id: press, slot: .verticalPush, sets: sets(3, 6, rir: 2)),
                Lift(id: "Barbell_Curl", slot: .biceps, sets: sets(3, 8, rir: 2)),
                Lift(id: "EZ-Bar_Skullcrusher", slot: .triceps, sets: sets(3, 8, rir: 2)),
            ]),
        Session(
            name: "Lower Power",
            lifts: [
                Lift(id: squat, slot: .squat, sets: sets(4, 5, rir: 2)), Lift(id: deadlift, slot: .hinge, sets: sets(3, 5, rir: 2)),
                Lift(id: "Leg_Press", slot: .squat, sets: sets(4, 12, rir: 2)),
                Lift(id: "Lying_Leg_Curls", slot: .legCurl, sets: sets(3, 8, rir: 2)),
                Lift(id: "Standing_Calf_Raises", slot: .calves, sets: sets(4, 8, rir: 2)),
            ]),
        Session(
            name: "Upper Hypertrophy",
            lifts: [
                Lift(id: "Barbell_Incline_Bench_Press_-_Medium_Grip", slot: .inclinePush, sets: sets(3, 10, rir: 2)),
                Lift(id: "Dumbbell_Flyes", slot: .chestFly, sets: sets(3, 10, rir: 1)),
                Lift(id: "Seated_Cable_Rows", slot: .horizontalPull, sets: sets(3, 10, rir: 2)),
                Lift(id: "One-Arm_Dumbbell_Row", slot: .horizontalPull, sets: sets(3, 10, rir: 2)),
                Lift(id: "Side_Lateral_Raise", slot: .lateralRaise, sets: sets(3, 12, rir: 1)),
                Lift(id: "Incline_Dumbbell_Curl", slot: .biceps, sets: sets(3, 10, rir: 1)),
                Lift(id: "Triceps_Pushdown", slot: .triceps, sets: sets(3, 10, rir: 1)),
            ]),
        Session(
            name: "Lower Hypertrophy",
            lifts: [
                Lift(id: "Front_Barbell_Squat", slot: .squat, sets: sets(3, 10, rir: 2)),
                Lift(id: "Barbell_Lunge", slot: .singleLeg, sets: sets(3, 10, rir: 2)),
                Lift(id: "Leg_Extensions", slot: .legExtension, sets: sets(3, 12, rir: 1)),
                Lift(id: "Seated_Leg_Curl", slot: .legCurl, sets: sets(3, 12, rir: 1)),
                Lift(id: "Seated_Calf_Raise", slot: .calves, sets: sets(3, 10, rir: 1)),
                Lift(id: "Calf_Press_On_The_Leg_Press_Machine", slot: .calves, sets: sets(3, 12, rir: 1)),
            ]),
    ]

    /// A 5/3/1 main lift's first week with Boring But Big: 5 at 65%, 5 at 75%, 5+ at 85% of the training max (the
    /// last for as many reps as possible), then 5 × 10 at 50%.
    static func wendler(_ id: String, _ slot: MovementSlot) -> Lift {
        let main = [
            TemplateSet(targetReps: 5, targetRir: 4), TemplateSet(targetReps: 5, targetRir: 3), TemplateSet(targetReps: 5, targetRir: 0),
        ]
        return Lift(id: id, slot: slot, sets: main + sets(5, 10, rir: 4))
    }

    static let fiveThreeOne: [Session] = [
        Session(
            name: "Press", lifts: [wendler(press, .verticalPush), Lift(id: "Chin-Up", slot: .verticalPull, sets: sets(5, 10, rir: 2))]),
        Session(
            name: "Deadlift", lifts: [wendler(deadlift, .hinge), Lift(id: "Hanging_Leg_Raise", slot: .core, sets: sets(5, 15, rir: 2))]),
        Session(
            name: "Bench",
            lifts: [wendler(bench, .horizontalPush), Lift(id: "One-Arm_Dumbbell_Row", slot: .horizontalPull, sets: sets(5, 10, rir: 2))]),
        Session(name: "Squat", lifts: [wendler(squat, .squat), Lift(id: "Lying_Leg_Curls", slot: .legCurl, sets: sets(5, 10, rir: 2))]),
    ]

    /// GZCLP's tiers: T1 5 × 3 (last set as many as possible), T2 3 × 10, T3 3 × 15 (last set as many as possible).
    static func gzcl(_ t1: (String, MovementSlot), _ t2: (String, MovementSlot), _ t3: (String, MovementSlot)) -> [Lift] {
        [
            Lift(id: t1.0, slot: t1.1, sets: sets(5, 3, rir: 2, lastRir: 0)), Lift(id: t2.0, slot: t2.1, sets: sets(3, 10, rir: 2)),
            Lift(id: t3.0, slot: t3.1, sets: sets(3, 15, rir: 2, lastRir: 0)),
        ]
    }

    static let gzclp: [Session] = [
        Session(name: "A1", lifts: gzcl((squat, .squat), (bench, .horizontalPush), ("Wide-Grip_Lat_Pulldown", .verticalPull))),
        Session(name: "B1", lifts: gzcl((press, .verticalPush), (deadlift, .hinge), ("One-Arm_Dumbbell_Row", .horizontalPull))),
        Session(name: "A2", lifts: gzcl((bench, .horizontalPush), (squat, .squat), ("Wide-Grip_Lat_Pulldown", .verticalPull))),
        Session(name: "B2", lifts: gzcl((deadlift, .hinge), (press, .verticalPush), ("One-Arm_Dumbbell_Row", .horizontalPull))),
    ]
}
