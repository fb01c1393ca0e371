import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// gzip (RFC 1952) of a whole file, done once when the web app's files are loaded: swift-nio-extras' zlib
/// compressor, driven through an in-memory channel as if the bytes were a request body.
enum Gzip {
    /// The gzip stream of `bytes`, or nil when the compressor gives nothing back.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        let channel = EmbeddedChannel(handler: NIOHTTPRequestCompressor(encoding: .gzip))
        defer { _ = try? channel.finish() }
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: bytes))), promise: nil)
        channel.write(HTTPClientRequestPart.end(nil), promise: nil)
        channel.flush()
        var output: [UInt8] = []
        while let part = try? channel.readOutbound(as: HTTPClientRequestPart.self) {
            if case .body(.byteBuffer(let buffer)) = part { output += buffer.readableBytesView }
        }
        return output.isEmpty ? nil : output
    }
}
