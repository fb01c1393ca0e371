import Contracts
import Fakes
import TestSupport
import Testing
import Workouts

@testable import Conversations

/// The rule-based coach's routines, on the real catalog: every request of the grid (days × split × equipment ×
/// goal) and many seeded random ones must give a routine a coach would sign: exercises that exist, equipment the
/// user has, days that train what their names say, sane weekly volume, the goal's reps and effort.
@Suite struct RoutinePlannerTests {
    static let exercises = try! CatalogImport.bundled()
    static let catalog = Dictionary(uniqueKeysWithValues: exercises.map { ($0.id, $0) })
    static let planner = RoutinePlanner(catalog: MemoizingCatalog(FakeExerciseCatalog(exercises)))

    static let equipmentSets: [EquipmentSet] = [
        .fullGym, EquipmentSet([.dumbbell]), EquipmentSet([.barbell]), EquipmentSet([.barbell, .dumbbell]), EquipmentSet([.kettlebells]),
        EquipmentSet([.bands]), .bodyOnly, EquipmentSet([.cable, .machine]), EquipmentSet([.dumbbell, .bands]),
    ]
    static let splits: [PlanRequest.Split?] = [nil] + PlanRequest.Split.allCases

    // MARK: Examples

    @Test func plansTheUpperLowerItWasAskedFor() async throws {
        let request = RuleBasedCoach.request(of: MessageUnderstanding.read("build me a 4-day upper/lower with dumbbells"))
        let plan = try await Self.planner.plan(request)
        #expect(plan.name == "4-day Upper/Lower (dumbbells)")
        #expect(plan.frequency == 4)
        #expect(plan.templates.map(\.name) == ["Upper A", "Lower A", "Upper B", "Lower B"])
        #expect(plan.description?.contains("8–12 reps") == true)
        #expect(Self.problems(plan, request).isEmpty)
    }

    @Test func choosesTheSplitFromTheDays() async throws {
        let expected: [(days: Int, name: String, sessions: [String])] = [
            (1, "1-day Full Body (full gym)", ["Full Body"]),
            (3, "3-day Full Body (full gym)", ["Full Body A", "Full Body B", "Full Body C"]),
            (4, "4-day Upper/Lower (full gym)", ["Upper A", "Lower A", "Upper B", "Lower B"]),
            (5, "5-day Upper/Lower/Push/Pull/Legs (full gym)", ["Upper", "Lower", "Push", "Pull", "Legs"]),
            (6, "6-day Push/Pull/Legs (full gym)", ["Push A", "Pull A", "Legs A", "Push B", "Pull B", "Legs B"]),
        ]
        for (days, name, sessions) in expected {
            let plan = try await Self.planner.plan(PlanRequest(days: days, equipment: .fullGym))
            #expect(plan.name == name)
            #expect(plan.templates.map(\.name) == sessions)
        }
    }

    @Test func keepsTheNamedSplitWhenTheWeekHasRoomForIt() async throws {
        let bro = try await Self.planner.plan(PlanRequest(days: 5, split: .bodyPart, equipment: .fullGym))
        #expect(bro.templates.map(\.name) == ["Chest", "Back", "Legs", "Shoulders", "Arms"])
        let fullBody = try await Self.planner.plan(PlanRequest(days: 5, split: .fullBody, equipment: .fullGym))
        #expect(fullBody.templates.map(\.name) == ["Full Body A", "Full Body B", "Full Body C", "Full Body D", "Full Body E"])
        let implied = try await Self.planner.plan(PlanRequest(split: .pushPullLegs, equipment: .fullGym))
        #expect(implied.templates.map(\.name) == ["Push", "Pull", "Legs"])
    }

    @Test func aSplitTooBigForTheWeekBecomesOneThatTrainsEverything() async throws {
        let plan = try await Self.planner.plan(PlanRequest(days: 2, split: .pushPullLegs, equipment: .fullGym))
        #expect(plan.name == "2-day Full Body (full gym)")
        #expect(plan.templates.map(\.name) == ["Full Body A", "Full Body B"])
        #expect(plan.description?.contains("Push/Pull/Legs needs at least 3 days a week") == true)
    }

    @Test func aFullGymUpperDayLeadsWithTheBenchPress() async throws {
        let plan = try await Self.planner.plan(PlanRequest(days: 4, equipment: .fullGym))
        #expect(plan.templates[0].exercises.first?.exerciseId == "Barbell_Bench_Press_-_Medium_Grip")
        #expect(plan.templates[1].exercises.first?.exerciseId == "Barbell_Squat")
        #expect(plan.templates[0].exercises != plan.templates[2].exercises)
        #expect(plan.templates[1].exercises != plan.templates[3].exercises)
    }

    /// 45 minutes holds three to five exercises of heavy sets with their long rests, four to six of moderate or light
    /// ones, and never more minutes than that.
    @Test func fortyFiveMinutesHoldsWhatTheGoalsRestsAllow() async throws {
        for goal in PlanRequest.Goal.allCases {
            for days in 1...4 {
                let plan = try await Self.planner.plan(PlanRequest(days: days, equipment: .fullGym, goal: goal, minutes: 45))
                for template in plan.templates {
                    let exercises = goal == .strength ? 3...5 : 4...6
                    #expect(exercises.contains(template.exercises.count), "\(goal) \(days) days: \(template.name)")
                    #expect(
                        SessionDurationEstimate.minutes(template.exercises.flatMap(\.sets)) <= 45, "\(goal) \(days) days: \(template.name)")
                }
            }
        }
    }

    /// A full-body day short of time keeps its lower-body lift, its push and its pull, with two sets each.
    @Test func aShortFullBodySessionStillTrainsLegsPushAndPull() async throws {
        let plan = try await Self.planner.plan(PlanRequest(days: 3, equipment: .fullGym, minutes: 15))
        for template in plan.templates {
            #expect(template.exercises.count == 3, "\(template.name)")
            #expect(template.exercises.allSatisfy { $0.sets.count == 2 }, "\(template.name)")
            let muscles = template.exercises.compactMap { Self.catalog[$0.exerciseId]?.primaryMuscles.first }
            #expect(muscles.contains { ["lats", "middle back"].contains($0) }, "\(template.name): \(muscles)")
        }
    }

    /// The planner's gaps issue 50 found, each now closed.
    @Test func theGapsOfIssue50AreClosed() async throws {
        // A 4-day upper/lower with a full gym: ten sets of chest a week or more, not seven.
        let upperLower = try await Self.planner.plan(PlanRequest(days: 4, equipment: .fullGym, minutes: 60))
        #expect((10...20).contains(RoutinePlannerPropertyTests.weeklySets(upperLower)["chest"] ?? 0))
        // A 3-day full body at 20 minutes pulls every day.
        let short = try await Self.planner.plan(PlanRequest(days: 3, equipment: .fullGym, minutes: 20))
        for template in short.templates {
            #expect(template.exercises.contains { Self.catalog[$0.exerciseId].map(RoutinePlannerPropertyTests.isPull) == true })
        }
        // "Avoid knees": no back squats or leg press; "avoid lower back": no bent-over rows or deadlifts.
        let knees = try await Self.planner.plan(PlanRequest(days: 4, equipment: .fullGym, avoid: ["knees"]))
        let kneeIds = Set(knees.templates.flatMap(\.exercises).map(\.exerciseId))
        #expect(kneeIds.isDisjoint(with: ["Barbell_Squat", "Leg_Press", "Hack_Squat"]), "\(kneeIds)")
        let back = try await Self.planner.plan(PlanRequest(days: 4, equipment: .fullGym, avoid: ["lower back"]))
        let backIds = Set(back.templates.flatMap(\.exercises).map(\.exerciseId))
        #expect(backIds.isDisjoint(with: ["Bent_Over_Barbell_Row", "Barbell_Deadlift", "Romanian_Deadlift"]), "\(backIds)")
        #expect(backIds.contains("Seated_Cable_Rows"), "a supported row keeps the back trained: \(backIds)")
        // At home: no pull-ups without a bar, no expert hanging leg raise, bodyweight squats by reps with no RIR.
        let home = try await Self.planner.plan(PlanRequest(days: 3, equipment: .bodyOnly))
        let homeSets = home.templates.flatMap(\.exercises)
        #expect(Set(homeSets.map(\.exerciseId)).isDisjoint(with: ["Pullups", "Chin-Up", "Hanging_Leg_Raise", "Inverted_Row"]))
        #expect(
            homeSets.first { $0.exerciseId == "Bodyweight_Squat" }?.sets.allSatisfy { $0.targetRir == nil && $0.targetReps != nil } == true)
        let bar = try await Self.planner.plan(PlanRequest(days: 3, equipment: EquipmentSet([], pullUpBar: true)))
        #expect(bar.name == "3-day Full Body (pull-up bar)")
        #expect(bar.templates.allSatisfy { $0.exercises.contains { ["Pullups", "Chin-Up", "Inverted_Row"].contains($0.exerciseId) } })
        // An hour of strength is not 22 sets: heavy sets rest 3 minutes.
        let strength = try await Self.planner.plan(PlanRequest(days: 3, equipment: .fullGym, goal: .strength, minutes: 60))
        // The day's hinge stays, though the catalog files the deadlift under the lower back, not a major group.
        #expect(strength.templates[1].exercises.first?.exerciseId == "Barbell_Deadlift")
        for template in strength.templates {
            #expect(template.exercises.reduce(0) { $0 + $1.sets.count } <= 18, "\(template.name)")
            #expect(SessionDurationEstimate.minutes(template.exercises.flatMap(\.sets)) <= 60, "\(template.name)")
        }
    }

    @Test func sparesTheKneesAndTheLowerBack() async throws {
        let knees = Set(MovementSlot.singleLeg.candidateIds + MovementSlot.legExtension.candidateIds)
        let hinges = Set(MovementSlot.hinge.candidateIds).subtracting(MovementSlot.glutes.candidateIds)
        for days in 1...7 {
            let plan = try await Self.planner.plan(PlanRequest(days: days, equipment: .fullGym, avoid: ["knees", "lower back"]))
            let ids = Set(plan.templates.flatMap(\.exercises).map(\.exerciseId))
            #expect(ids.isDisjoint(with: knees), "\(days) days")
            #expect(ids.isDisjoint(with: hinges), "\(days) days")
            #expect(plan.description?.contains("Spares your knees and lower back") == true)
        }
    }

    @Test func planningTwiceGivesTheSameRoutine() async throws {
        for days in 1...7 {
            let request = PlanRequest(days: days, equipment: EquipmentSet([.dumbbell, .bands]), goal: .strength, minutes: 50)
            let first = try await Self.planner.plan(request)
            let second = try await Self.planner.plan(request)
            #expect(first == second)
        }
    }

    @Test func refusesToPlanWithoutDaysOrEquipment() async throws {
        await #expect(throws: ServiceError.invalidArgument(field: "days", reason: "must be from 1 to 7")) {
            try await Self.planner.plan(PlanRequest(equipment: .fullGym))
        }
        await #expect(throws: ServiceError.invalidArgument(field: "days", reason: "must be from 1 to 7")) {
            try await Self.planner.plan(PlanRequest(days: 8, equipment: .fullGym))
        }
        await #expect(throws: ServiceError.invalidArgument(field: "equipment", reason: "is required")) {
            try await Self.planner.plan(PlanRequest(days: 3))
        }
    }

    // MARK: The curated table

    @Test func everyCuratedExerciseExistsAndTrainsItsSlot() {
        for slot in MovementSlot.allCases {
            #expect(!slot.candidateIds.isEmpty)
            #expect(Set(slot.candidateIds).count == slot.candidateIds.count, "\(slot) lists an id twice")
            for id in slot.candidateIds {
                let exercise = Self.catalog[id]
                #expect(exercise != nil, "\(slot): \(id) is not in the catalog")
                #expect(
                    exercise.map { slot.muscles.contains($0.primaryMuscles[0]) } ?? true,
                    "\(slot): \(id) trains \(exercise?.primaryMuscles ?? [])")
            }
        }
    }

    @Test(arguments: [
        EquipmentSet.fullGym, EquipmentSet([.dumbbell]), EquipmentSet([.barbell, .dumbbell]), EquipmentSet([.cable, .machine]),
    ])
    func aCatalogWithoutTheCuratedExercisesStillGivesARoutine(equipment: EquipmentSet) async throws {
        let curated = Set(MovementSlot.allCases.flatMap(\.candidateIds))
        let planner = RoutinePlanner(catalog: MemoizingCatalog(FakeExerciseCatalog(Self.exercises.filter { !curated.contains($0.id) })))
        for days in [2, 3, 4, 6] {
            let request = PlanRequest(days: days, equipment: equipment)
            let plan = try await planner.plan(request)
            #expect(plan.templates.allSatisfy { $0.exercises.count >= 2 }, "\(days) days")
            #expect(plan.templates.flatMap(\.exercises).allSatisfy { !curated.contains($0.exerciseId) })
            #expect(Self.problems(plan, request).isEmpty, "\(Self.problems(plan, request))")
        }
    }

    // MARK: Properties

    /// Every days × split × equipment × goal: each routine holds up (see `problems`), and a full gym's week of
    /// three days or more gives each major muscle group 4 to 25 working sets (about 10 to 20 is the aim; a group
    /// trained in one session a week gets its 4 or more, and seven full-body days may pass 20 a little).
    @Test(arguments: RoutinePlannerTests.splits)
    func everyRequestOfTheGridGivesASoundRoutine(split: PlanRequest.Split?) async throws {
        for days in 1...7 {
            for equipment in Self.equipmentSets {
                for goal in PlanRequest.Goal.allCases {
                    let request = PlanRequest(days: days, split: split, equipment: equipment, goal: goal)
                    let plan = try await Self.planner.plan(request)
                    let problems = Self.problems(plan, request)
                    #expect(problems.isEmpty, "\(request): \(problems)")
                    if equipment.isFullGym && days >= 3 {
                        for (group, sets) in Self.weeklySets(plan) {
                            #expect((4...25).contains(sets), "\(request): \(group) has \(sets) sets a week")
                        }
                    }
                }
            }
        }
    }

    /// Seeded random requests with session lengths and areas to spare: the same checks, and routines the plan
    /// library accepts whose templates' estimated durations fit the minutes asked for (an hour when none; from 30
    /// minutes, as a full-body day's three lifts of two heavy sets take 26).
    @Test func randomRequestsGiveSoundRoutines() async throws {
        let library = FakePlanLibrary(catalog: Self.exercises, clock: FakeWallClock(), ids: SequentialIDGenerator())
        var random = SeededRandomNumberGenerator(seed: 0x5EED_C0AC)
        let kinds = EquipmentSet.Kind.allCases
        for _ in 0..<400 {
            let equipment =
                Int.random(in: 0..<4, using: &random) == 0
                ? EquipmentSet.fullGym : EquipmentSet(Set(kinds.filter { _ in Bool.random(using: &random) }))
            let request = PlanRequest(
                days: Int.random(in: 1...7, using: &random), split: Self.splits.randomElement(using: &random)!, equipment: equipment,
                goal: PlanRequest.Goal.allCases.randomElement(using: &random)!,
                minutes: [nil, 25, 30, 40, 45, 60, 75, 90, 120].randomElement(using: &random)!,
                avoid: ["knees", "lower back", "shoulders"].filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
            let plan = try await Self.planner.plan(request)
            let problems = Self.problems(plan, request)
            #expect(problems.isEmpty, "\(request): \(problems)")
            let created = try await library.createRoutine(userId: "athlete", plan: plan)
            for template in created.templates {
                if (request.minutes ?? 60) >= 30 {
                    #expect(template.analytics.estimatedDurationMinutes <= request.minutes ?? 60, "\(request): \(template.name)")
                }
            }
        }
    }

    // MARK: Checks

    /// Primary muscles a session must not train, by its name without the A/B letter.
    static let legs: Set<String> = ["quadriceps", "hamstrings", "calves", "glutes", "adductors", "abductors"]
    static let forbidden: [String: Set<String>] = [
        "Full Body": [],
        "Upper": legs,
        "Lower": ["chest", "lats", "middle back", "shoulders", "biceps", "triceps", "traps"],
        "Legs": ["chest", "lats", "middle back", "shoulders", "biceps", "triceps", "traps"],
        "Push": legs.union(["lats", "middle back", "biceps"]),
        "Pull": legs.union(["chest", "triceps"]),
        "Chest": legs.union(["lats", "middle back", "biceps"]),
        "Back": legs.union(["chest", "triceps"]),
        "Shoulders": legs.union(["lats", "middle back", "biceps"]),
        "Arms": legs.union(["chest", "lats", "middle back", "shoulders"]),
        "Chest & Back": legs,
        "Shoulders & Arms": legs.union(["lats", "middle back"]),
        "Chest & Triceps": legs.union(["lats", "middle back", "biceps"]),
        "Back & Biceps": legs.union(["chest", "triceps"]),
    ]

    /// Sets, reps and reps in reserve each goal allows: two sets when a short session keeps its first lifts, five when
    /// the week's volume adds to an exercise; a strength routine's accessories at 8 reps.
    static let dose: [PlanRequest.Goal: (sets: ClosedRange<Int>, reps: ClosedRange<Int>, rir: ClosedRange<Int>)] = [
        .strength: (2...5, 3...8, 2...2), .hypertrophy: (2...5, 8...12, 1...2), .endurance: (2...5, 12...20, 1...2),
        .general: (2...5, 8...12, 2...3),
    ]

    /// What is wrong with the routine planned for the request; empty when nothing is.
    static func problems(_ plan: RoutinePlan, _ request: PlanRequest) -> [String] {
        var problems: [String] = []
        let days = request.days ?? request.split?.impliedDays
        if plan.templates.count != days { problems.append("\(plan.templates.count) sessions for \(days ?? 0) days") }
        if plan.frequency != days { problems.append("frequency \(plan.frequency ?? 0)") }
        if plan.name.isEmpty || plan.name.count > 100 { problems.append("name \(plan.name)") }
        let dose = Self.dose[request.goal]!
        for template in plan.templates {
            var base = template.name.split(separator: " ")
            if let last = base.last, last.count == 1, base.count > 1 { base.removeLast() }
            guard let forbidden = forbidden[base.joined(separator: " ")] else {
                problems.append("unknown session name \(template.name)")
                continue
            }
            if template.exercises.isEmpty { problems.append("\(template.name) is empty") }
            let ids = template.exercises.map(\.exerciseId)
            if Set(ids).count != ids.count { problems.append("\(template.name) repeats an exercise: \(ids)") }
            for planned in template.exercises {
                guard let exercise = catalog[planned.exerciseId] else {
                    problems.append("\(planned.exerciseId) is not in the catalog")
                    continue
                }
                if !allows(request.equipment!, exercise.equipment) {
                    problems.append("\(template.name): \(exercise.id) needs \(exercise.equipment ?? "nothing")")
                }
                if let muscle = exercise.primaryMuscles.first(where: forbidden.contains) {
                    problems.append("\(template.name): \(exercise.id) trains \(muscle)")
                }
                if !dose.sets.contains(planned.sets.count) { problems.append("\(exercise.id): \(planned.sets.count) sets") }
                // A move with nothing to load is planned by reps alone; every other with the goal's reps in reserve.
                let rirFits = { (rir: Int?) in rir.map(dose.rir.contains) ?? !LiftVariant.isWeighted(exercise) }
                for set in planned.sets {
                    if !dose.reps.contains(set.targetReps ?? 0) || !rirFits(set.targetRir) || set.targetWeightKg != nil {
                        problems.append("\(exercise.id): \(set)")
                    }
                }
            }
        }
        return problems
    }

    /// Whether a user with this equipment can do an exercise needing that catalog equipment (none is bodyweight).
    static func allows(_ equipment: EquipmentSet, _ needed: String?) -> Bool {
        guard let kinds = equipment.kinds else { return true }
        return kinds.map(\.rawValue).contains(needed ?? "body only")
    }

    /// Working sets a week per major muscle group, counting an exercise's sets for each group one of its primary
    /// muscles is in.
    static func weeklySets(_ plan: RoutinePlan) -> [String: Int] {
        let groups: [String: Set<String>] = [
            "chest": ["chest"], "back": ["lats", "middle back"], "quadriceps": ["quadriceps"], "hamstrings": ["hamstrings"],
            "shoulders": ["shoulders"],
        ]
        return groups.mapValues { muscles in
            plan.templates.flatMap(\.exercises).filter { !muscles.isDisjoint(with: catalog[$0.exerciseId]?.primaryMuscles ?? []) }
                .reduce(0) { $0 + $1.sets.count }
        }
    }
}
