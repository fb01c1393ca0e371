import Testing

@testable import Platform

/// CSV as training apps and spreadsheets export it.
@Suite struct CSVReaderTests {
    @Test func quotedFieldsHoldSeparatorsLineBreaksAndQuotes() throws {
        let text = "\u{FEFF}Date,Notes,Reps\r\n2024-01-02 10:00:00,\"Felt \"\"great\"\", then\nheavy, really\",5\r\n2024-01-03 10:00:00,,8"
        let csv = try CSVReader(text)
        #expect(csv.header == ["Date", "Notes", "Reps"], "the byte-order mark is not part of the first name")
        #expect(
            csv.records.map(\.fields) == [
                ["2024-01-02 10:00:00", "Felt \"great\", then\nheavy, really", "5"], ["2024-01-03 10:00:00", "", "8"],
            ])
        #expect(csv.records.map(\.number) == [2, 3], "a record spanning lines counts once; the header is 1")
    }

    @Test func semicolonFilesAreReadBySemicolon() throws {
        let csv = try CSVReader("Date;Weight;Reps\n2024-01-02;82,5;5\n\n2024-01-03;\"1;2\";8\n")
        #expect(csv.separator == UInt8(ascii: ";"))
        #expect(csv.records.map(\.fields) == [["2024-01-02", "82,5", "5"], ["2024-01-03", "1;2", "8"]])
        #expect(csv.records.map(\.number) == [2, 3], "a blank line is no record")
    }

    @Test func brokenQuotingNamesTheRecord() {
        #expect(throws: CSVReader.MalformedError(record: 3, reason: "a quote that is never closed")) {
            try CSVReader("a,b\n1,2\n3,\"open\n4,5\n")
        }
        #expect(throws: CSVReader.MalformedError(record: 2, reason: "text after a closing quote")) {
            try CSVReader("a,b\n\"x\"y,2\n")
        }
        #expect(throws: CSVReader.MalformedError(record: 2, reason: "a quote inside an unquoted field")) {
            try CSVReader("a,b\nx\"y,2\n")
        }
    }
}

/// What a long command shows while it runs.
@Suite struct ProgressReportTests {
    @Test func aLineHoldsTheShareTheCountTheRateAndTheTimeLeft() {
        #expect(
            ProgressReport.line(label: "rebuild", unit: "workouts", done: 750, total: 1500, elapsed: .seconds(3), bar: true)
                == "rebuild [##########----------] 50% 750/1500 workouts 250/s ETA 3s")
        #expect(
            ProgressReport.line(label: "import", unit: "workouts", done: 0, total: 0, elapsed: .zero, bar: false)
                == "import 100% 0/0 workouts")
    }
}
