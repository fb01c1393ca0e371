/// Muscle groups and body areas as lifters name them, and the words that say an area hurts.
enum BodyLexicon {
    static let muscles = PhraseTable<MuscleGroup>(
        [
            ("chest", .chest), ("pecs", .chest), ("pec", .chest), ("pectorals", .chest), ("pectoral", .chest), ("back", .back),
            ("upper back", .back), ("lats", .lats), ("lat", .lats), ("traps", .traps), ("trap", .traps), ("lower back", .lowerBack),
            ("shoulders", .shoulders), ("shoulder", .shoulders), ("delts", .shoulders), ("delt", .shoulders), ("deltoids", .shoulders),
            ("side delts", .shoulders), ("rear delts", .shoulders), ("front delts", .shoulders), ("side delt", .shoulders),
            ("rear delt", .shoulders), ("arms", .arms), ("arm", .arms), ("guns", .arms), ("biceps", .biceps), ("bicep", .biceps),
            ("bis", .biceps), ("triceps", .triceps), ("tricep", .triceps), ("tris", .triceps), ("forearms", .forearms),
            ("forearm", .forearms), ("legs", .legs), ("leg", .legs), ("quads", .quads), ("quad", .quads), ("quadriceps", .quads),
            ("hamstrings", .hamstrings), ("hamstring", .hamstrings), ("hams", .hamstrings), ("hammies", .hamstrings),
            ("hammy", .hamstrings),
            ("glutes", .glutes), ("glute", .glutes), ("butt", .glutes), ("booty", .glutes), ("bum", .glutes), ("calves", .calves),
            ("calf", .calves), ("core", .core), ("abs", .core), ("ab", .core), ("six pack", .core), ("sixpack", .core),
            ("obliques", .core), ("midsection", .core),
        ])

    /// Body areas; `back` and the like need a word saying it hurts nearby (`hurtWords`), the phrases in `selfHurting`
    /// say it themselves.
    static let areas = PhraseTable<BodyArea>(
        [
            ("knee", .knees), ("knees", .knees), ("lower back", .lowerBack), ("low back", .lowerBack), ("back", .lowerBack),
            ("spine", .lowerBack), ("disc", .lowerBack), ("discs", .lowerBack), ("shoulder", .shoulders), ("shoulders", .shoulders),
            ("rotator cuff", .shoulders), ("elbow", .elbows), ("elbows", .elbows), ("wrist", .wrists), ("wrists", .wrists),
            ("hip", .hips), ("hips", .hips), ("neck", .neck), ("ankle", .ankles), ("ankles", .ankles),
        ])
    static let selfHurting = PhraseTable<BodyArea>(
        [
            ("sciatica", .lowerBack), ("herniated disc", .lowerBack), ("slipped disc", .lowerBack), ("bulging disc", .lowerBack),
            ("tennis elbow", .elbows), ("golfers elbow", .elbows), ("rotator cuff", .shoulders), ("impingement", .shoulders),
            ("meniscus", .knees), ("acl", .knees), ("patellar tendonitis", .knees), ("achilles", .ankles), ("labrum", .shoulders),
        ])
    static let hurtWords: Set<String> = [
        "hurt", "hurts", "hurting", "injured", "injury", "injuries", "injure", "pain", "pains", "painful", "bad", "tweaked", "tweak",
        "strained", "strain", "sprained", "sprain", "torn", "tore", "surgery", "tendonitis", "tendinitis", "arthritis", "ache", "aches",
        "achy", "aching", "sore", "cranky", "clicks", "clicking", "killing", "messed", "busted", "dodgy", "issue", "issues", "problem",
        "problems", "pulled", "spare", "avoid", "protect", "easy", "easier", "gentle", "recovering", "rehab", "diagnose",
        "painkillers", "hates", "niggle", "niggling", "bothering", "bothers", "flaring", "impingement", "swollen", "swelling", "inflamed",
        "stiff", "twinge", "twinged", "physio", "physiotherapist", "chiropractor", "doctor",
    ]
}
