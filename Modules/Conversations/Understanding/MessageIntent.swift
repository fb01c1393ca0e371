/// What a message to the coach asks for, as `MessageUnderstanding` reads it. Raw values are the names the phrasing
/// table (`Resources/phrasings.tsv`) and docs/coach.md use.
public enum MessageIntent: String, Sendable, CaseIterable, Codable {
    /// A routine for the weeks ahead: "build me a 4-day upper/lower with dumbbells", "PPL twice a week".
    case planRoutine = "plan_routine"
    /// One session, not a routine: "give me a 45-minute push workout", "what should I train today? 45 minutes, dumbbells".
    case planSession = "plan_session"
    /// A change to the user's active routine: its days, an exercise added or dropped, more or less of a muscle.
    case changeRoutine = "change_routine"
    /// One exercise in place of another, with or without a named target: "swap bench for incline dumbbell press".
    case swapExercise = "swap_exercise"
    /// A program lifters know by name: StrongLifts 5×5, Starting Strength, PHUL, 5/3/1, GZCLP.
    case namedProgram = "named_program"
    /// How one exercise is going: "how is my bench going?".
    case progressExercise = "progress_exercise"
    /// How a muscle group is going: "how's my chest doing?".
    case progressMuscleGroup = "progress_muscle_group"
    /// How the training as a whole is going: "how am I doing?", "show me my progress".
    case progressOverall = "progress_overall"
    /// The next workout of the user's routine: "what should I do today?".
    case today
    /// An injury or a body area to spare: "I hurt my shoulder, what should I avoid?".
    case injury
    /// A training question to answer, not a plan to make: "is 3 days a week enough?".
    case question
    /// What the coach does not do: nutrition, medical advice, anything off training.
    case outOfScope = "out_of_scope"
    /// A fact about the user's training to keep: "I only have dumbbells", "I train 4 days", "dumbbells only".
    case remember
    /// A set command or set report during a workout: "8 @ 100", "done", "next set" (`SetCommandParser` reads them).
    case workoutCommand = "workout_command"
    /// The end of the workout in progress: "finished", "I'm done".
    case finishWorkout = "finish_workout"
    /// "hello", "hey coach".
    case greeting
    /// "thanks", "cheers".
    case thanks
    /// "yes", "sounds good": agreeing to what the coach offered.
    case confirm
    /// "no thanks", "leave it as it is": turning down what the coach offered.
    case decline
    /// "never mind", "forget it": dropping the question or request in progress.
    case cancel
    /// "what can you do?": what the coach can help with.
    case help
    /// Nothing the coach can read: "asdf", "???".
    case unknown
}
