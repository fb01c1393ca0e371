import Foundation
import Platform

/// A stored artifact's type, status and data read as a card, whichever form it was written in. Before cards, rows
/// said `proposed` (now `pending`) and `dismissed` (now `rejected`), kept the coach's lane in `lane` (the card's lane
/// now follows from its type), and marked a proposed change to a template or routine with `kind` inside a
/// `session_plan` or `routine_summary` (now the types `template_update` and `routine_update`). Such rows are read as
/// the card they are; acting on one writes it in the new form.
struct StoredCard: Equatable {
    var type: ArtifactType
    var status: ArtifactStatus
    var data: JSONValue

    init(type rawType: String, status rawStatus: String, data: JSONValue) {
        var data = data
        var type = ArtifactType(rawValue: rawType) ?? .text
        if case .object(var fields) = data, let kind = fields["kind"]?.stringValue {
            switch (type, kind) {
            case (.sessionPlan, ArtifactType.templateUpdate.rawValue): type = .templateUpdate
            case (.routineSummary, ArtifactType.routineUpdate.rawValue): type = .routineUpdate
            default: break
            }
            if type == .templateUpdate || type == .routineUpdate {
                fields["kind"] = nil
                data = .object(fields)
            }
        }
        self.type = type
        self.data = data
        self.status =
            switch rawStatus {
            case "proposed": .pending
            case "dismissed": .rejected
            // A status this server does not know (a newer one's) is taken as settled: nothing to act on.
            default: ArtifactStatus(rawValue: rawStatus) ?? .completed
            }
    }
}
