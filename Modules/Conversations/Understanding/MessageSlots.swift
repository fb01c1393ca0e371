/// What a message names, each slot read by its own grammar (`SlotReader`; docs/coach.md, "Understanding a message").
/// A slot holds only what the text says: a named program's days are not copied into `days` (`Understood.planRequest`
/// fills them in).
public struct MessageSlots: Sendable, Equatable {
    /// Training days a week, 1…7 ("4 days", "3x a week", "PPL twice a week" is 6, "every day" is 7).
    public var days: Int?
    /// The split named.
    public var split: PlanRequest.Split?
    /// The named program.
    public var program: NamedProgram?
    /// The longest session, in minutes (10…240).
    public var minutes: Int?
    /// The kind of session named ("push workout", "leg day").
    public var focus: SessionFocus?
    /// The equipment the user has; nil when the text names none.
    public var equipment: EquipmentSet?
    /// Kinds of equipment the user says they do not have or will not use ("no barbell", "without cables").
    public var withoutEquipment: Set<EquipmentSet.Kind>
    /// The goal stated ("for strength", "to build muscle"); nil when none is.
    public var goal: PlanRequest.Goal?
    /// The experience stated.
    public var experience: Experience?
    /// The exercises named, in order, as the reader writes them: lower case, abbreviations spelled out ("ohp" is
    /// "overhead press", "db" "dumbbell"), the last word singular ("squats" is "squat"). Resolve them with the
    /// catalog's search.
    public var exercises: [String]
    /// The muscle groups named, in order.
    public var muscles: [MuscleGroup]
    /// Body areas to spare, in order.
    public var spare: [BodyArea]
    /// When the message is about.
    public var time: TimeReference?
    /// The exercise to replace and its replacement, when the message asks for a swap.
    public var swap: SwapTarget?
    /// What a change to the routine does with what it names.
    public var edit: RoutineEdit?

    public init(
        days: Int? = nil, split: PlanRequest.Split? = nil, program: NamedProgram? = nil, minutes: Int? = nil,
        focus: SessionFocus? = nil, equipment: EquipmentSet? = nil, withoutEquipment: Set<EquipmentSet.Kind> = [],
        goal: PlanRequest.Goal? = nil, experience: Experience? = nil, exercises: [String] = [], muscles: [MuscleGroup] = [],
        spare: [BodyArea] = [], time: TimeReference? = nil, swap: SwapTarget? = nil, edit: RoutineEdit? = nil
    ) {
        self.days = days
        self.split = split
        self.program = program
        self.minutes = minutes
        self.focus = focus
        self.equipment = equipment
        self.withoutEquipment = withoutEquipment
        self.goal = goal
        self.experience = experience
        self.exercises = exercises
        self.muscles = muscles
        self.spare = spare
        self.time = time
        self.swap = swap
        self.edit = edit
    }
}
