import Foundation
import TestSupport
import Testing

@testable import Workouts

/// Completions and their deletions on the cursor value, over random routines and histories (a fixed seed per
/// test, so every run checks the same cases): a completion of the next template moves the cursor one slot on,
/// and deleting completions newest first walks it back through every state it passed.
@Suite struct RoutineCursorStepsTests {
    static let cases = 400

    /// A list of 1 to 6 templates drawn from a, b and c (so most list some template more than once).
    static func repeatingList(_ random: inout SeededRandomNumberGenerator) -> [String] {
        (0..<Int.random(in: 1...6, using: &random)).map { _ in ["a", "b", "c"].randomElement(using: &random)! }
    }

    /// A list of 1 to 6 distinct templates.
    static func distinctList(_ random: inout SeededRandomNumberGenerator) -> [String] {
        (0..<Int.random(in: 1...6, using: &random)).map { "t\($0)" }
    }

    /// What a user sees of a cursor: the slot next, and the last completion.
    struct Seen: Equatable {
        var next: Int?
        var last: String?
        var lastAt: Date?

        init(_ cursor: RoutineCursor) {
            (next, last, lastAt) = (cursor.nextIndex, cursor.lastCompletedTemplateId, cursor.lastCompletedAt)
        }
    }

    /// Completes the next template `count` times, a minute apart; answers the workout ids, oldest first.
    static func complete(_ cursor: inout RoutineCursor, times count: Int, from start: Int = 0) -> [String] {
        (0..<count).map { index in
            let workoutId = "w\(start + index)"
            let template = cursor.templateIds[cursor.nextIndex!]
            let moved = cursor.advance(
                workoutId: workoutId, templateId: template, completedAt: Date(timeIntervalSince1970: Double(start + index + 1) * 60))
            #expect(moved)
            return workoutId
        }
    }

    @Test func completingTheNextTemplateMovesOneSlotOn() {
        var random = SeededRandomNumberGenerator(seed: 1)
        for _ in 0..<Self.cases {
            let ids = Self.repeatingList(&random)
            var cursor = RoutineCursor(templateIds: ids)
            for done in 1...Int.random(in: 1...50, using: &random) {
                _ = Self.complete(&cursor, times: 1, from: done)
                #expect(cursor.nextIndex == done % ids.count, "\(ids) after \(done) completions")
                #expect((cursor.recent?.count ?? 0) == min(done, RoutineCursor.recentLimit))
            }
        }
    }

    @Test func deletingCompletionsNewestFirstWalksBackThroughEveryState() {
        var random = SeededRandomNumberGenerator(seed: 2)
        for _ in 0..<Self.cases {
            let ids = Self.repeatingList(&random)
            var cursor = RoutineCursor(templateIds: ids)
            var states: [Seen] = []
            var workouts: [String] = []
            for index in 0..<Int.random(in: 1...RoutineCursor.recentLimit, using: &random) {
                states.append(Seen(cursor))
                workouts += Self.complete(&cursor, times: 1, from: index)
            }
            for (workout, before) in zip(workouts, states).reversed() {
                guard case .newest(let step) = cursor.forget(workoutId: workout) else {
                    Issue.record("\(ids): \(workout) is not the newest")
                    return
                }
                cursor.stepBack(from: step)
                #expect(Seen(cursor) == before, "\(ids): deleting \(workout)")
            }
            #expect(Seen(cursor) == Seen(RoutineCursor(templateIds: ids)), "\(ids): started over")
        }
    }

    /// Older completions deleted first are only forgotten (the cursor stays); stepping back later lands on the
    /// newest completion still there.
    @Test func deletingOlderCompletionsLeavesTheCursorAndIsPassedOver() {
        var random = SeededRandomNumberGenerator(seed: 3)
        for _ in 0..<Self.cases {
            let ids = Self.repeatingList(&random)
            var cursor = RoutineCursor(templateIds: ids)
            var states: [Seen] = []
            var workouts: [String] = []
            for index in 0..<Int.random(in: 2...12, using: &random) {
                states.append(Seen(cursor))
                workouts += Self.complete(&cursor, times: 1, from: index)
            }
            let newest = workouts.count - 1
            let deleted = Set((0..<newest).filter { _ in Bool.random(using: &random) })
            let seen = Seen(cursor)
            for index in deleted.sorted() {
                #expect(cursor.forget(workoutId: workouts[index]) == .older)
                #expect(cursor.forget(workoutId: workouts[index]) == .nothing, "forgotten once")
                #expect(Seen(cursor) == seen)
            }
            guard case .newest(let step) = cursor.forget(workoutId: workouts[newest]) else {
                Issue.record("\(ids): the newest is not newest")
                return
            }
            cursor.stepBack(from: step)
            // The slot of the deleted completion is next again, and the last is the newest completion left; with
            // none left the routine starts over.
            let left = (0..<newest).last { !deleted.contains($0) }
            #expect(cursor.nextIndex == (left == nil ? 0 : states[newest].next), "\(ids), deleted \(deleted.sorted())")
            #expect(
                cursor.lastCompletedAt == left.map { Date(timeIntervalSince1970: Double($0 + 1) * 60) },
                "\(ids), deleted \(deleted.sorted())")
        }
    }

    /// A completion no newer than the last one recorded moves nothing.
    @Test func anOlderCompletionNeverMovesTheCursorBack() {
        var random = SeededRandomNumberGenerator(seed: 4)
        for _ in 0..<Self.cases {
            let ids = Self.repeatingList(&random)
            var cursor = RoutineCursor(templateIds: ids)
            _ = Self.complete(&cursor, times: Int.random(in: 1...8, using: &random))
            let before = cursor
            let late = cursor.lastCompletedAt!.addingTimeInterval(-Double(Int.random(in: 0...600, using: &random)))
            let moved = cursor.advance(workoutId: "late", templateId: ids.randomElement(using: &random)!, completedAt: late)
            #expect(!moved)
            #expect(cursor == before)
        }
    }

    /// The slot a completion was done in moves with the list: after any reorder, stepping back makes that
    /// template next again, wherever it now stands (with no completion before it, the routine starts over at its
    /// first template instead).
    @Test func steppingBackAfterAReorderReturnsToTheSlotDone() {
        var random = SeededRandomNumberGenerator(seed: 5)
        for _ in 0..<Self.cases {
            let ids = Self.distinctList(&random)
            var cursor = RoutineCursor(templateIds: ids)
            let workouts = Self.complete(&cursor, times: Int.random(in: 1...10, using: &random))
            let startsOver = workouts.count == 1
            let done = cursor.lastCompletedTemplateId!
            let reordered = ids.shuffled(using: &random)
            cursor.replaceTemplates(with: reordered)
            #expect(
                cursor.templateIds[cursor.nextIndex!] == reordered[(reordered.firstIndex(of: done)! + 1) % ids.count],
                "\(ids) → \(reordered)")
            guard case .newest(let step) = cursor.forget(workoutId: workouts.last!) else {
                Issue.record("\(ids): the newest is not newest")
                return
            }
            cursor.stepBack(from: step)
            #expect(cursor.templateIds[cursor.nextIndex!] == (startsOver ? reordered[0] : done), "\(ids) → \(reordered)")
        }
    }

    /// A workout whose template left the routine while it ran was done in the slot the cursor pointed at: once
    /// it completes, the template that took that slot is next.
    @Test func aCompletionOfARemovedTemplateHandsItsSlotOn() {
        var random = SeededRandomNumberGenerator(seed: 6)
        for _ in 0..<Self.cases {
            let ids = Self.distinctList(&random)
            guard ids.count > 1 else { continue }
            var cursor = RoutineCursor(templateIds: ids)
            _ = Self.complete(&cursor, times: Int.random(in: 0...8, using: &random))
            let running = cursor.nextIndex!
            let following = ids[(running + 1) % ids.count]
            cursor.replaceTemplates(with: ids.filter { $0 != ids[running] })
            let moved = cursor.advance(workoutId: "running", templateId: ids[running], completedAt: Date(timeIntervalSince1970: 86_400))
            #expect(moved)
            #expect(cursor.templateIds[cursor.nextIndex!] == following, "\(ids), \(ids[running]) removed while it ran")
        }
    }
}
