import Contracts
import Foundation
import Testing

@testable import Workouts

@Suite struct RoutineCursorTests {
    func cursor(_ ids: [String], last: String?, index: Int?) -> RoutineCursor {
        RoutineCursor(
            templateIds: ids, lastCompletedTemplateId: last, lastCompletedAt: last == nil ? nil : Date(), lastCompletedIndex: index)
    }

    @Test func startsAtTheFirstTemplate() {
        #expect(cursor(["a", "b", "c"], last: nil, index: nil).nextIndex == 0)
        #expect(cursor([], last: nil, index: nil).nextIndex == nil)
    }

    @Test func advancesAndWrapsAround() {
        #expect(cursor(["a", "b", "c"], last: "a", index: 0).nextIndex == 1)
        #expect(cursor(["a", "b", "c"], last: "c", index: 2).nextIndex == 0)
    }

    @Test func followsAReorderedTemplate() {
        #expect(next(after: "a", at: 0, in: ["a", "b", "c"], then: [["c", "a", "b"]]) == "b")
        // A routine from before positions were kept goes on after the template's first occurrence.
        #expect(cursor(["c", "a", "b"], last: "a", index: nil).nextIndex == 2)
    }

    /// A stored position that no longer holds the last completed template names the template that is next,
    /// even when that template is listed elsewhere too.
    @Test func aPositionThatIsNotTheCompletedTemplateIsNext() {
        #expect(cursor(["a", "b", "c"], last: "a", index: 2).nextIndex == 2)
    }

    @Test func removedTemplateHandsOverToItsSuccessor() {
        // b was completed at position 1 and then removed: c now sits at position 1 and is next.
        #expect(cursor(["a", "c"], last: "b", index: 1).nextIndex == 1)
        #expect(cursor(["a"], last: "b", index: 1).nextIndex == 0)
    }

    @Test func repeatedTemplatesUseTheStoredPosition() {
        #expect(cursor(["a", "b", "a", "c"], last: "a", index: 2).nextIndex == 3)
        #expect(cursor(["a", "b", "a", "c"], last: "a", index: 0).nextIndex == 1)
    }

    /// The template `nextIndex` names after the routine's templates were replaced, one list after another.
    func next(after last: String, at index: Int, in ids: [String], then lists: [[String]]) -> String? {
        var routine = cursor(ids, last: last, index: index)
        for list in lists { routine.replaceTemplates(with: list) }
        return routine.nextIndex.map { routine.templateIds[$0] }
    }

    @Test func successiveRemovalsKeepTheCycle() {
        // c was completed; removing a and then c itself must still lead to d, which followed c.
        #expect(next(after: "c", at: 2, in: ["a", "b", "c", "d"], then: [["b", "c", "d"]]) == "d")
        #expect(next(after: "c", at: 2, in: ["a", "b", "c", "d"], then: [["b", "c", "d"], ["b", "d"]]) == "d")
        #expect(next(after: "c", at: 2, in: ["a", "b", "c", "d"], then: [["b", "d"]]) == "d")
        #expect(next(after: "d", at: 3, in: ["a", "b", "c", "d"], then: [["b", "c", "d"], ["b", "c"]]) == "b")
    }

    @Test func aReorderThenARemovalKeepsTheCycle() {
        // b was completed; after a reorder c follows it (wrapping around), and still does once b is removed.
        #expect(next(after: "b", at: 1, in: ["a", "b", "c"], then: [["c", "a", "b"]]) == "c")
        #expect(next(after: "b", at: 1, in: ["a", "b", "c"], then: [["c", "a", "b"], ["c", "a"]]) == "c")
        #expect(next(after: "a", at: 0, in: ["a", "b", "c"], then: [["b", "a", "c"], ["b", "c"]]) == "c")
    }

    @Test func aRepeatedTemplateKeepsItsOccurrence() {
        // The second a was completed: c follows it, also once b (before it) is removed.
        #expect(next(after: "a", at: 2, in: ["a", "b", "a", "c"], then: [["a", "a", "c"]]) == "c")
        #expect(next(after: "a", at: 0, in: ["a", "b", "a", "c"], then: [["a", "a", "c"]]) == "a")
        // The first a was removed: the second, just done, still leads to c.
        #expect(next(after: "a", at: 2, in: ["a", "b", "a", "c"], then: [["b", "a", "c"]]) == "c")
        // The occurrence just done was removed: what followed it is next, not what followed the other a.
        #expect(next(after: "a", at: 2, in: ["a", "b", "a", "c"], then: [["a", "b", "c"]]) == "c")
        #expect(next(after: "a", at: 0, in: ["a", "b", "a", "c"], then: [["b", "a", "c"]]) == "b")
        #expect(next(after: "a", at: 2, in: ["a", "b", "a", "c"], then: [["a", "b", "c"], ["b", "c"]]) == "c")
        // Upper / lower twice a week, the second upper done, the last lower dropped: the cycle starts over.
        #expect(next(after: "u", at: 2, in: ["u", "l", "u", "l"], then: [["u", "l", "u"]]) == "u")
        // Either a could have been removed: the one just done is taken to stay.
        #expect(next(after: "a", at: 1, in: ["a", "a", "b"], then: [["a", "b"]]) == "b")
        #expect(next(after: "a", at: 0, in: ["a", "a", "b"], then: [["a", "b"]]) == "b")
    }

    /// Every list of `length` templates drawn from a, b and c (so most list some template more than once).
    static func lists(of length: Int) -> [[String]] {
        length == 0 ? [[]] : lists(of: length - 1).flatMap { list in ["a", "b", "c"].map { list + [$0] } }
    }

    /// With templates listed more than once, removing any one slot leads on as striking that slot out would,
    /// for at least one of the slots whose removal leaves the same list (the lists alone cannot tell them apart).
    @Test func removingOneSlotOfARoutineWithRepeatsFollowsTheCycle() {
        for count in 2...6 {
            for ids in Self.lists(of: count) {
                for completed in 0..<count {
                    // What striking out each slot would make next, by the list it leaves.
                    var answers: [[String]: Set<String>] = [:]
                    for removed in 0..<count {
                        let left = ids.indices.filter { $0 != removed }.map { ids[$0] }
                        let next = (1...count).lazy.map { (completed + $0) % count }.first { $0 != removed }.map { ids[$0] }!
                        answers[left, default: []].insert(next)
                    }
                    for (left, expected) in answers {
                        var routine = cursor(ids, last: ids[completed], index: completed)
                        routine.replaceTemplates(with: left)
                        let actual = routine.nextIndex.map { routine.templateIds[$0] }
                        #expect(
                            actual.map(expected.contains) == true,
                            "\(ids), completed at \(completed), now \(left): \(actual ?? "nil"), expected one of \(expected.sorted())")
                    }
                }
            }
        }
    }

    /// The same, two slots removed one after the other (the first removal may leave the cursor on the slot
    /// that is next rather than on the one done).
    @Test func removingTwoSlotsOfARoutineWithRepeatsFollowsTheCycle() {
        for count in 3...5 {
            for ids in Self.lists(of: count) {
                for completed in 0..<count {
                    var answers: [[[String]]: Set<String>] = [:]
                    for first in 0..<count {
                        for second in 0..<count where second != first {
                            let between = ids.indices.filter { $0 != first }.map { ids[$0] }
                            let left = ids.indices.filter { $0 != first && $0 != second }.map { ids[$0] }
                            let next = (1...count).lazy.map { (completed + $0) % count }.first { $0 != first && $0 != second }.map {
                                ids[$0]
                            }!
                            answers[[between, left], default: []].insert(next)
                        }
                    }
                    for (lists, expected) in answers {
                        var routine = cursor(ids, last: ids[completed], index: completed)
                        for list in lists { routine.replaceTemplates(with: list) }
                        let actual = routine.nextIndex.map { routine.templateIds[$0] }
                        #expect(
                            actual.map(expected.contains) == true,
                            "\(ids), completed at \(completed), then \(lists): \(actual ?? "nil"), expected one of \(expected.sorted())")
                    }
                }
            }
        }
    }

    @Test func anEmptiedRoutineStartsOverFromItsNewTemplates() {
        #expect(next(after: "a", at: 0, in: ["a", "b"], then: [[]]) == nil)
        #expect(next(after: "a", at: 0, in: ["a", "b"], then: [[], ["x", "y"]]) == "x")
        #expect(next(after: "a", at: 0, in: ["a", "b"], then: [[], ["b", "a"]]) == "b")
        #expect(next(after: "a", at: 0, in: ["a", "b"], then: [["x", "y"]]) == "x")
    }

    /// Against a model that strikes removed templates out instead of removing them: the next template is the
    /// first one still there after the completed one's slot, in the original order, wrapping around.
    @Test func anyOrderOfRemovalsFollowsTheOriginalCycle() {
        func permutations(_ items: [Int]) -> [[Int]] {
            items.isEmpty
                ? [[]]
                : items.indices.flatMap { i in
                    permutations(Array(items[..<i] + items[(i + 1)...])).map { [items[i]] + $0 }
                }
        }
        for count in 1...5 {
            let ids = (0..<count).map { "t\($0)" }
            for completed in 0..<count {
                for order in permutations(Array(0..<count)) {
                    var routine = cursor(ids, last: ids[completed], index: completed)
                    var removed = Set<Int>()
                    for position in order.dropLast() {
                        removed.insert(position)
                        routine.replaceTemplates(with: ids.indices.filter { !removed.contains($0) }.map { ids[$0] })
                        let expected = (1...count).lazy.map { (completed + $0) % count }.first { !removed.contains($0) }.map { ids[$0] }
                        let actual = routine.nextIndex.map { routine.templateIds[$0] }
                        #expect(actual == expected, "\(ids), completed \(ids[completed]), removed \(removed.sorted())")
                    }
                }
            }
        }
    }

    @Test func everyCursorGivesAValidIndex() {
        for count in 1...6 {
            let ids = (0..<count).map { "t\($0)" }
            for last in ids + ["gone"] {
                for index in [nil] + Array(0..<8) {
                    let next = cursor(ids, last: last, index: index).nextIndex
                    #expect(next.map { (0..<count).contains($0) } == true)
                }
            }
        }
    }
}
