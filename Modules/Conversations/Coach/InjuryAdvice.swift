/// What to spare for a sore area, in words, from `SwapFinder`'s load table: the movements that load the area and
/// the ones that train the same muscles and spare it. Areas the table has no swaps for (elbows, wrists, hips, neck,
/// ankles) get a coach's general advice.
enum InjuryAdvice {
    /// The movements that load any of the areas: those `SwapFinder` replaces to spare them.
    static func loadedSlots(_ areas: [String]) -> Set<MovementSlot> {
        Set(MovementSlot.allCases.filter { slot in areas.contains { SwapFinder.targets(for: slot, sparing: [$0]).spared != nil } })
    }

    /// The advice for one area ("knees", "lower back", "shoulders", "elbows" …), a sentence or two.
    static func advice(_ area: String) -> String {
        let loaded = MovementSlot.allCases.filter { SwapFinder.targets(for: $0, sparing: [area]).spared != nil }
        guard !loaded.isEmpty else { return general[area] ?? "With a sore \(area), keep to light, slow, pain-free movements." }
        var instead: [MovementSlot] = []
        for slot in loaded {
            for target in SwapFinder.targets(for: slot, sparing: [area]).slots where !instead.contains(target) { instead.append(target) }
        }
        return "For your \(area), avoid heavy \(list(loaded.map(\.words))) for now; "
            + "train the same muscles with \(list(instead.map(\.words))) instead."
    }

    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + (words.last ?? "")
    }

    static let general: [String: String] = [
        "elbows":
            "For your elbows, go easy on heavy curls, skull crushers and close-grip pressing; neutral grips (hammer curls, rope "
            + "pushdowns) and slower, lighter sets are kinder.",
        "wrists":
            "For your wrists, avoid straight-bar curls and pressing on flat palms; dumbbells with a neutral grip, push-up handles "
            + "and straps for heavy pulls take the load off.",
        "hips":
            "For your hips, keep squats and lunges to the depth that is pain-free and favour hinges, leg curls and machine work "
            + "you can control.",
        "neck":
            "For your neck, skip shrugs, heavy overhead pressing and loaded carries for now, and keep your head neutral on rows "
            + "and presses.",
        "ankles":
            "For your ankles, skip jumps, running and deep squats for now; seated and machine leg work, leg curls and hinges keep "
            + "your legs trained.",
    ]
}

extension MovementSlot {
    /// The movement in a lifter's words, for advice.
    var words: String {
        switch self {
        case .squat: "squats and leg presses"
        case .hinge: "hinges such as Romanian deadlifts"
        case .singleLeg: "lunges and split squats"
        case .legCurl: "leg curls"
        case .legExtension: "leg extensions"
        case .glutes: "glute bridges and hip thrusts"
        case .calves: "calf raises"
        case .horizontalPush: "bench pressing"
        case .inclinePush: "incline pressing"
        case .chestFly: "flyes"
        case .verticalPush: "overhead pressing"
        case .lateralRaise: "lateral raises"
        case .rearDelt: "rear-delt work such as face pulls"
        case .horizontalPull: "bent-over rows"
        case .verticalPull: "pulldowns and pull-ups"
        case .biceps: "curls"
        case .triceps: "triceps extensions"
        case .core: "core work"
        }
    }
}
