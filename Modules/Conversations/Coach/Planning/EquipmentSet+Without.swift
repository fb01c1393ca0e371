extension EquipmentSet {
    /// This equipment less the kinds the user said they lack or will not use ("no barbell", "no machines"); a full
    /// gym less them is every other kind. Bodyweight always stays.
    func without(_ lacking: Set<Kind>) -> EquipmentSet {
        guard !lacking.isEmpty else { return self }
        let kinds = self.kinds ?? Set(Kind.allCases)
        return EquipmentSet(kinds.subtracting(lacking))
    }
}
