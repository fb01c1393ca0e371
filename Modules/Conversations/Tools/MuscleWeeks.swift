import Contracts
import Foundation

/// A muscle's or a muscle group's weekly working sets and volume: a catalog muscle ("chest", "middle back") as
/// Analytics keeps it, or a group lifters name ("back", "legs", "arms": `MuscleGroup`) as the sum of its catalog
/// muscles, week by week.
enum MuscleWeeks {
    /// The catalog muscles a name stands for: a group's ("back": lats, middle back, lower back, traps), else the name
    /// itself, lower case.
    static func catalogMuscles(named name: String) -> [String] {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        let group = MuscleGroup(rawValue: key.replacingOccurrences(of: " ", with: "_")) ?? aliases[key]
        return group?.catalogMuscles ?? [key]
    }

    /// Other names of the groups ("quadriceps" is a catalog muscle and stays one).
    static let aliases: [String: MuscleGroup] = [
        "abs": .core, "abdominals": .core, "delts": .shoulders, "leg": .legs, "arm": .arms, "pecs": .chest, "hamstring": .hamstrings,
        "glute": .glutes, "calf": .calves, "quad": .quads, "bicep": .biceps, "tricep": .triceps,
    ]

    /// The weeks of the muscles a name stands for, summed per week, oldest first.
    static func weeks(named name: String, userId: String, weeks: Int, analytics: any TrainingAnalytics) async throws -> [MuscleWeek] {
        var byWeek: [String: MuscleWeek] = [:]
        for muscle in catalogMuscles(named: name) {
            for week in try await analytics.muscleProgress(userId: userId, muscle: muscle, weeks: weeks) {
                var sum = byWeek[week.weekStart] ?? MuscleWeek(weekStart: week.weekStart, sets: 0, volumeKg: 0)
                sum.sets += week.sets
                sum.volumeKg += week.volumeKg
                byWeek[week.weekStart] = sum
            }
        }
        return byWeek.values.sorted { $0.weekStart < $1.weekStart }
    }
}
