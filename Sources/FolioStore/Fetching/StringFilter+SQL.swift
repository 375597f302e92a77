extension StringFilter {
    /// The filter as an SQL condition on `builder`'s tables: each attribute's
    /// column, folded by `folio_fold` when there are options, against the
    /// folded needle bound once per attribute; attributes ORed.
    func condition(_ builder: SQLQueryBuilder) throws -> String {
        let needle = foldedNeedle
        let flags = TextFolding.flags(options)
        var terms: [String] = []
        for keyPath in keyPaths {
            let chain = try builder.root.resolve(keyPath: keyPath)
            guard let last = chain.last, last.isAttribute, last.storeType == .text else {
                throw StoreError.unsupportedPredicate(
                    "a StringFilter on \(chain.map(\.name).joined(separator: ".")) of \(builder.root.name), which is not a String attribute"
                )
            }
            let column = builder.column(for: chain)
            let text = options.isEmpty ? column : "folio_fold(\(column), \(flags))"
            let dialect = builder.dialect
            switch match {
            case .equals:
                terms.append("(\(text) = \(builder.bind(.text(needle))))")
            case .contains:
                terms.append("(\(dialect.position(of: builder.bind(.text(needle)), in: text)) > 0)")
            case .beginsWith:
                terms.append("(\(dialect.position(of: builder.bind(.text(needle)), in: text)) = 1)")
            case .endsWith:
                if needle.isEmpty { terms.append("(\(column) IS NOT NULL)"); continue }
                let count = dialect.length(builder.bind(.text(needle)))
                terms.append("(\(dialect.suffix(of: text, count: count)) = \(builder.bind(.text(needle))))")
            }
        }
        return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
    }
}
