import Contracts
import Foundation
import Platform

/// Progress answers: of an exercise ("how is my bench going?"), a muscle group ("how's my chest doing?") or the
/// training as a whole ("how is my training going?", "show me my progress": the overview).
extension RuleBasedCoach {
    /// The progress the message asks about: the exercise it names, else the muscle group, else the whole.
    func answerProgress(_ understood: Understood, message: String, tools: CoachToolbox, say: @escaping Say) async throws {
        let slots = understood.slots
        switch understood.intent {
        case .progressExercise:
            if let exercise = slots.exercises.first ?? ProgressSubject.subject(of: message) {
                try await answerProgress(subject: exercise, tools: tools, say: say)
            } else if let muscle = slots.muscles.first {
                try await answerMuscleProgress(muscle, tools: tools, say: say)
            } else {
                try await answerOverview(tools: tools, say: say)
            }
        case .progressMuscleGroup:
            if let muscle = slots.muscles.first {
                try await answerMuscleProgress(muscle, tools: tools, say: say)
            } else if let exercise = slots.exercises.first {
                try await answerProgress(subject: exercise, tools: tools, say: say)
            } else {
                try await answerOverview(tools: tools, say: say)
            }
        default:
            // "How is my zorblax going?": a name the reader knows as no exercise nor anything overall is still asked after.
            if let subject = slots.exercises.first ?? ProgressSubject.subject(of: message) {
                try await answerProgress(subject: subject, tools: tools, say: say)
            } else if let muscle = slots.muscles.first {
                try await answerMuscleProgress(muscle, tools: tools, say: say)
            } else {
                try await answerOverview(tools: tools, say: say)
            }
        }
    }

    /// "How is my bench going?": the exercise the user trains that best matches, its latest best e1RM and top
    /// weight against the start of the period, and a chart.
    func answerProgress(subject: String, tools: CoachToolbox, say: @escaping Say) async throws {
        let found = try await tools.call("search_exercises", arguments: ["query": .string(subject), "limit": 10])
        let candidates = (found["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        guard !candidates.isEmpty else {
            try await say("I could not find an exercise called \"\(subject)\" in the catalog. Which exercise do you mean?")
            return
        }
        // The best match the user has trained lately, so "bench" finds the bench press they actually do.
        var best: (id: String, name: String, points: [ExerciseWeek])?
        for id in candidates {
            let progress = try await tools.call("get_exercise_progress", arguments: ["exercise_id": .string(id), "weeks": 12])
            let points = try (progress["points"] ?? []).decode([ExerciseWeek].self)
            if !points.isEmpty {
                best = (id, progress["name"]?.stringValue ?? id, points)
                break
            }
        }
        guard let best, let last = best.points.last, let first = best.points.first else {
            try await say(
                "You have no logged sets of \(subject) in the last 12 weeks. Log a workout with it and I will track your progress.")
            return
        }
        let unit = tools.weightUnit
        let e1rm = { (value: Double) in unit.text(kilograms: value) }
        var answer = "\(best.name): your best estimated 1RM this period is \(e1rm(best.points.map(\.e1rmKg).max() ?? last.e1rmKg))"
        answer += ", with a top set of \(unit.text(kilograms: last.bestSet.weightKg)) × \(last.bestSet.reps) in your latest week."
        if best.points.count > 1 {
            // The change to a tenth of the user's unit, so "up 0 lb" never shows.
            let change = unit.amount(ofKilograms: last.e1rmKg - first.e1rmKg).roundedToTenth
            let amount = "\(WeightUnit.oneDecimal(abs(change))) \(unit.symbol)"
            answer +=
                change > 0
                ? " That is up \(amount) since the week of \(first.weekStart)."
                : change < 0
                    ? " That is down \(amount) since the week of \(first.weekStart): worth a lighter week?" : " Holding steady."
        }
        answer += " \(best.points.reduce(0) { $0 + $1.sets }) working sets over \(best.points.count) weeks."
        try await say(answer)
        _ = try await tools.call("show_progress_chart", arguments: ["exercise_id": .string(best.id), "weeks": 12])
    }
}

/// The exercise a progress question names when the reader knows no exercise of that name ("how is my zorblax
/// going?"): the words between "how is my" and "going", so the answer can say it found no such exercise. Never a
/// word about training as a whole ("how is my training going" is the overview).
enum ProgressSubject {
    static let wholeWords: Set<String> = [
        "training", "progress", "workouts", "workout", "lifting", "gains", "routine", "program", "week", "month", "year", "body",
        "strength", "fitness", "plan", "gym", "sessions", "overall", "split", "physique", "progression", "numbers", "lifts", "weights",
        "health", "results", "consistency", "volume", "bulk", "cut", "session", "stuff", "things", "everything",
    ]

    static func subject(of message: String) -> String? {
        let text = message.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "?!. \n\t"))
        let patterns: [(prefix: String, suffix: String)] = [
            ("how is my ", " going"), ("how's my ", " going"), ("hows my ", " going"), ("how is my ", " doing"), ("how's my ", " doing"),
            ("how is my ", " progressing"), ("how's my ", " progressing"), ("progress on my ", ""), ("progress on ", ""),
            ("my ", " progress"),
        ]
        for (prefix, suffix) in patterns where text.hasPrefix(prefix) && text.hasSuffix(suffix) && text.count > prefix.count + suffix.count
        {
            let subject = String(text.dropFirst(prefix.count).dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            let words = subject.split(separator: " ").map(String.init)
            guard !words.isEmpty, words.count <= 4, !words.contains(where: wholeWords.contains) else { continue }
            return subject
        }
        return nil
    }
}
