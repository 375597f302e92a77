extension FormController {
    /// What a form holds, by key: each field's text and each list's items.
    struct Values: Equatable {
        var texts: [String: String] = [:]
        var lists: [String: [String]] = [:]

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
