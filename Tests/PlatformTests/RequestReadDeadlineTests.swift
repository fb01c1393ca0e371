import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Platform
import Testing

/// Slow clients lose their connection, on the event loop's clock (advanced here, never waited for): a request
/// trickled past the deadline, an idle keep-alive connection; a request being answered is never cut.
@Suite struct RequestReadDeadlineTests {
    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/logSet"))

    static func channel() async throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: RequestReadDeadline(timeout: .seconds(30)), loop: loop)
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        return (channel, loop)
    }

    @Test func aTrickledRequestIsClosedAtTheDeadline() async throws {
        let (channel, loop) = try await Self.channel()
        try channel.writeInbound(Self.head)
        loop.advanceTime(by: .seconds(20))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{\"wei")))
        loop.advanceTime(by: .seconds(9))
        #expect(channel.isActive, "still within 30 s of the connection's start")
        loop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive, "30 s passed without a whole request")
    }

    @Test func anIdleKeepAliveConnectionIsClosedButAnAnswerInProgressIsNot() async throws {
        let (channel, loop) = try await Self.channel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        loop.advanceTime(by: .seconds(300))
        #expect(channel.isActive, "a request being answered (an SSE stream) is never cut")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        loop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive, "idle for 30 s after its answer")
    }

    @Test func pipelinedRequestsAreAnsweredBeforeTheNextDeadline() async throws {
        let (channel, loop) = try await Self.channel()
        for _ in 0..<2 {
            try channel.writeInbound(Self.head)
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        loop.advanceTime(by: .seconds(120))
        #expect(channel.isActive, "the second request, read whole, is still being answered")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        loop.advanceTime(by: .seconds(31))
        #expect(!channel.isActive)
    }

    /// `GET /health` sent with `Content-Length: 1` is answered from its headers; the byte sent after the answer ends
    /// the request, whose answer is already written: the deadline keeps running from the answer, and the connection
    /// still closes 30 s after it. A request after it is read and answered as usual.
    @Test func aBodySentAfterItsAnswerCannotHoldTheConnection() async throws {
        let (channel, loop) = try await Self.channel()
        let health = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/health", headerFields: [.contentLength: "1"])
        try channel.writeInbound(HTTPRequestPart.head(health))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        loop.advanceTime(by: .seconds(10))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "x")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        loop.advanceTime(by: .seconds(19))
        #expect(channel.isActive, "29 s after the answer")
        loop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive, "30 s after the answer, the late byte notwithstanding")

        let (next, nextLoop) = try await Self.channel()
        try next.writeInbound(HTTPRequestPart.head(health))
        try next.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try next.writeOutbound(HTTPResponsePart.end(nil))
        try next.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "x")))
        try next.writeInbound(HTTPRequestPart.end(nil))
        try next.writeInbound(Self.head)
        try next.writeInbound(HTTPRequestPart.end(nil))
        nextLoop.advanceTime(by: .seconds(120))
        #expect(next.isActive, "the second request is being answered")
        try next.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try next.writeOutbound(HTTPResponsePart.end(nil))
        nextLoop.advanceTime(by: .seconds(31))
        #expect(!next.isActive)
    }
}
