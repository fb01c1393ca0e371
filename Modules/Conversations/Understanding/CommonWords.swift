import Foundation

/// Everyday English words the typo corrector must leave alone: without them "half" would become "calf" and "lets"
/// "lats". Function words, the common verbs and the nouns of chat.
enum CommonWords {
    static let list: [String] = """
        a about above after again against all almost alone along already also although always am among an and another any anyone \
        anything anyway are around as ask asked at away back bad be because been before being below best better between big bit \
        both but by call came can cant come could day did didnt do does doesnt doing done dont down during each early easy else \
        end enough even ever every everyone everything far feel feels felt few find fine first for found from full get gets getting \
        give given go goes going gone good got great had half happy has have havent having he help her here hers high him his hold \
        home how however i id if ill im in into is isnt it its itll ive just keep kind know last late later least less let lets \
        life like likely little long look looking lot lots made make many may maybe me mean might mine more most much must my \
        myself near need needs never new next nice no none nor not nothing now of off often ok okay old on once one only or other \
        our out over own part past people per pick place plan please point pretty put quick quite rather really right run said \
        same say says see seem seems set she should show since small so some someone something sometimes soon sorry start still \
        such sure take takes talk tell than that thats the their them then there these they thing things think this those though \
        through till time to today too took top tried try trying turn two under until up upon us use used using very wait want \
        wanted was way we week well went were what whats when where which while who whole why will with without wont work \
        working would wrong yeah year yes yet you your youre yours \
        able add age ago agree air almost answer anymore apart area arm around awesome baby bar base bed bet bit body \
        book bored boring bring broke broken brother build busy buy car care case cause change check class clear close \
        cold cool couple course cut dad date dead deal dear decide deep die diet dinner doctor dog door double drive \
        drop easy eat eight else email enjoy evening exactly extra eye face fact fair fall family fast fat father feet \
        fight fill finally fire five fix floor fly food foot form four free friend front fun funny game gave girl glad \
        goal gold guess guy hand hands hang hard hate head heads health hear heard heart heavy hell hey hi hit hope hot \
        hour house huge idea job join jump key kid kids kill knew land large laugh lazy lead learn leave left leg lie \
        light line list live load lol lose lost loud love low luck main man mark matter meal meet meme mid mind minute \
        miss mom money month morning mother move movie music name nap neck news night nine note number odd open order \
        pack page paid pain pair pass pay phone plus pool poor post power pull push quit race rain rate read ready real \
        reason rest ride ring road rock room round rule safe sale save school seat send sense seven shape share short \
        shot side sign simple sister sit six size skip sleep slow smart son song sound space speed spend spot stand star \
        stay step stop story straight street stuff style sun super table tall team test text thanks thank thin third \
        three tired told tomorrow tonight total tough town track train tree trip true tv type under update upper vacation \
        view walk wall war warm wash watch water weak wear weather weekend weight wife win window wish woman word world \
        worry worse worth wow write yard yell young zero \
        straps strap belt chalk wraps gloves shoes different difference exercise exercises routine program problem \
        question questions result results recovery rest effort energy tired sore soreness stretch stretching warm warmup \
        running run runner cardio bike cycling swim swimming walk walking hike yoga pilates sport sports football soccer \
        basketball tennis golf boxing climbing marathon stairs step steps dance class coach coaching trainer friend \
        partner spotter machine weights plates bench rack mirror locker shower bag bottle towel phone app watch tracker \
        calendar schedule weekday weekends holiday trip morning afternoon night lunch break office work job shift \
        kid kids baby wife husband parent older younger student summer winter spring autumn fall january \
        february march april june july august september october november december
        """.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
}
