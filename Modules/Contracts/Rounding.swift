extension Double {
    /// To the nearest tenth (halves away from zero): how the API and every text show kilograms, pounds, sets and
    /// minutes. The stored numbers stay exact; only what is shown is rounded, once.
    public var roundedToTenth: Double { (self * 10).rounded() / 10 }
}
