import Foundation

/// Plain aligned columns for the admin CLIs.
public enum TextTable {
    public static func render(_ header: [String], _ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "(none)\n" }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
