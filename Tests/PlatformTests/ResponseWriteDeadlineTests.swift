import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Platform
import Testing

/// A client that stops reading its answer loses the connection, on the event loop's clock (advanced here, never
/// waited for); one that reads, however slowly, and a stream with nothing to send, keep it.
@Suite struct ResponseWriteDeadlineTests {
    /// The socket of a client that reads only when told: writes wait here until `take` lets them through.
    final class StalledClient: ChannelOutboundHandler {
        typealias OutboundIn = NIOAny
        private var waiting: [(NIOAny, EventLoopPromise<Void>?)] = []
        private var context: ChannelHandlerContext?

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            waiting.append((data, promise))
        }

        func flush(context: ChannelHandlerContext) {}

        /// The connection closes: what waited never leaves, as a socket's buffer is dropped.
        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            for (_, promise) in waiting { promise?.fail(ChannelError.ioOnClosedChannel) }
            waiting.removeAll()
            context.close(mode: mode, promise: promise)
        }

        /// The client reads the oldest `count` writes.
        func take(_ count: Int) {
            guard let context else { return }
            for (data, promise) in waiting.prefix(count) { context.write(data, promise: promise) }
            waiting.removeFirst(min(count, waiting.count))
            context.flush()
        }
    }

    static func channel() async throws -> (EmbeddedChannel, EmbeddedEventLoop, StalledClient) {
        let loop = EmbeddedEventLoop()
        let client = StalledClient()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandlers([client, ResponseWriteDeadline(timeout: .seconds(30))])
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        return (channel, loop, client)
    }

    static func event(_ text: String) -> HTTPResponsePart { .body(ByteBuffer(string: "data: \(text)\n\n")) }

    @Test func aClientThatStopsReadingAStreamLosesItsConnection() async throws {
        let (channel, loop, client) = try await Self.channel()
        channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .ok)), promise: nil)
        channel.writeAndFlush(Self.event("one"), promise: nil)
        client.take(2)
        channel.writeAndFlush(Self.event("two"), promise: nil)
        loop.advanceTime(by: .seconds(20))
        channel.writeAndFlush(Self.event("three"), promise: nil)
        loop.advanceTime(by: .seconds(9))
        #expect(channel.isActive, "29 s since the first write the client left waiting")
        loop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive, "nothing taken for 30 s")
    }

    @Test func aSlowReaderAndAQuietStreamKeepTheirConnection() async throws {
        let (channel, loop, client) = try await Self.channel()
        channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .ok)), promise: nil)
        for index in 0..<10 {
            channel.writeAndFlush(Self.event("\(index)"), promise: nil)
            loop.advanceTime(by: .seconds(25))
            client.take(1)
        }
        #expect(channel.isActive, "each write was taken within 30 s of the one before")
        client.take(1)
        loop.advanceTime(by: .seconds(600))
        #expect(channel.isActive, "nothing waiting to be written: an SSE stream between events, an idle connection")
    }

    @Test func aWriteFailedByTheClosingConnectionIsStillReported() async throws {
        let (channel, loop, _) = try await Self.channel()
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(Self.event("lost"), promise: written)
        loop.advanceTime(by: .seconds(31))
        #expect(!channel.isActive)
        await #expect(throws: (any Error).self, "the writer hears that its write never left") { try await written.futureResult.get() }
    }
}
