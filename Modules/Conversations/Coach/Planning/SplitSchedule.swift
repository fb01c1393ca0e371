/// Which split a routine of N days a week uses, and the kind of each of its sessions.
///
/// With no split named: 1–3 days full body, 4 upper/lower, 5 upper/lower/push/pull/legs, 6–7 push/pull/legs.
/// A named split is kept whenever it has room to train every session once in the week
/// (`PlanRequest.Split.minimumDays`); below that ("push pull legs, 2 days") the default for the days is used and
/// `note` says why, since a routine that never trains legs is worse than one in another split.
struct SplitSchedule: Sendable, Equatable {
    /// The split the routine uses.
    let split: PlanRequest.Split
    /// One kind per training day of the week, in order.
    let days: [TrainingDay]
    /// Why the split differs from the one asked for; nil when it does not.
    let note: String?

    init(requested: PlanRequest.Split?, days count: Int) {
        let fallback = Self.defaultSplit(days: count)
        if let requested, count < requested.minimumDays {
            split = fallback
            note =
                "\(requested.title) needs at least \(requested.minimumDays) days a week; with \(count), "
                + "\(fallback.title.lowercased()) trains every muscle."
        } else {
            split = requested ?? fallback
            note = nil
        }
        days = Self.kinds(split, count: count)
    }

    /// Full body over `count` days in place of a split the equipment cannot fill, `note` saying why.
    init(fullBody count: Int, note: String) {
        split = .fullBody
        days = Self.kinds(.fullBody, count: count)
        self.note = note
    }

    /// The split a coach picks for this many days a week.
    static func defaultSplit(days: Int) -> PlanRequest.Split {
        switch days {
        case ...3: .fullBody
        case 4: .upperLower
        case 5: .upperLowerPushPullLegs
        default: .pushPullLegs
        }
    }

    /// The sessions of the split over `count` days: its cycle repeated and cut to length.
    static func kinds(_ split: PlanRequest.Split, count: Int) -> [TrainingDay] {
        let cycle: [TrainingDay] =
            switch split {
            case .fullBody: [.fullBody]
            case .upperLower: [.upper, .lower]
            case .pushPullLegs: [.push, .pull, .legs]
            case .upperLowerPushPullLegs: [.upper, .lower, .push, .pull, .legs]
            case .bodyPart:
                switch count {
                case ...3: [.chestAndBack, .legs, .shouldersAndArms]
                case 4: [.chestAndTriceps, .backAndBiceps, .legs, .shoulders]
                default: [.chest, .back, .legs, .shoulders, .arms]
                }
            }
        return (0..<count).map { cycle[$0 % cycle.count] }
    }
}
