import HTTPTypes

/// The HTTP side of a call, for the few handlers that need it (`Endpoint.exchange`): the request's headers and
/// the authority (`Host`) it was sent to.
public struct HTTPExchange: Sendable {
    public var headers: HTTPFields
    public var authority: String?

    public init(headers: HTTPFields, authority: String?) {
        self.headers = headers
        self.authority = authority
    }
}

/// A handler's answer: the `data` of the success envelope and the headers added to the response.
public struct Answer<Output: Encodable & Sendable>: Sendable {
    public var data: Output
    public var headers: HTTPFields

    public init(data: Output, headers: HTTPFields = [:]) {
        self.data = data
        self.headers = headers
    }
}
