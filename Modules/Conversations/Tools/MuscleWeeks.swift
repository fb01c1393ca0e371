import Contracts

/// A muscle's or a muscle group's weekly working sets and volume: a catalog muscle ("chest", "middle back") as
/// Analytics keeps it, or a group lifters name ("back", "legs", "arms": `MuscleGroups`) as the sum of its catalog
/// muscles, week by week, asked muscle by muscle.
enum MuscleWeeks {
    /// The weeks of the muscles a name stands for, summed per week, oldest first.
    static func weeks(named name: String, userId: String, weeks: Int, analytics: any TrainingAnalytics) async throws -> [MuscleWeek] {
        var byWeek: [String: MuscleWeek] = [:]
        for muscle in MuscleGroups.muscles(for: name) {
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
