import HTTPTypes

extension HTTPField.Name {
    // cannot trap: a header name spelled here is a valid token
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    /// RFC 7239's header, and nginx's habit: either says a proxy relayed the request for some other client.
    static let forwarded = HTTPField.Name("Forwarded")!
    static let xRealIP = HTTPField.Name("X-Real-IP")!
}
