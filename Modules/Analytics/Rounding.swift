extension Double {
    /// To the nearest tenth: how Analytics shows kilograms, sets and minutes (the stored numbers stay exact).
    var roundedToTenth: Double { (self * 10).rounded() / 10 }
}
