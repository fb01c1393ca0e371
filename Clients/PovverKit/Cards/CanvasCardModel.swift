import Foundation
import PovverClient

/// A card the coach proposes, as the app shows it on its canvas (docs/api.md "Cards"): `CardType`, `CardLane` (the
/// card's place on the canvas), `CardStatus`, and the tagged union `CanvasCardData` of each type's content. Decoding
/// is strict: an unknown type, lane, status or action fails, and each type's `data` must have what its view shows.
public struct CanvasCardModel: Decodable, Equatable, Sendable {
    public enum CardType: String, Decodable, Sendable, CaseIterable {
        case sessionPlan = "session_plan"
        case routineSummary = "routine_summary"
        case templateUpdate = "template_update"
        case routineUpdate = "routine_update"
        case visualization
        case analysisSummary = "analysis_summary"
        case clarifyQuestions = "clarify_questions"
        case suggestion, text
    }

    public enum CardLane: String, Decodable, Sendable { case planning, analysis, execution }
    public enum CardStatus: String, Decodable, Sendable { case pending, active, accepted, rejected, completed }

    public enum CardAction: String, Decodable, Sendable {
        case accept, reject, edit, swap
        case saveRoutine = "save_routine"
        case startWorkout = "start_workout"
        case saveAsTemplate = "save_as_template"
    }

    public struct CardMeta: Decodable, Equatable, Sendable {
        public var sourceTemplateId: String?
        public var sourceRoutineId: String?
        public var draftId: String?

        public init(sourceTemplateId: String? = nil, sourceRoutineId: String? = nil, draftId: String? = nil) {
            self.sourceTemplateId = sourceTemplateId
            self.sourceRoutineId = sourceRoutineId
            self.draftId = draftId
        }
    }

    public struct PlannedSet: Decodable, Equatable, Sendable {
        public var targetReps: Int?
        public var targetRir: Int?
        public var targetWeightKg: Double?
    }

    public struct SessionExercise: Decodable, Equatable, Sendable {
        public var exerciseId: String
        public var name: String
        public var sets: [PlannedSet]
    }

    public struct DayExercise: Decodable, Equatable, Sendable {
        public var exerciseId: String
        public var name: String
        public var sets: Int
        public var reps: Int?
        public var rir: Int?
    }

    public struct Day: Decodable, Equatable, Sendable {
        public var templateId: String?
        public var name: String
        public var exercises: [DayExercise]
    }

    public struct SessionPlan: Decodable, Equatable, Sendable {
        public var name: String
        public var exercises: [SessionExercise]
        public var templateId: String?
        public var routineId: String?
    }

    public struct TemplateUpdate: Decodable, Equatable, Sendable {
        public var name: String
        public var exercises: [SessionExercise]
        public var templateId: String
        public var expectedVersion: Int
        public var previousExercises: [String]
    }

    public struct RoutineSummary: Decodable, Equatable, Sendable {
        public struct Template: Decodable, Equatable, Sendable {
            public struct Exercise: Decodable, Equatable, Sendable {
                public var exerciseId: String
                public var sets: [PlannedSet]
            }
            public var name: String
            public var exercises: [Exercise]
        }
        public struct Routine: Decodable, Equatable, Sendable {
            public var name: String
            public var description: String?
            public var frequency: Int?
            public var templates: [Template]
        }
        public var routine: Routine
        public var days: [Day]
    }

    public struct RoutineUpdate: Decodable, Equatable, Sendable {
        public struct Changes: Decodable, Equatable, Sendable {
            public var name: String?
            public var description: String?
            public var frequency: Int?
            public var templateIds: [String]?
        }
        public struct Routine: Decodable, Equatable, Sendable {
            public var name: String
            public var description: String?
            public var frequency: Int?
            public var templateIds: [String]
        }
        public var routineId: String
        public var expectedVersion: Int
        public var changes: Changes
        public var routine: Routine
        public var days: [Day]
    }

    /// A chart over weekly points (`line`, `bar`; a bar across muscles carries its `label`), or a ranked `table` of
    /// lifts over `rows`: a chart without its points, or a table without its rows, fails as the app fails it.
    public struct Visualization: Decodable, Equatable, Sendable {
        public struct Point: Decodable, Equatable, Sendable {
            public var weekStart: String
            public var value: Double
            public var label: String?
        }
        public struct Row: Decodable, Equatable, Sendable {
            public var exerciseId: String
            public var name: String
            public var e1rmKg: Double
            public var previousE1rmKg: Double?
            public var changeKg: Double?
        }
        public var chart: String
        public var metric: String
        public var unit: String
        public var points: [Point]?
        public var rows: [Row]?

        enum CodingKeys: String, CodingKey {
            case chart, metric, unit, points, rows
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chart = try container.decode(String.self, forKey: .chart)
            metric = try container.decode(String.self, forKey: .metric)
            unit = try container.decode(String.self, forKey: .unit)
            if chart == "table" {
                rows = try container.decode([Row].self, forKey: .rows)
                points = nil
            } else {
                points = try container.decode([Point].self, forKey: .points)
                rows = nil
            }
        }
    }

    public struct ClarifyQuestions: Decodable, Equatable, Sendable {
        public struct Question: Decodable, Equatable, Sendable {
            public var id: String
            public var text: String
            public var options: [String]?
        }
        public var questions: [Question]
    }

    /// The card's content, by type.
    public enum CanvasCardData: Equatable, Sendable {
        case sessionPlan(SessionPlan)
        case routineSummary(RoutineSummary)
        case templateUpdate(TemplateUpdate)
        case routineUpdate(RoutineUpdate)
        case visualization(Visualization)
        case clarifyQuestions(ClarifyQuestions)
        /// `analysis_summary`, `suggestion`, `text`: shown as given.
        case content(JSONContent)
    }

    public var id: String
    public var type: CardType
    public var lane: CardLane
    public var status: CardStatus
    public var title: String
    public var subtitle: String?
    public var data: CanvasCardData
    public var actions: [CardAction]
    public var meta: CardMeta

    enum CodingKeys: String, CodingKey {
        case id, type, lane, status, title, subtitle, data, actions, meta
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(CardType.self, forKey: .type)
        lane = try container.decode(CardLane.self, forKey: .lane)
        status = try container.decode(CardStatus.self, forKey: .status)
        title = try container.decode(String.self, forKey: .title)
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        actions = try container.decode([CardAction].self, forKey: .actions)
        meta = try container.decode(CardMeta.self, forKey: .meta)
        data =
            switch type {
            case .sessionPlan: .sessionPlan(try container.decode(SessionPlan.self, forKey: .data))
            case .routineSummary: .routineSummary(try container.decode(RoutineSummary.self, forKey: .data))
            case .templateUpdate: .templateUpdate(try container.decode(TemplateUpdate.self, forKey: .data))
            case .routineUpdate: .routineUpdate(try container.decode(RoutineUpdate.self, forKey: .data))
            case .visualization: .visualization(try container.decode(Visualization.self, forKey: .data))
            case .clarifyQuestions: .clarifyQuestions(try container.decode(ClarifyQuestions.self, forKey: .data))
            case .analysisSummary, .suggestion, .text: .content(try container.decode(JSONContent.self, forKey: .data))
            }
    }

    /// Decodes a card from its JSON as the app does (a JSON round trip of the `artifact` event's `data`).
    public static func decode(_ json: Data) throws -> CanvasCardModel {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(CanvasCardModel.self, from: json)
    }

    /// Decodes a card from a JSON value (an event or answer already read).
    public static func decode(_ value: JSONContent) throws -> CanvasCardModel {
        try decode(try JSONEncoder().encode(value))
    }
}

/// What a card proposes (`session_plan`, `routine_summary`, ...).
public typealias CardType = CanvasCardModel.CardType
/// A card's place on the canvas: `planning`, `analysis`, `execution` (not the coach's lane).
public typealias CardLane = CanvasCardModel.CardLane
/// A card's state: `pending`, `accepted`, `rejected`, `active`, `completed`.
public typealias CardStatus = CanvasCardModel.CardStatus
