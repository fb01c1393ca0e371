import Contracts
import Fakes
import Foundation
import Testing

func idGeneratorConformance(_ ids: some IDGenerator) {
    var seen = Set<String>()
    for _ in 0..<2000 {
        let id = ids.makeID()
        #expect(!id.isEmpty && id.count <= 64)
        #expect(id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        seen.insert(id)
    }
    #expect(seen.count == 2000)
}

func wallClockConformance(_ clock: some WallClock) {
    var previous = clock.now()
    for _ in 0..<100 {
        let now = clock.now()
        #expect(now >= previous)
        previous = now
    }
}

@Suite struct ClockAndIDConformanceTests {
    @Test func idGenerators() {
        idGeneratorConformance(SequentialIDGenerator())
        idGeneratorConformance(RandomIDGenerator())
    }

    @Test func randomIDsAre128BitsOfLowerCaseHex() {
        let ids = (0..<500).map { _ in RandomIDGenerator().makeID() }
        #expect(ids.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        // Every hex digit position varies (a stuck nibble would show up as one value in all 500).
        for position in 0..<32 {
            let values = Set(ids.map { $0[$0.index($0.startIndex, offsetBy: position)] })
            #expect(values.count > 4, "position \(position)")
        }
    }

    @Test func clocks() {
        wallClockConformance(FakeWallClock())
        wallClockConformance(SystemClock())
    }

    @Test func fakeClockMovesOnlyWhenTold() {
        let clock = FakeWallClock()
        let start = clock.now()
        #expect(clock.now() == start)
        clock.advance(by: 90)
        #expect(clock.now() == start.addingTimeInterval(90))
    }
}
