extension FormController {
    /// What a form holds, by key: each field's text and each list's items.
    /// A followed source reports its state in this shape (see
    /// ``FormController/follow(noun:read:)``).
    ///
    /// ```swift
    /// let values = FormController.Values(texts: ["name": "Zerg rush"], lists: ["units": ["Drone", "Zergling"]])
    /// ```
    public struct Values: Equatable, Sendable {
        /// Each text field's value, by key.
        public var texts: [String: String]
        /// Each list section's items, by key.
        public var lists: [String: [String]]

        /// Values with `texts` for the fields and `lists` for the list sections.
        ///
        /// ```swift
        /// let values = FormController.Values(texts: ["name": "Okapi"])
        /// ```
        public init(texts: [String: String] = [:], lists: [String: [String]] = [:]) {
            self.texts = texts
            self.lists = lists
        }

        /// The keys whose value differs from `other`'s (a missing text reads "", a missing list empty).
        func keys(differingFrom other: Values) -> Set<String> {
            let texts = Set(texts.keys).union(other.texts.keys).filter { (self.texts[$0] ?? "") != (other.texts[$0] ?? "") }
            let lists = Set(lists.keys).union(other.lists.keys).filter { (self.lists[$0] ?? []) != (other.lists[$0] ?? []) }
            return texts.union(lists)
        }

        /// Takes the value of `key` from `other`.
        mutating func take(_ key: String, from other: Values) {
            texts[key] = other.texts[key]
            lists[key] = other.lists[key]
        }
    }
}
