import Foundation

/// The rule-based coach's answers to training questions ("is 3 days a week enough?", "how long should I rest
/// between sets?") and to what it does not do (nutrition, supplements, medical advice): a few topics a coach is
/// asked most, each found by its words, first match wins. Numbers are the mainstream evidence: 10–20 weekly hard
/// sets a muscle (Schoenfeld, Ogborn & Krieger 2017), a muscle about twice a week with frequency mattering less than
/// volume (Schoenfeld, Ogborn & Krieger 2016), 1–3 reps in reserve (Helms et al. 2016; Refalo et al. 2023),
/// 2–3 minutes of rest on compounds (Schoenfeld et al. 2016).
enum TrainingAnswers {
    /// The answer to a training question; a question on no topic here gets the essentials and what the coach can do.
    static func answer(_ message: String, slots: MessageSlots) -> String {
        let text = " " + MessageText(message).tokens.joined(separator: " ") + " "
        if let frequency = frequency(text, days: slots.days) { return frequency }
        for (words, answer) in topics where words.contains(where: { text.contains(" \($0) ") }) {
            return answer
        }
        return "The essentials: train each muscle about twice a week with 10–20 hard sets, stop 1–3 reps short of failure, and add "
            + "reps or weight over time. Ask me something more specific, or ask me to plan a routine or a session for you."
    }

    /// "Is 3 days a week enough?", "how often should I train chest": how often to train, by the days named.
    static func frequency(_ text: String, days: Int?) -> String? {
        let asksHowOften = [
            " how often ", " how many days ", " how many times ", " enough ", " days a week ", " times a week ", " twice a week ",
            " every day ", " in a row ",
        ]
        .contains(where: text.contains)
        guard asksHowOften, !text.contains(" sets "), !text.contains(" minutes ") else { return nil }
        let offer = " Want a routine for it? Ask me to build one."
        if text.contains(" in a row ") || text.contains(" every day ") {
            return "Give a muscle about 48 hours between hard sessions: the same muscles two days in a row, or every day, recover "
                + "poorly. Train other muscles on the day between, or keep one of the days light."
        }
        switch days {
        case 1:
            return "One day a week keeps what you have, but progress is slow: two full-body days is the smallest week that "
                + "trains each muscle twice." + offer
        case 2:
            return "Yes: two full-body days a week build muscle and strength, training each muscle twice with 6–10 hard sets a "
                + "week. More days make progress faster, they are not needed for it." + offer
        case 3:
            return "Yes: three days a week is enough for most lifters. Full-body sessions train each muscle two or three times a "
                + "week, and what grows muscle is the weekly hard sets (about 10–20 a muscle), not the number of days. Add a "
                + "day when the sessions get too long to fit the sets." + offer
        case 4:
            return "Four days is plenty: an upper/lower split trains everything twice a week with room for 10–20 sets a muscle."
                + offer
        case 5, 6:
            return "\(days ?? 5) days works if you recover well (sleep, food, lighter weeks now and then): push/pull/legs or "
                + "upper/lower/push/pull/legs. Keep at least one full rest day." + offer
        case 7:
            return "Every day is too much for most lifters: muscles grow between sessions. Train 3–6 days and rest the others."
        default:
            return "Train each muscle about twice a week: three full-body days or four upper/lower days cover it for most lifters. "
                + "Frequency matters less than the weekly hard sets (10–20 a muscle)." + offer
        }
    }

    /// Topics, by the words or phrases that name them (whole words).
    static let topics: [(words: [String], answer: String)] = [
        (
            ["deload", "deloads", "deloading"],
            "A deload is a lighter week: about half the sets, or 10–20% less weight, every 4–8 weeks or when your lifts stall "
                + "and joints ache. A week is enough; then back to normal."
        ),
        (
            ["rir", "rpe"],
            "RIR is reps in reserve: how many more clean reps you could have done. RPE says the same on a scale to 10 (RPE 8 is 2 "
                + "in reserve). Most working sets belong at 1–3 in reserve; that is what my plans ask for."
        ),
        (
            ["failure"],
            "Train close to failure, not always to it: 1–3 reps in reserve grows muscle about as well, with less fatigue. Taking "
                + "the last set of an isolation exercise to failure is fine; keep heavy squats, deadlifts and presses at 1–3 in reserve."
        ),
        (
            ["between sets", "rest between", "rest time", "long should i rest", "much rest"],
            "Rest 2–3 minutes between sets of heavy compounds (3–5 for strength work) and 1–2 minutes on isolation exercises: "
                + "longer rests keep the reps up, which builds more muscle than short ones."
        ),
        (
            ["sore", "soreness", "doms"],
            "Soreness is neither a sign of a good workout nor a reason to skip one: train a sore muscle lightly or train other "
                + "muscles, and it eases as your body gets used to the work. Pain in a joint is different: spare it and tell me where."
        ),
        (
            ["sleep", "recovery", "recover", "rest day", "rest days", "overtraining", "overtrained"],
            "Muscles grow while you recover: 7–9 hours of sleep, about 48 hours before training the same muscles hard again, and "
                + "a lighter week when everything feels heavy."
        ),
        (
            ["cardio", "running", "run"],
            "Cardio and lifting mix well: 2–3 sessions of 20–30 minutes a week help your heart and recovery without costing "
                + "muscle. Do it after lifting or on other days, and keep hard running away from heavy leg days."
        ),
        (
            ["warm", "warmup", "stretch", "stretching"],
            "Warm up with 5 minutes of easy movement and 2–3 lighter ramp-up sets of your first lift; keep long static stretches "
                + "for after training or another time."
        ),
        (
            ["how many sets", "sets per", "sets should", "volume", "number of sets"],
            "About 10–20 hard sets per muscle a week grows muscle for most lifters; beginners do well at the low end. In a "
                + "session, 2–4 sets an exercise and 15–25 sets in all is plenty."
        ),
        (
            ["rep range", "how many reps", "reps for", "reps should", "good rep", "best rep"],
            "For strength, 3–6 reps on the main lifts. For muscle, anything from about 6 to 30 reps works when the sets end close "
                + "to failure; 8–12 is the practical middle. For endurance, 12–20."
        ),
        (
            [
                "overload", "increase weight", "increase the weight", "stuck", "plateau", "plateaued", "plateauing", "stall", "stalled",
                "weight or reps", "go up",
            ],
            "Progress by adding reps, then weight: when every set reaches the top of its range, add the smallest step (2.5 kg on a "
                + "barbell, the next dumbbell) and start again from the bottom. A lift stuck for three weeks: check sleep and food, "
                + "take a lighter week, or change its rep range."
        ),
        (
            ["results", "see gains", "how long until", "how long does it take", "how long before"],
            "Strength rises within weeks, mostly as skill; visible muscle takes 8–12 weeks of steady training, and keeps coming "
                + "for years when you keep adding reps and weight."
        ),
        (
            ["long should", "long enough", "how long is", "minutes"],
            "45–75 minutes is enough for most lifters: what counts is the hard sets, not the clock. 45 minutes fits about 5 "
                + "exercises of 3 sets with proper rests."
        ),
        (
            ["full body", "split", "ppl", "upper lower", "beginner", "beginners", "noob"],
            "Beginners do best on three full-body days a week; splits (upper/lower, push/pull/legs) suit 4 or more days. Any "
                + "split works when each muscle gets its weekly sets, so pick the one that fits your week."
        ),
        (
            ["dumbbells", "dumbbell", "machines", "free weights", "bodyweight", "home"],
            "Yes: dumbbells, machines or bodyweight build muscle as well as barbells when the sets are hard and you progress them. "
                + "Tell me what you have and I will plan with it."
        ),
        (
            ["belt", "straps", "wraps"],
            "A belt helps on heavy squats and deadlifts once you lift heavy; you do not need one to start. Straps help your grip "
                + "on heavy pulls so your back, not your hands, decides the set."
        ),
        (
            ["compound", "isolation", "order"],
            "Compound lifts first while you are fresh, isolation work after. Isolation exercises are worth it for muscles the "
                + "compounds miss: side delts, arms, calves, hamstrings."
        ),
        (
            ["tempo", "slow", "fast"],
            "Lower the weight under control (2–3 seconds) and lift it with intent; slower than that adds little except time."
        ),
        (
            ["superset", "supersets", "dropset", "drop set"],
            "A superset is two exercises back to back with no rest between (best for muscles that do not compete, such as biceps "
                + "and triceps); a drop set takes weight off and keeps going. Both save time; neither is needed."
        ),
        (
            ["form", "technique", "breathe", "breathing", "feet", "depth", "grip", "elbows"],
            "I cannot see your form, so film a set from the side and compare it with a good demonstration: a braced trunk, a "
                + "full controlled range and the same path every rep. Keep the weight where the form holds."
        ),
    ]

    /// What the coach says to a request it does not handle: nutrition and supplements, medical questions, anything else.
    static func outOfScope(_ message: String) -> String {
        let words = Set(MessageText(message).tokens)
        let has = { (list: [String]) in !words.isDisjoint(with: list) }
        let can = " What I can do: plan your routine or today's session, change or swap exercises, show your progress, and spare an injury."
        if has(["chest", "breath", "breathing", "dizzy", "faint", "numb", "numbness"])
            && has(["pain", "shortness", "dizzy", "faint", "numb", "numbness"])
        {
            return "Chest pain, shortness of breath, dizziness or numbness need a doctor now (call emergency services if it is severe): "
                + "stop training until you have been checked."
        }
        if has(["diagnose", "medication", "medicine", "painkillers", "prescribe", "doctor", "physio", "tendonitis", "steroids", "pain"]) {
            return "I cannot give medical advice, diagnose or prescribe: a doctor or physiotherapist is the right person for that. "
                + "Once you know what to spare, tell me (\"spare my knees\") and I will train around it." + can
        }
        if has(["creatine", "supplement", "supplements", "pre", "preworkout", "magnesium", "powder", "vitamins", "ashwagandha"]) {
            return "I do not advise on supplements: ask a doctor or pharmacist what is safe for you." + can
        }
        if has([
            "eat", "eating", "food", "diet", "protein", "calories", "macros", "carbs", "meal", "keto", "fasting", "bulk", "cut", "cutting",
            "breakfast", "recipe", "water", "alcohol", "nutrition", "fat",
        ]) {
            return "Nutrition is outside what I can advise on well: for what and how much to eat, a registered dietitian is the "
                + "right person." + can
        }
        return "That is outside what I do: I am your training coach." + can
    }
}
