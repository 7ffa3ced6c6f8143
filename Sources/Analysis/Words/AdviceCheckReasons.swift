/// Why an advice check could not replay an item's advice.
enum AdviceCheckReasons {
    /// A call whose cause is not named, so no advice follows from it.
    static let noCauseNamed = "no cause is named"
    /// An item that points at no record, so no edit has a place.
    static let namesNoRecord = "the item names no record"
    /// An item past the number of replays one check makes.
    static func beyondCap(_ cap: Int) -> String { "more than \(cap) items: left unchecked" }
    /// An advice that acts on a record after the item, when there is none.
    static let nothingFollows = "no record follows the item where the advice would act"
}
