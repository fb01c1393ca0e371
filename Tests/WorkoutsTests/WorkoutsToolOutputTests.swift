import Contracts
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing
import Workouts

@testable import WorkoutsTool

/// `povver-workouts` prints a user's names through `TerminalText`: a workout named with escape sequences cannot act
/// on the operator's terminal, nor start a line of its own.
@Suite struct WorkoutsToolOutputTests {
    @Test func historyPrintsAHostileNameEscaped() async throws {
        try await WorkoutsToolTests().withTool { tool, _ in
            let end = Date(timeIntervalSince1970: 1_767_225_600)
            let workout = CompletedWorkout(
                id: "w1", userId: "u1", name: "Legs\u{1B}]0;owned\u{07}\nw9  2026-01-01  forged", sourceTemplateId: nil,
                sourceRoutineId: nil, startTime: end, endTime: end, exercises: [],
                analytics: WorkoutAnalytics(totals: WorkoutTotals(), exercises: [], muscles: []), createdAt: end, updatedAt: end)
            try await tool.database.sql.raw(
                """
                INSERT INTO workouts_history (id, user_id, end_time, document, created_at, updated_at)
                VALUES ('w1', 'u1', \(bind: end.millisecondsSince1970), \(bind: try JSONCoding.store(workout)), 0, 0)
                """
            ).run()
            let history = try await tool.history(userId: "u1", limit: 5)
            #expect(!history.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(history)")
            #expect(history.contains(#"Legs\u{1B}]0;owned\u{07}\nw9  2026-01-01  forged"#))
            #expect(history.split(separator: "\n").count == 2, "the header and one workout")
        }
    }
}
