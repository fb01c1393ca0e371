import Contracts
import Foundation
import Platform
import TestSupport
import Testing

@testable import Analytics

/// The property that makes the incremental path trustworthy: after any history of completions, edits and
/// deletes (and redeliveries), its rows equal a rebuild's, row for row.
@Suite struct IncrementalEqualsRebuildTests {
    typealias H = AnalyticsHarness

    /// A random workout of the user within the last 30 weeks before the harness's now.
    static func randomWorkout(_ id: String, user: String, using random: inout SeededRandomNumberGenerator) -> CompletedWorkout {
        let start = H.now.addingTimeInterval(-Double(Int.random(in: 0..<(30 * 7 * 24), using: &random)) * 3600)
        let exercises = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            let exercise = H.exercises.randomElement(using: &random)!
            let sets = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                H.PlannedSet(
                    weight: Bool.random(using: &random) || exercise.id != H.pullup.id
                        ? Double(Int.random(in: 0...80, using: &random)) * 2.5 : nil,
                    reps: Int.random(in: 0...12, using: &random),
                    rir: Bool.random(using: &random) ? Int.random(in: 0...4, using: &random) : nil,
                    logged: Int.random(in: 0..<6, using: &random) != 0)
            }
            return (exercise, sets)
        }
        return H.workout(id, user: user, start: start, minutes: Double(Int.random(in: 10...120, using: &random)), exercises)
    }

    @Test(arguments: TestDatabases.engines, [UInt64(1), 2, 3])
    func randomHistoriesEndEqualToARebuild(engine: SQLEngine, seed: UInt64) async throws {
        try await H.with(engine) { h in
            var random = SeededRandomNumberGenerator(seed: seed)
            await h.addUser("u", timeZone: seed == 2 ? "America/Los_Angeles" : "Asia/Kolkata", weekStartsOnMonday: seed != 3)
            await h.addUser("other")
            try await h.complete(H.workout("o1", user: "other", start: H.now, [(H.squat, [.init(weight: 50, reps: 5)])]))
            let bystander = try await h.dump("other")

            var live: [CompletedWorkout] = []
            for step in 0..<40 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5,
                    _ where live.isEmpty:
                    let workout = Self.randomWorkout("w\(step)", user: "u", using: &random)
                    live.append(workout)
                    try await h.complete(workout)
                case 5..<8:
                    let index = Int.random(in: 0..<live.count, using: &random)
                    // An edit may move the workout to another week, too (the refresh follows it there).
                    let edited = Self.randomWorkout(live[index].id, user: "u", using: &random)
                    live[index] = edited
                    try await h.edit(edited)
                case 8:
                    let workout = live.remove(at: Int.random(in: 0..<live.count, using: &random))
                    try await h.delete(workout)
                default:
                    // A redelivered event of any workout, live or deleted.
                    try await h.module.refresh(userId: "u", workoutId: "w\(Int.random(in: 0...step, using: &random))")
                }
                if step % 13 == 12 {
                    let incremental = try await h.dump("u")
                    try await h.module.rebuild(userId: "u")
                    #expect(try await h.dump("u") == incremental, "seed \(seed), step \(step)")
                }
            }
            let incremental = try await h.dump("u")
            try await h.module.rebuild(userId: "u")
            let rebuilt = try await h.dump("u")
            #expect(rebuilt == incremental, "seed \(seed)")
            #expect(!rebuilt.isEmpty)
            #expect(try await h.dump("other") == bystander)
        }
    }
}
