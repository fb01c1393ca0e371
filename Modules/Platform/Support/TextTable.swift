import Foundation

/// Plain aligned columns for the admin CLIs. Every cell is printed through `TerminalText` (control characters as
/// escapes, a line break included), so a cell holding someone's text can neither act on the terminal nor break its row.
public enum TextTable {
    public static func render(_ header: [String], _ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "(none)\n" }
        let header = header.map { TerminalText.escaped($0) }
        let rows = rows.map { $0.map { TerminalText.escaped($0) } }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            // Padded by characters, as the widths are counted (`padding(toLength:)` counts UTF-16 units and would cut
            // a cell holding an emoji or a decomposed accent).
            cells.enumerated().map { $0.element + String(repeating: " ", count: widths[$0.offset] - $0.element.count) }.joined(
                separator: "  "
            )
            .trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
