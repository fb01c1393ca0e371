import Contracts

/// Which movements load a body area a user asks to spare ("knees", "lower back", "shoulders"), and what to train
/// the region with instead: the one table the planner (`RoutinePlanner`) and the swap finder (`SwapFinder`) read,
/// so a planned routine never holds a lift the swap finder would call loading the area.
///
/// | area | movements that load it | in their place | variants of a loaded movement that spare it |
/// |---|---|---|---|
/// | knees | squats, lunges and split squats, leg extensions | hinges, glute work, leg curls | none |
/// | lower back | squats, hinges, bent-over rows | split squats, leg curls, glute work; pulldowns | supported rows (seated cable, chest-supported, one-arm with a hand on a bench, machine, inverted) |
/// | shoulders | overhead, flat and incline pressing | raises and rear-delt work; flyes | floor presses and neutral-grip dumbbell pressing |
///
/// The supported rows take the spine out of the row (the chest or a hand on a pad, or the body hanging from a
/// bar); floor presses stop the upper arm at the floor and a neutral grip keeps it by the side, the two common
/// ways a painful shoulder keeps pressing (NSCA, *Essentials of Strength Training and Conditioning*, 4th ed.,
/// ch. 15 on exercise selection and modification).
enum AreaLoad {
    /// The slots whose movements load the area.
    static func loadedSlots(_ area: String) -> Set<MovementSlot> {
        switch area {
        case "knees": [.squat, .singleLeg, .legExtension]
        case "lower back": [.squat, .hinge, .horizontalPull]
        case "shoulders": [.verticalPush, .horizontalPush, .inclinePush]
        default: []
        }
    }

    /// The slots to train a loaded slot's region with while sparing the area, best first: for a slot of a
    /// supported variant (rows, pressing) the slot itself comes last, its sparing variants only.
    static func alternatives(to slot: MovementSlot, sparing area: String) -> [MovementSlot] {
        switch (area, slot) {
        case ("knees", .squat), ("knees", .singleLeg), ("knees", .legExtension): [.hinge, .glutes, .legCurl]
        case ("lower back", .squat): [.singleLeg, .legCurl, .glutes]
        case ("lower back", .hinge): [.legCurl, .glutes, .singleLeg]
        case ("lower back", .horizontalPull): [.verticalPull, .horizontalPull]
        case ("shoulders", .verticalPush): [.lateralRaise, .rearDelt]
        case ("shoulders", .horizontalPush), ("shoulders", .inclinePush): [.chestFly, .horizontalPush]
        default: [slot]
        }
    }

    /// Catalog ids of a loaded slot's movements that spare the area.
    static func sparingVariants(_ area: String) -> Set<String> {
        switch area {
        case "lower back":
            [
                "Seated_Cable_Rows", "Dumbbell_Incline_Row", "One-Arm_Dumbbell_Row", "One-Arm_Kettlebell_Row", "Leverage_High_Row",
                "Inverted_Row",
            ]
        case "shoulders":
            ["Dumbbell_Bench_Press_with_Neutral_Grip", "Alternating_Floor_Press", "One-Arm_Kettlebell_Floor_Press"]
        default: []
        }
    }

    /// Whether the exercise, filling `slot`, loads one of the areas: the slot, or the slot the swap finder reads the
    /// exercise as (a glute bridge curated as a hinge too), loads it, and the exercise is not one of its sparing
    /// variants.
    static func loads(_ exercise: Exercise, filling slot: MovementSlot?, areas: [String]) -> Bool {
        let slots = Set([slot, SwapFinder.slot(of: exercise)].compactMap { $0 })
        return areas.contains { area in
            !loadedSlots(area).isDisjoint(with: slots) && !sparingVariants(area).contains(exercise.id)
        }
    }
}
