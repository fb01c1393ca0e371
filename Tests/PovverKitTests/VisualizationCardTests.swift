import Foundation
import PovverKit
import Testing

/// The three charts the coach answers progress questions with decode as the app shows them: a lift's line, weekly
/// sets per muscle group as labelled bars, and a ranked table of lifts; a chart without points or a table without
/// rows fails, as the app fails it.
@Suite struct VisualizationCardTests {
    static func card(_ data: String) -> Data {
        Data(
            #"{"id":"c1","type":"visualization","lane":"analysis","status":"pending","title":"Progress","actions":["reject"],"meta":{},"data":\#(data)}"#
                .utf8)
    }

    @Test func aLiftsTableDecodesItsRows() throws {
        let card = try CanvasCardModel.decode(
            Self.card(
                #"{"chart":"table","metric":"e1rm","unit":"kg","rows":[{"exercise_id":"Barbell_Squat","name":"Barbell Squat","e1rm_kg":140.5,"previous_e1rm_kg":135,"change_kg":5.5},{"exercise_id":"Pullups","name":"Pullups","e1rm_kg":80}]}"#
            ))
        guard case .visualization(let chart) = card.data else {
            Issue.record("not a visualization: \(card.data)")
            return
        }
        #expect(chart.chart == "table" && chart.points == nil)
        #expect(chart.rows?.map(\.name) == ["Barbell Squat", "Pullups"])
        #expect(chart.rows?.first?.changeKg == 5.5 && chart.rows?.last?.previousE1rmKg == nil)
    }

    @Test func weeklySetsPerMuscleAreLabelledBars() throws {
        let card = try CanvasCardModel.decode(
            Self.card(
                #"{"chart":"bar","metric":"sets","unit":"sets","points":[{"week_start":"2026-11-23","value":12,"label":"chest"},{"week_start":"2026-11-23","value":9,"label":"back"}]}"#
            ))
        guard case .visualization(let chart) = card.data else {
            Issue.record("not a visualization: \(card.data)")
            return
        }
        #expect(chart.points?.map(\.label) == ["chest", "back"] && chart.rows == nil)
    }

    @Test func aTableWithoutRowsOrAChartWithoutPointsFails() {
        #expect(throws: DecodingError.self) {
            try CanvasCardModel.decode(Self.card(#"{"chart":"table","metric":"e1rm","unit":"kg","points":[]}"#))
        }
        #expect(throws: DecodingError.self) {
            try CanvasCardModel.decode(Self.card(#"{"chart":"line","metric":"e1rm","unit":"kg","rows":[]}"#))
        }
    }
}
