import HTTPTypes

extension HTTPField.Name {
    // cannot trap: a header name spelled here is a valid token
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
