import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request is not wholly read within `timeout`: from the moment the connection is
/// open, or its last answer was written, to the end of the next request (headers and body). A client that trickles
/// a request (a slowloris) or holds an idle keep-alive connection loses it, and frees what it held; a request being
/// answered (a long SSE stream included) is never cut. Requests sent ahead of their answers (pipelining) are
/// counted, so the next deadline starts only once every request read so far is answered.
///
/// An answer may end before its request does (`GET /health` sent with a body: the router answers from the headers):
/// the request's end, read later, then finds its answer written and the deadline keeps running, so a body sent
/// after its answer cannot hold the connection open.
///
/// Its waits are the channel's event loop's, so tests drive it with an `EmbeddedEventLoop`'s `advanceTime`.
public final class RequestReadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests read whole less answers written whole. Below zero while answers ended before their requests did
    /// (their bodies are still to be read); above zero while requests read whole wait for their answers.
    private var unanswered = 0

    public init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    public func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            unanswered += 1
            if unanswered > 0 {
                disarm()
            } else if deadline == nil {
                arm(context)
            }
        }
        context.fireChannelRead(data)
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd {
            unanswered -= 1
            if unanswered <= 0 { arm(context) }
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
