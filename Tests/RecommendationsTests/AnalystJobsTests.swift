import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Recommendations

/// The analyst's jobs: bounded notes on a long history, the scheduler in each user's time zone, the backfill's
/// idempotence, and the retry policy.
@Suite struct AnalystJobsTests {
    typealias H = RecommendationsHarness

    /// Five years of weekly series for many exercises and muscles, and a workout of twelve exercises with long
    /// names that all progress: every note still fits in 2 KB, the progression lines kept first.
    @Test(arguments: TestDatabases.engines)
    func everyNoteStaysUnderTwoKilobytesOnAFiveYearHistory(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("veteran")
            let calendar = CivilCalendar(timeZoneIdentifier: "UTC", weekStartsOnMonday: true)
            let current = calendar.weekStart(ofDay: calendar.dayNumber(of: H.now))
            let weeks = (0..<260).map { CivilCalendar.text(ofDay: current - 7 * (259 - $0)) }
            let names = (0..<12).map { "Exercise number \($0) with a deliberately long descriptive catalog name, medium grip" }
            let muscles = (0..<16).map { "muscle group \($0)" }
            for (index, name) in names.enumerated() {
                await h.analytics.set(
                    userId: "veteran", exerciseId: "Ex_\(index)",
                    weeks: weeks.enumerated().map { week, start in
                        ExerciseWeek(
                            weekStart: start, e1rmKg: 50 + Double(week % 40), topWeightKg: 60, bestSet: .init(weightKg: 60, reps: 5),
                            volumeKg: 3000, sets: 9, reps: 45)
                    })
                _ = name
            }
            await h.analytics.set(
                userId: "veteran",
                stats: weeks.map { start in
                    WeeklyStats(
                        weekStart: start, workouts: 5, sets: 120, reps: 900, volumeKg: 40_000, durationMin: 400,
                        setsByMuscle: Dictionary(uniqueKeysWithValues: muscles.enumerated().map { ($1, Double($0 % 2 == 0 ? 4 : 26)) }))
                })
            await h.analytics.set(
                userId: "veteran",
                context: TrainingContext(
                    weekStart: weeks.last!, workoutsPerWeek: [9, 4, 4, 4, 4],
                    lastWorkouts: (0..<3).map { _ in
                        TrainingContext.RecentWorkout(date: "2026-11-25", sets: 30, volumeKg: 9000, exercises: Array(names.prefix(4)))
                    },
                    muscles: muscles.prefix(8).map { TrainingContext.MuscleLoad(muscle: $0, sets: 30, previousAverage: 10) },
                    lifts: (0..<5).map {
                        TrainingContext.LiftTrend(exerciseId: "Ex_\($0)", name: names[$0], e1rmKg: 140.5, previousE1rmKg: 130.25)
                    }))
            _ = try await h.addRoutine(user: "veteran", weight: 100, sets: 10)
            let end = H.now.addingTimeInterval(-60)
            let workout = CompletedWorkout(
                id: "big", userId: "veteran", name: "A very long workout name for a very long session", sourceTemplateId: nil,
                sourceRoutineId: nil, startTime: end.addingTimeInterval(-7200), endTime: end,
                exercises: names.enumerated().map { index, name in
                    WorkoutExercise(
                        instanceId: "i\(index)", exerciseId: "Ex_\(index)", name: name,
                        sets: (0..<5).map {
                            WorkoutSet(
                                id: "s\($0)", setIndex: $0, targetReps: 5, targetRir: 0, targetWeightKg: 100, weightKg: 100, reps: 5,
                                rir: 4,
                                completedAt: end)
                        })
                },
                analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 60, reps: 300, volume: 30_000), exercises: [], muscles: []),
                createdAt: end, updatedAt: end)
            try await h.complete(workout)
            try await h.module.analyst.writeDailyBrief(.init(userId: "veteran", day: "2026-11-26"))
            try await h.module.analyst.writeWeeklyReview(.init(userId: "veteran", weekStart: weeks[weeks.count - 2]))
            let summary = try await h.module.notes.summary(userId: "veteran", sections: Set(AnalysisSection.allCases), date: nil, limit: 5)
            let notes = summary.insights + [summary.dailyBrief, summary.weeklyReview].compactMap { $0 }
            #expect(notes.count == 3)
            for note in notes {
                let bytes = try JSONCoding.encode(note).count
                #expect(bytes < 2048 && !note.findings.isEmpty, "\(note.section): \(bytes) bytes")
            }
            let insight = try #require(summary.insights.first)
            #expect(insight.findings.first?.contains("ready to progress") == true, "the steps come first")
            #expect(try await h.recommendations("veteran").count == 12, "one exercise-scoped recommendation each (no template source)")
        }
    }

    /// A Tokyo user at 21:00 gets today's brief; a Los Angeles user at 04:00 does not yet; both get the review of the
    /// week just ended; a free user nothing. A second pass queues nothing; the queued jobs write their notes.
    @Test(arguments: TestDatabases.engines)
    func theSchedulerQueuesWhatIsDueInEachUsersTimeZoneOnce(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("tokyo", timeZone: "Asia/Tokyo")
            await h.addUser("la", timeZone: "America/Los_Angeles", weekStartsOnMonday: false)
            await h.addUser("free", premium: false)
            for user in ["tokyo", "la", "free"] {
                await h.log.record(H.workout("w-\(user)", user: user, target: nil, sets: [(50, 5, nil)], daysAgo: 2))
            }
            #expect(try await h.module.schedule() == 3)
            #expect(try await h.jobs.job(id: AnalystJobs.dailyBriefId(userId: "tokyo", day: "2026-11-26")) != nil)
            #expect(try await h.jobs.job(id: AnalystJobs.weeklyReviewId(userId: "tokyo", weekStart: "2026-11-16")) != nil)
            #expect(try await h.jobs.job(id: AnalystJobs.dailyBriefId(userId: "la", day: "2026-11-26")) == nil, "04:00 in Los Angeles")
            #expect(try await h.jobs.job(id: AnalystJobs.weeklyReviewId(userId: "la", weekStart: "2026-11-15")) != nil, "a Sunday week")
            #expect(try await h.module.schedule() == 0, "nothing twice")
            h.clock.advance(by: 3 * 3600)  // 07:00 in Los Angeles
            #expect(try await h.module.schedule() == 1)
            try await h.worker.drain()
            let tokyo = try await h.module.notes.summary(userId: "tokyo", sections: Set(AnalysisSection.allCases), date: nil, limit: 5)
            #expect(tokyo.dailyBrief?.period == "2026-11-26" && tokyo.weeklyReview?.period == "2026-W47")
            #expect(try await h.module.notes.summary(userId: "free", sections: Set(AnalysisSection.allCases), date: nil, limit: 5).isEmpty)
            // The tick queues one pass per slot, whichever replica ticks.
            let firstTick = try await h.module.scheduler.tick()
            let secondTick = try await h.module.scheduler.tick()
            #expect(firstTick && !secondTick)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aBackfillQueuesEachWorkoutAndRecentWeekOnceAndRecommendsOnlyFromTheLastSevenDays(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            // A workout every 4 days over 5 months, each meeting its targets.
            for index in 0..<38 {
                await h.log.record(
                    H.workout("w\(index)", user: "athlete", target: (5, nil, nil), sets: [(100, 5, nil)], daysAgo: Double(index) * 4 + 1))
            }
            let first = try await h.module.backfill(userId: "athlete", months: 3)
            #expect(first.workouts == 23, "the workouts of the last 3 months (91 days)")
            #expect(first.weeks == 4 && first.queued == first.workouts + first.weeks, "the weeks still within the reviews' 30 days")
            let again = try await h.module.backfill(userId: "athlete", months: 3)
            #expect(again.queued == 0 && again.workouts == first.workouts, "a second run queues nothing")
            try await h.worker.drain()
            let insights = try await h.module.notes.summary(userId: "athlete", sections: [.insights], date: nil, limit: 20).insights
            #expect(insights.count == 2, "insights live 7 days from their workout: the ones of 1 and 5 days ago")
            let items = try await h.recommendations("athlete")
            #expect(Set(items.map(\.workoutId)) == ["w0", "w1"], "only workouts of the last 7 days recommend")
            await expectCode(.invalidArgument, "0 months") { _ = try await h.module.backfill(userId: "athlete", months: 0) }
        }
    }

    /// A failing analysis is tried 3 times, 5 then 10 minutes apart, then fails for good.
    @Test(arguments: TestDatabases.engines)
    func aFailingAnalysisIsRetriedTwiceWithBackoffThenFails(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            #expect(h.module.jobDefinitions.allSatisfy { $0.retry == RetryPolicy(base: 300, cap: 1800) })
            try await h.jobs.enqueue(try AnalystJobs.job(postWorkout: .init(userId: "athlete", workoutId: "w1")))
            await h.log.record(H.workout("w1", user: "athlete", target: (5, nil, nil), sets: [(100, 5, nil)]))
            await h.analytics.failNext(userId: "athlete", times: 3)
            try await h.worker.drain()
            var job = try #require(try await h.jobs.job(id: "pw:w1"))
            #expect(job.status == .queued && job.attempts == 1 && job.runAt == h.clock.now().addingTimeInterval(300))
            h.clock.advance(by: 300)
            try await h.worker.drain()
            job = try #require(try await h.jobs.job(id: "pw:w1"))
            #expect(job.status == .queued && job.attempts == 2 && job.runAt == h.clock.now().addingTimeInterval(600))
            h.clock.advance(by: 600)
            try await h.worker.drain()
            job = try #require(try await h.jobs.job(id: "pw:w1"))
            #expect(job.status == .failed && job.attempts == 3)
        }
    }

    /// A worker that died holding an analysis (its lease never renewed): once the lease has expired, the next
    /// worker's watchdog queues the job again and it runs to the end, once.
    @Test(arguments: TestDatabases.engines)
    func aJobWhoseWorkerDiedIsRecoveredByTheWatchdog(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            await h.log.record(H.workout("w1", user: "athlete", target: (5, nil, nil), sets: [(100, 5, nil)]))
            try await h.jobs.enqueue(try AnalystJobs.job(postWorkout: .init(userId: "athlete", workoutId: "w1")))
            let held = try #require(try await h.jobs.claim(worker: "killed-worker", kinds: [AnalystJobs.postWorkout], lease: 120))
            #expect(held.id == "pw:w1")
            try await h.worker.drain()
            #expect(try await h.jobs.job(id: "pw:w1")?.status == .leased, "the lease still holds")
            h.clock.advance(by: 121)
            try await h.worker.drain()
            let job = try #require(try await h.jobs.job(id: "pw:w1"))
            #expect(job.status == .done && job.attempts == 2, "re-queued by the watchdog, run by the live worker")
            #expect(try await h.recommendations("athlete").count == 1)
            #expect(try await h.jobs.complete(held) == false, "the dead worker's late completion changes nothing")
        }
    }
}
