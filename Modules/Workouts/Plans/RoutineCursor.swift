import Foundation

/// Where a routine's cycle stands and how it moves: which slot of its list is next, how a completion moves it
/// on, how deleting the completion that last moved it steps it back, and how it follows every change of the
/// list. A value with no storage: `StoredRoutine.cursor` reads it from a stored routine and writes it back.
///
/// A template may be listed more than once; each listing is a slot, followed on its own.
struct RoutineCursor: Sendable, Equatable {
    /// The routine's templates in order.
    var templateIds: [String]
    var lastCompletedTemplateId: String?
    var lastCompletedAt: Date?
    /// The position of the last completed template.
    var lastCompletedIndex: Int?
    /// Set instead of `lastCompletedIndex` once the last completed template's slot is gone (removed from the
    /// list, or done while removed from it): the position of the template that is next. It may hold the same
    /// template as the one completed, listed another time.
    var nextPosition: Int?
    /// The completions that moved the cursor, newest first (at most `recentLimit`): deleting the newest steps the
    /// cursor back to the slot it was done in and to the completion before it.
    var recent: [Step]?

    /// How many completions a routine remembers for stepping back.
    static let recentLimit = 30

    /// A completion that moved the cursor.
    struct Step: Codable, Sendable, Equatable {
        var workoutId: String
        var templateId: String
        var completedAt: Date
        /// The slot it was done in, kept through every change of the list; nil once that slot is gone.
        var slot: Int?

        enum CodingKeys: String, CodingKey {
            case workoutId = "workout_id"
            case templateId = "template_id"
            case completedAt = "completed_at"
            case slot
        }
    }

    /// Where the cycle continues. Every change of the list and every completion keep the stored position (see
    /// `replaceTemplates`): the slot of the last completed template, and the one after it is next, or, once that
    /// slot is gone, the slot that is next. A routine without a valid position (from before positions were kept)
    /// goes on after the template's first occurrence. Nil when the routine lists no template.
    var nextIndex: Int? {
        let ids = templateIds
        guard !ids.isEmpty else { return nil }
        guard let last = lastCompletedTemplateId else { return 0 }
        if let next = nextPosition, ids.indices.contains(next) { return next }
        if let position = lastCompletedIndex, ids.indices.contains(position) {
            // Before `nextPosition`, a position that does not hold the template named the next one.
            return ids[position] == last ? (position + 1) % ids.count : position
        }
        if let position = ids.firstIndex(of: last) { return (position + 1) % ids.count }
        return max(0, lastCompletedIndex ?? 0) % ids.count
    }

    /// Records the completion of a workout done from `templateId`, which moves the cursor past the slot it was
    /// done in. Answers false, changing nothing, for a completion no newer than the last one recorded: the cursor
    /// never moves back.
    mutating func advance(workoutId: String, templateId: String, completedAt: Date) -> Bool {
        if let last = lastCompletedAt, last >= completedAt { return false }
        let ids = templateIds
        let previous = nextIndex
        // With the same template twice in a routine, prefer the occurrence right after the previous cursor.
        let position = Self.position(of: templateId, in: ids, near: previous)
        lastCompletedTemplateId = templateId
        lastCompletedAt = completedAt
        let step = Step(workoutId: workoutId, templateId: templateId, completedAt: completedAt, slot: position ?? previous)
        recent = Array(([step] + (recent ?? [])).prefix(Self.recentLimit))
        // A template removed from the routine while its workout ran was done in the slot the cursor pointed
        // at: recorded there, `nextIndex` continues with the template that took that slot.
        if let position {
            (lastCompletedIndex, nextPosition) = (position, nil)
        } else if let previous {
            (lastCompletedIndex, nextPosition) = (nil, previous)
        }
        return true
    }

    /// What forgetting a deleted workout's completion did.
    enum Forgotten: Equatable {
        /// The cursor did not remember it: nothing changed.
        case nothing
        /// An older completion: only forgotten, so that stepping back never lands on it.
        case older
        /// The completion that last moved the cursor, forgotten: `stepBack(from:)` undoes it.
        case newest(Step)
    }

    /// Forgets the completion of a deleted workout (see `Forgotten`).
    mutating func forget(workoutId: String) -> Forgotten {
        guard var remembered = recent, let index = remembered.firstIndex(where: { $0.workoutId == workoutId }) else { return .nothing }
        let deleted = remembered.remove(at: index)
        recent = remembered
        return index == 0 ? .newest(deleted) : .older
    }

    /// Steps back past `deleted`, the completion that last moved the cursor (already forgotten), as if it had never
    /// been done: the slot it was done in is next again (when that slot has left the list, what is next stays next),
    /// and the newest completion remembered is the last. With none, the routine starts over at its first template.
    /// The caller first drops the remembered completions whose workouts are gone.
    mutating func stepBack(from deleted: Step) {
        let ids = templateIds
        let next = deleted.slot.flatMap { ids.indices.contains($0) ? $0 : nil } ?? nextIndex
        if let previous = recent?.first {
            lastCompletedTemplateId = previous.templateId
            lastCompletedAt = previous.completedAt
            (lastCompletedIndex, nextPosition) = (nil, next ?? 0)
        } else {
            lastCompletedTemplateId = nil
            lastCompletedAt = nil
            (lastCompletedIndex, nextPosition) = (nil, nil)
        }
    }

    /// Gives the routine a new list of templates and moves the cursor with them, so the cycle goes on where it
    /// was. The old list is aligned with the new one (`alignment`): a slot still listed keeps its template's
    /// place in the cycle, wherever it now stands. When the last completed slot is still listed, it stays the
    /// last completed; when it is gone, the first slot that followed it and still is becomes next. So with a
    /// template listed twice, removing the occurrence just done leads on to what followed it, not back to what
    /// followed the other occurrence. The position is kept as it stood after each change, so changes one after
    /// another (a template removed, then another, or a reorder and then a removal) never leave it pointing at a
    /// slot that meant something else.
    mutating func replaceTemplates(with ids: [String]) {
        let old = templateIds
        defer { templateIds = ids }
        let completed = completedSlot(in: old)
        let now = ids.isEmpty ? [Int?](repeating: nil, count: old.count) : Self.alignment(from: old, to: ids, keeping: completed)
        // The remembered completions' slots move with the list too.
        recent = recent?.map { step in
            var step = step
            step.slot = step.slot.flatMap { now.indices.contains($0) ? now[$0] : nil }
            return step
        }
        guard let last = lastCompletedTemplateId, !ids.isEmpty else {
            (lastCompletedIndex, nextPosition) = (nil, nil)
            return
        }
        if let completed, let position = now[completed] {
            (lastCompletedIndex, nextPosition) = (position, nil)
            return
        }
        if completed == nil, !knowsASlot(in: old), let position = ids.firstIndex(of: last) {
            // No slot of the old list is known as done or next (its list was emptied, or it is from before
            // positions were kept, and did not list the template): the template counts from where it now stands.
            (lastCompletedIndex, nextPosition) = (position, nil)
            return
        }
        let survivor = nextIndex.flatMap { next in
            (0..<old.count).lazy.map { (next + $0) % old.count }.first { now[$0] != nil }
        }
        (lastCompletedIndex, nextPosition) = (nil, survivor.flatMap { now[$0] } ?? 0)
    }

    /// The slot of `old` (the list the cursor was kept for) that holds the last completed template; nil when
    /// that slot is gone. Without a stored position (a routine from before they were kept), the template's
    /// first occurrence.
    func completedSlot(in old: [String]) -> Int? {
        guard let last = lastCompletedTemplateId else { return nil }
        if let next = nextPosition, old.indices.contains(next) { return nil }
        guard let stored = lastCompletedIndex, old.indices.contains(stored) else { return old.firstIndex(of: last) }
        // Written before `nextPosition` existed, a position that does not hold the template named the next one.
        return old[stored] == last ? stored : nil
    }

    /// Whether a stored position names a slot of `old`.
    private func knowsASlot(in old: [String]) -> Bool {
        [nextPosition, lastCompletedIndex].contains { $0.map(old.indices.contains) ?? false }
    }

    /// Where each slot of `old` stands in `new`, nil for a slot that is no longer listed. Slots are matched as
    /// an edit would have kept them: the longest run of templates left in the same order (removals and
    /// insertions), then the templates that moved, each leftover slot with the next leftover occurrence of its
    /// template. Where two matchings keep as many slots, the one that keeps `keeping` (the last completed slot)
    /// is taken: removing one of two identical templates cannot tell which was meant, and the one just done is
    /// taken to stay.
    static func alignment(from old: [String], to new: [String], keeping: Int?) -> [Int?] {
        // best[i][j]: the best score for old[i...] against new[j...]; a kept slot scores 2, the completed slot 3.
        func kept(_ slot: Int) -> Int { slot == keeping ? 3 : 2 }
        var best = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                var score = max(best[i + 1][j], best[i][j + 1])
                if old[i] == new[j] { score = max(score, best[i + 1][j + 1] + kept(i)) }
                best[i][j] = score
            }
        }
        var result = [Int?](repeating: nil, count: old.count)
        var taken = [Bool](repeating: false, count: new.count)
        var (i, j) = (0, 0)
        while i < old.count, j < new.count {
            if old[i] == new[j], best[i][j] == best[i + 1][j + 1] + kept(i) {
                result[i] = j
                taken[j] = true
                (i, j) = (i + 1, j + 1)
            } else if best[i][j] == best[i + 1][j] {
                i += 1
            } else {
                j += 1
            }
        }
        for slot in old.indices where result[slot] == nil {
            if let moved = new.indices.first(where: { !taken[$0] && new[$0] == old[slot] }) {
                result[slot] = moved
                taken[moved] = true
            }
        }
        return result
    }

    /// Where `id` stands in `ids`: at `hint` if it is there, else its first occurrence.
    static func position(of id: String, in ids: [String], near hint: Int?) -> Int? {
        if let hint, hint < ids.count, ids[hint] == id { return hint }
        return ids.firstIndex(of: id)
    }
}
