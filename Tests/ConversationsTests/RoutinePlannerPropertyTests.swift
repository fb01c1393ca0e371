import Contracts
import Fakes
import Testing
import Workouts

@testable import Conversations

/// Plans a good coach would sign, over every days (2–6) × split × equipment × goal × area to spare × session length,
/// on the bundled catalog: each major muscle group's weekly sets, a pull in every full-body day, the areas spared
/// as `SwapFinder` reads them, no expert move and no move hanging from a bar the user lacks, bodyweight sets by
/// reps, strength heavier than hypertrophy, and sessions whose estimated minutes (`SessionDurationEstimate`, rest
/// by goal) fit the minutes asked for. The rules and their exceptions are in docs/coach-planning.md.
@Suite struct RoutinePlannerPropertyTests {
    static let exercises = RoutinePlannerTests.exercises
    static let catalog = RoutinePlannerTests.catalog
    static let planner = RoutinePlannerTests.planner

    static let equipmentSets: [EquipmentSet] = [
        .fullGym, EquipmentSet([.dumbbell]), EquipmentSet([.barbell, .dumbbell]), .bodyOnly, EquipmentSet([], pullUpBar: true),
        EquipmentSet([.cable, .machine]), EquipmentSet([.kettlebells, .bands]), EquipmentSet([.dumbbell], pullUpBar: true),
    ]
    static let spared: [[String]] = [[], ["knees"], ["lower back"], ["shoulders"]]
    static let minutes = [30, 45, 60, 90]

    /// Every request of the grid for one split (the splits run in parallel).
    static func requests(_ split: PlanRequest.Split?) -> [PlanRequest] {
        var requests: [PlanRequest] = []
        for days in 2...6 {
            for equipment in equipmentSets {
                for goal in PlanRequest.Goal.allCases {
                    for avoid in spared {
                        for minutes in minutes {
                            requests.append(
                                PlanRequest(days: days, split: split, equipment: equipment, goal: goal, minutes: minutes, avoid: avoid))
                        }
                    }
                }
            }
        }
        return requests
    }

    @Test(arguments: RoutinePlannerTests.splits)
    func everyPlanOfTheGridIsOneACoachWouldSign(split: PlanRequest.Split?) async throws {
        for request in Self.requests(split) {
            let plan = try await Self.planner.plan(request)
            let problems = RoutinePlannerTests.problems(plan, request) + Self.problems(plan, request)
            #expect(problems.isEmpty, "\(Self.describe(request)): \(problems)")
        }
    }

    /// For the same request, a strength routine's first lift of every day is heavier (fewer reps) than a
    /// hypertrophy routine's, and an hour of strength holds far fewer sets than an hour of hypertrophy.
    @Test(arguments: RoutinePlannerTests.splits)
    func strengthTopSetsAreHeavierThanHypertrophy(split: PlanRequest.Split?) async throws {
        for request in Self.requests(split) where request.goal == .strength {
            var hypertrophyRequest = request
            hypertrophyRequest.goal = .hypertrophy
            let strength = try await Self.planner.plan(request)
            let hypertrophy = try await Self.planner.plan(hypertrophyRequest)
            for (heavy, moderate) in zip(strength.templates, hypertrophy.templates) {
                let heaviest = heavy.exercises.flatMap(\.sets).compactMap(\.targetReps).min() ?? 0
                let moderateHeaviest = moderate.exercises.flatMap(\.sets).compactMap(\.targetReps).min() ?? 0
                #expect(heaviest < moderateHeaviest, "\(Self.describe(request)): \(heavy.name) \(heaviest) vs \(moderateHeaviest) reps")
                // A day with a compound lift (not a day of raises and curls) has a heavy top set.
                let compound = heavy.exercises.contains { Self.catalog[$0.exerciseId].flatMap(SwapFinder.slot(of:))?.isCompound == true }
                #expect(!compound || heaviest <= 6, "\(Self.describe(request)): \(heavy.name)")
                // No "22 strength sets in 60 minutes": heavy sets take 3.5 minutes each with their rest.
                let heavySets = heavy.exercises.flatMap(\.sets).filter { ($0.targetReps ?? 0) <= 6 }.count
                #expect(Double(heavySets) * 3.5 <= Double((request.minutes ?? 60) - 5), "\(Self.describe(request)): \(heavy.name)")
            }
        }
    }

    @Test func theDurationEstimateRestsLongerForHeavierSets() {
        #expect(SessionDurationEstimate.minutesPerSet(targetReps: 5) == 3.5)
        #expect(SessionDurationEstimate.minutesPerSet(targetReps: 10) == 2.5)
        #expect(SessionDurationEstimate.minutesPerSet(targetReps: nil) == 2.5)
        #expect(SessionDurationEstimate.minutesPerSet(targetReps: 15) == 2)
        // 22 sets of 5 are not an hour: 5 + 77 minutes; 22 sets of 10 are (5 + 55).
        #expect(SessionDurationEstimate.minutes(targetReps: Array(repeating: 5, count: 22)) == 82)
        #expect(SessionDurationEstimate.minutes(targetReps: Array(repeating: 10, count: 22)) == 60)
        #expect(SessionDurationEstimate.minutes(targetReps: [Int?]()) == 0)
    }

    // MARK: Checks

    /// Bar-dependent catalog moves the planner must not give a user without a bar, named here so the rule cannot
    /// drift with its own implementation.
    static let barMoves: Set<String> = [
        "Pullups", "Chin-Up", "V-Bar_Pullup", "Wide-Grip_Rear_Pull-Up", "Hanging_Leg_Raise", "Hanging_Pike", "Inverted_Row",
        "Dips_-_Triceps_Version", "Muscle_Up", "Band_Assisted_Pull-Up",
    ]
    /// Lifts that load an area, named here as a lifter would: what "avoid knees" or "avoid lower back" rules out.
    static let loading: [String: Set<String>] = [
        "knees": ["Barbell_Squat", "Leg_Press", "Hack_Squat", "Dumbbell_Squat", "Goblet_Squat", "Dumbbell_Lunges", "Leg_Extensions"],
        "lower back": ["Barbell_Squat", "Barbell_Deadlift", "Romanian_Deadlift", "Bent_Over_Barbell_Row", "Bent_Over_Two-Dumbbell_Row"],
        "shoulders": ["Standing_Military_Press", "Dumbbell_Shoulder_Press", "Barbell_Bench_Press_-_Medium_Grip", "Pushups"],
    ]

    /// What the property suite finds wrong with the routine; empty when nothing is.
    static func problems(_ plan: RoutinePlan, _ request: PlanRequest) -> [String] {
        var problems: [String] = []
        let equipment = request.equipment ?? .fullGym
        for template in plan.templates {
            let exercises = template.exercises.compactMap { catalog[$0.exerciseId] }
            if template.exercises.count < 2 { problems.append("\(template.name) has \(template.exercises.count) exercises") }
            let minutes = SessionDurationEstimate.minutes(template.exercises.flatMap(\.sets))
            if minutes > request.minutes ?? 60 { problems.append("\(template.name) takes \(minutes) minutes") }
            if template.name.hasPrefix("Full Body"), !exercises.contains(where: isPull), hasPull(equipment, request.avoid) {
                problems.append("\(template.name) has no pull")
            }
            for (planned, exercise) in zip(template.exercises, exercises) {
                if exercise.level == "expert" { problems.append("\(exercise.id) is an expert move") }
                if !equipment.pullUpBar, barMoves.contains(exercise.id) || EquipmentSet.needsBar(exercise) {
                    problems.append("\(exercise.id) needs a bar")
                }
                for area in request.avoid {
                    let slot = SwapFinder.slot(of: exercise)
                    let swapFinderSpares = slot.map { SwapFinder.targets(for: $0, sparing: [area]).spared == nil } ?? true
                    if !swapFinderSpares && !AreaLoad.sparingVariants(area).contains(exercise.id)
                        || loading[area, default: []].contains(exercise.id)
                    {
                        problems.append("\(exercise.id) loads the \(area)")
                    }
                }
                let bodyweight = exercise.equipment == nil || exercise.equipment == "body only"
                if bodyweight, planned.sets.contains(where: { $0.targetRir != nil || $0.targetReps == nil }) {
                    problems.append("\(exercise.id) is bodyweight with \(planned.sets)")
                }
            }
        }
        let weekly = weeklySets(plan)
        for (group, sets) in weekly.sorted(by: { $0.key < $1.key }) {
            let bounds = expectedSets(group, request)
            if !bounds.contains(sets) { problems.append("\(group): \(sets) sets a week, expected \(bounds)") }
        }
        return problems
    }

    /// A horizontal or vertical pull: a row or pulldown, the lats or the middle back its first muscle.
    static func isPull(_ exercise: Exercise) -> Bool {
        ["lats", "middle back"].contains(exercise.primaryMuscles.first ?? "")
    }

    /// Whether the equipment allows any pull sparing the areas: not with the body alone (every bodyweight pull hangs
    /// from a bar, and the catalog has no band row).
    static func hasPull(_ equipment: EquipmentSet, _ avoid: [String]) -> Bool {
        equipment.isFullGym || equipment.pullUpBar
            || !(equipment.kinds ?? []).isDisjoint(with: [.dumbbell, .cable, .machine, .kettlebells, .barbell])
    }

    /// The weekly working sets the docs promise a group for the request (docs/coach-planning.md, "Weekly volume").
    static func expectedSets(_ group: String, _ request: PlanRequest) -> ClosedRange<Int> {
        let equipment = request.equipment ?? .fullGym
        let bodyweight = !equipment.isFullGym && equipment.kinds == [.bodyOnly]
        // Nothing can train the group: no quad movement spares the knees; no bodyweight shoulder move is not expert; the
        // body alone has no pull, and a push-up loads a shoulder to spare with no bodyweight fly to take its place.
        if group == "quadriceps" && request.avoid.contains("knees") { return 0...0 }
        if group == "shoulders" && bodyweight { return 0...0 }
        if group == "back" && bodyweight && !equipment.pullUpBar { return 0...0 }
        if group == "chest" && bodyweight && request.avoid.contains("shoulders") { return 0...0 }
        return minimumSets(group, request)...WeeklyVolume.cap
    }

    /// The floor of a group's week: for a hypertrophy routine by the days and the minutes (the week's time shared
    /// among five groups), lower where sparing the lower back leaves one exercise for the group; for other goals 2.
    static func minimumSets(_ group: String, _ request: PlanRequest) -> Int {
        guard request.goal == .hypertrophy else { return 2 }
        let minutes = request.minutes ?? 60
        let floor =
            (request.days ?? 3) == 2
            ? (minutes >= 60 ? 6 : minutes >= 45 ? 5 : 3) : (minutes >= 60 ? 10 : minutes >= 45 ? 8 : 5)
        let kinds = request.equipment?.kinds
        if request.avoid.contains("lower back") {
            // Split squats and lunges only, one exercise a day, without a leg-extension machine.
            if group == "quadriceps" && kinds?.contains(.machine) == false { return min(floor, 5) }
            // One supported row with kettlebells (the one-arm row), and nothing to pull down.
            if group == "back" && kinds == [.kettlebells, .bands, .bodyOnly] { return min(floor, 5) }
        }
        return floor
    }

    static func weeklySets(_ plan: RoutinePlan) -> [String: Int] {
        let groups: [String: Set<String>] = [
            "chest": ["chest"], "back": ["lats", "middle back"], "quadriceps": ["quadriceps"],
            "hamstrings": ["hamstrings", "glutes", "lower back"],
            "shoulders": ["shoulders"],
        ]
        return groups.mapValues { muscles in
            plan.templates.flatMap(\.exercises).filter { !muscles.isDisjoint(with: catalog[$0.exerciseId]?.primaryMuscles ?? []) }
                .reduce(0) { $0 + $1.sets.count }
        }
    }

    static func describe(_ request: PlanRequest) -> String {
        "\(request.days ?? 0)d \(request.split?.rawValue ?? "auto") \(request.equipment?.label ?? "-") \(request.goal) "
            + "\(request.minutes ?? 60)min avoid \(request.avoid)"
    }
}
