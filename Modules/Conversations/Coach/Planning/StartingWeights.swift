import Contracts
import Logging

/// The weight each planned set of a proposal starts at (docs/recommendations.md "Starting weights"), whoever drafted
/// it (the planner or a model): weights are the server's, never a model's.
///
/// - A bodyweight exercise (`LiftVariant.isWeighted`) gets none.
/// - In a template change, an exercise the template already has keeps its weights: each set takes the template's set
///   at its index (or its last), brought to the set's reps and RIR when those changed.
/// - Otherwise the user's best e1RM of the last 12 weeks for the exercise, or 90 % of a close variant's
///   (`LiftVariant`), brought to the set's target reps and RIR (`StrengthEstimate`; RIR 2 when none is planned),
///   rounded to the plate grid of the user's unit.
/// - With neither, no weight: the first session calibrates, and the analyst sets the template's weights from what
///   was logged.
struct StartingWeights: Sendable {
    /// The weeks of history a starting weight is read from.
    static let historyWeeks = 12
    /// What a close variant's e1RM counts for.
    static let variantShare = 0.9
    /// The RIR a set without one is planned at.
    static let defaultRir = StrengthEstimate.assumedRir

    let unit: WeightUnit
    /// The user's best e1RM by exercise.
    let bests: [String: Double]
    /// The catalog facts of the exercises the user has a best for (for variants).
    let trained: [Exercise]
    let catalog: any ExerciseCatalog

    /// The user's bests, read through Analytics. Best effort: a proposal is still made when they cannot be read (its
    /// sets then calibrate), and the failure is logged.
    static func load(
        userId: String, analytics: any TrainingAnalytics, catalog: any ExerciseCatalog, unit: WeightUnit, logger: Logger
    ) async throws -> StartingWeights {
        var bests: [String: Double] = [:]
        do {
            for best in try await analytics.exerciseBests(userId: userId, weeks: historyWeeks) where best.e1rmKg > 0 {
                bests[best.exerciseId] = best.e1rmKg
            }
        } catch {
            logger.warning("training history not read for starting weights", metadata: ["error": .string("\(error)")])
        }
        var trained: [Exercise] = []
        for id in bests.keys.sorted() {
            if let exercise = try await catalog.exercise(id: id) { trained.append(exercise) }
        }
        return StartingWeights(unit: unit, bests: bests, trained: trained, catalog: catalog)
    }

    /// The routine with every set's starting weight.
    func weighed(_ plan: RoutinePlan) async throws -> RoutinePlan {
        var plan = plan
        for index in plan.templates.indices {
            plan.templates[index].exercises = try await weighed(plan.templates[index].exercises)
        }
        return plan
    }

    /// The exercises with every set's starting weight; those `template` already has keep its weights.
    func weighed(_ exercises: [PlannedExercise], keeping template: [TemplateExercise] = []) async throws -> [PlannedExercise] {
        var result: [PlannedExercise] = []
        for exercise in exercises {
            let facts = try await catalog.exercise(id: exercise.exerciseId)
            var weighed = exercise
            let kept = template.first { $0.exerciseId == exercise.exerciseId }?.sets ?? []
            let e1rm = facts.flatMap(e1rm(of:))
            for index in weighed.sets.indices {
                let set = weighed.sets[index]
                guard let facts, LiftVariant.isWeighted(facts) else {
                    weighed.sets[index].targetWeightKg = nil
                    continue
                }
                if let reference = kept.indices.contains(index) ? kept[index] : kept.last, let weight = reference.targetWeightKg {
                    weighed.sets[index].targetWeightKg = Self.carried(weight, from: reference, to: set, unit: unit)
                } else {
                    weighed.sets[index].targetWeightKg = e1rm.flatMap { weight(for: set, e1rm: $0) }
                }
            }
            result.append(weighed)
        }
        return result
    }

    /// The best e1RM the exercise starts from: its own, or a share of its closest variant's; nil with neither.
    func e1rm(of exercise: Exercise) -> Double? {
        if let own = bests[exercise.id] { return own }
        let variants = trained.filter { LiftVariant.areClose($0, exercise) }.compactMap { bests[$0.id] }
        return variants.max().map { $0 * Self.variantShare }
    }

    /// The set's weight from an e1RM, on the plate grid; nil without target reps, or past what a plan may hold.
    func weight(for set: TemplateSet, e1rm: Double) -> Double? {
        guard let reps = set.targetReps else { return nil }
        let raw = StrengthEstimate.weight(e1rmKg: e1rm, reps: reps, rir: set.targetRir ?? Self.defaultRir)
        return unit.plateWeight(nearestKilograms: raw).flatMap { $0 <= 500 ? $0 : nil }
    }

    /// A template's planned weight for a set that may now have other reps or RIR: the same weight for the same
    /// targets, else the weight the same e1RM gives for the new ones, on the plate grid.
    static func carried(_ weight: Double, from reference: TemplateSet, to set: TemplateSet, unit: WeightUnit) -> Double? {
        guard let reps = set.targetReps, let referenceReps = reference.targetReps,
            reps != referenceReps || (set.targetRir ?? defaultRir) != (reference.targetRir ?? defaultRir)
        else { return weight }
        let e1rm = StrengthEstimate.e1rm(weightKg: weight, reps: referenceReps, rir: reference.targetRir ?? defaultRir)
        let raw = StrengthEstimate.weight(e1rmKg: e1rm, reps: reps, rir: set.targetRir ?? defaultRir)
        return unit.plateWeight(nearestKilograms: raw).flatMap { $0 <= 500 ? $0 : nil }
    }
}
