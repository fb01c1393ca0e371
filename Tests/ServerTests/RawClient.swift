import NIOCore
import NIOPosix
import Synchronization

/// A TCP client that writes bytes exactly as given and keeps what it reads, for tests of how the server treats a
/// connection (deadlines, bodies sent late, clients that stop reading).
final class RawClient: Sendable {
    let channel: any Channel
    private let received: Received

    private final class Received: Sendable {
        let buffer = Mutex(ByteBuffer())
    }

    /// Keeps every byte read.
    private final class Keeper: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: Received

        init(_ received: Received) { self.received = received }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            received.buffer.withLock { $0.writeBuffer(&bytes) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    private init(channel: any Channel, received: Received) {
        self.channel = channel
        self.received = received
    }

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (a client that stops
    /// reading then holds up the server's writes sooner).
    static func connect(port: Int, receiveBuffer: Int32? = nil) async throws -> RawClient {
        let received = Received()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Keeper(received)) }
        }
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer)) }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        return RawClient(channel: channel, received: received)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Everything read so far.
    var text: String { received.buffer.withLock { String(buffer: $0) } }
    var byteCount: Int { received.buffer.withLock { $0.readableBytes } }

    /// Stops (false) or resumes (true) reading from the socket.
    func reading(_ on: Bool) async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: on)
        if on { channel.read() }
    }

    var isOpen: Bool { channel.isActive }

    func close() async {
        try? await channel.close()
    }
}
