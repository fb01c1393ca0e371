import Foundation
import Platform
import Testing

@Suite struct FlatJSONTests {
    @Test func readsFlatObjectsStrictly() throws {
        let object = try #require(FlatJSONObject(Data(#" { "a" : "x\u00e9\n" , "b":-1.5e3,"c":true,"d":null,"e":0 } "#.utf8)))
        #expect(object["a"] == .string("xé\n"))
        #expect(object.double("b") == -1500)
        #expect(object.integer("b") == nil)
        #expect(object["c"] == .bool(true))
        #expect(object["d"] == .null)
        #expect(object.integer("e") == 0)
        #expect(FlatJSONObject(Data("{}".utf8))?.values.isEmpty == true)
        for text in [
            #"{"a":1,"a":2}"#, #"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":1}{"#, #"{"a":-}"#, #"{"a":1.}"#, #"{"a":tru}"#, #"{"a":"\x"}"#,
            #"{'a':1}"#, "[1]", "",
        ] {
            #expect(FlatJSONObject(Data(text.utf8)) == nil, "\(text)")
        }
        // Text other than ASCII is read as UTF-8 and must be valid.
        #expect(FlatJSONObject(Data(#"{"a":"Łódź 💪"}"#.utf8))?.string("a") == "Łódź 💪")
        #expect(FlatJSONObject(Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D])) == nil)  // {"a":"\xC3("}
        #expect(FlatJSONObject(Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D])) == nil)
        // Large objects are left to JSONDecoder.
        let members = { (count: Int) in "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}" }
        #expect(
            FlatJSONObject(Data(members(FlatJSONObject.maxMembers).utf8))?.integer("k\(FlatJSONObject.maxMembers - 1)") == FlatJSONObject
                .maxMembers - 1)
        #expect(FlatJSONObject(Data(members(FlatJSONObject.maxMembers + 1).utf8)) == nil)
    }
}
