import NIOCore

/// Closes a connection whose client stops taking its answer: when something written is still waiting for the socket
/// `timeout` after the last write the socket took (or after it was written, when nothing was waiting before), the
/// client is not reading, and the connection goes with what it held (an SSE stream's producer included, which the
/// channel's back-pressure had suspended). A client that reads, however slowly, keeps it; a connection with nothing
/// to write (idle, or an SSE stream waiting for its next event) has no write deadline: the read deadline
/// (`RequestReadDeadline`) is the one that ends idle connections.
///
/// Its waits are the channel's event loop's, so tests drive it with an `EmbeddedEventLoop`'s `advanceTime`.
public final class ResponseWriteDeadline: ChannelOutboundHandler, RemovableChannelHandler {
    public typealias OutboundIn = NIOAny
    public typealias OutboundOut = NIOAny

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Writes passed on that the socket has not taken yet.
    private var waiting = 0

    public init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Its own promise, on this loop, so that the count is kept where the handler lives.
        let taken = context.eventLoop.makePromise(of: Void.self)
        if let promise { taken.futureResult.cascade(to: promise) }
        waiting += 1
        if waiting == 1 { arm(context) }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        taken.futureResult.whenComplete { _ in
            bound.value.handler.taken(bound.value.context)
        }
        context.write(data, promise: taken)
    }

    /// A write left for the socket (or failed, as every waiting write does when the connection closes): progress.
    private func taken(_ context: ChannelHandlerContext) {
        waiting -= 1
        if waiting > 0 && context.channel.isActive {
            arm(context)
        } else {
            disarm()
        }
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            bound.value.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
