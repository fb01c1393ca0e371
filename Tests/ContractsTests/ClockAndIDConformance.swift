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
