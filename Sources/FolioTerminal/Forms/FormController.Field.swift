extension FormController {
    /// One row of the form.
    ///
    /// ```swift
    /// .text("name", "Common Name", placeholder: "(required)")
    /// ```
    public struct Field {
        /// What the row does when selected.
        public enum Kind {
            /// An editable line of text with a placeholder.
            case text(placeholder: String)
            /// A value1 row with a disclosure; the action runs on selection.
            case choice(action: @MainActor (FormController) -> Void)
            /// A row that holds no value and runs the action on selection ("Add a Unit").
            case button(action: @MainActor (FormController) -> Void)
        }

        /// The key its value is read and written by.
        public let key: String
        /// The row's label.
        public let label: String
        /// Text field, choice or button.
        public let kind: Kind
        /// What Enter does on the row, for the hint bar ("choose the race").
        public let hint: String?

        /// A text-field row: `.text("name", "Common Name")`.
        ///
        /// ```swift
        /// .text("latitude", "Latitude", placeholder: "-90 to 90")
        /// ```
        public static func text(_ key: String, _ label: String, placeholder: String = "") -> Field {
            Field(key: key, label: label, kind: .text(placeholder: placeholder), hint: nil)
        }

        /// A value1 row that runs `action` when selected: `.choice("category", "Category") { form in ... }`.
        ///
        /// ```swift
        /// .choice("category", "Category") { form in form.navigationController?.push(picker) }
        /// ```
        public static func choice(
            _ key: String, _ label: String, hint: String = "choose",
            action: @escaping @MainActor (FormController) -> Void
        ) -> Field {
            Field(key: key, label: label, kind: .choice(action: action), hint: hint)
        }

        /// A row that runs `action` when selected and holds no value:
        /// `.button("addUnit", "Add a Unit", hint: "add a unit") { form in ... }`.
        ///
        /// ```swift
        /// .button("addUnit", "Add a Unit", hint: "add a unit") { form in form.appendItem("Pylon", to: "units") }
        /// ```
        public static func button(
            _ key: String, _ label: String, hint: String,
            action: @escaping @MainActor (FormController) -> Void
        ) -> Field {
            Field(key: key, label: label, kind: .button(action: action), hint: hint)
        }
    }

    /// A titled group of rows: fields, or the items of a list value.
    ///
    /// ```swift
    /// FormController.Section(title: "Location", fields: [.text("latitude", "Latitude")])
    /// ```
    public struct Section {
        /// The header, if any.
        public let title: String?
        /// The rows, for a section of fields (none for a list section).
        public let fields: [Field]
        /// The key of the list value whose items are the rows, for a list section.
        public let listKey: String?
        /// An item's secondary text in a list section, read from the form as it is
        /// (a unit's type depends on the race chosen in the same form).
        let detail: @MainActor (FormController, String) -> String?

        /// A section of fields: `.init(title: "Location", fields: [...])`.
        ///
        /// ```swift
        /// .init(title: "Description", fields: [.text("description", "Description")])
        /// ```
        public init(title: String?, fields: [Field]) {
            self.title = title
            self.fields = fields
            listKey = nil
            detail = { _, _ in nil }
        }

        /// A section whose rows are the items of the list value `key` (a
        /// build order), each with `detail` as its secondary text, given the
        /// form and the item. A form holding one is in edit mode: an item is
        /// deleted with `d` and moved with K/J, never out of its section.
        ///
        /// ```swift
        /// .list("units", title: "Build Order") { form, unit in catalogue[form.value("race")]?[unit]?.type }
        /// ```
        public static func list(
            _ key: String, title: String?,
            detail: @escaping @MainActor (FormController, String) -> String? = { _, _ in nil }
        ) -> Section {
            Section(title: title, fields: [], listKey: key, detail: detail)
        }

        private init(
            title: String?, fields: [Field], listKey: String?,
            detail: @escaping @MainActor (FormController, String) -> String?
        ) {
            self.title = title
            self.fields = fields
            self.listKey = listKey
            self.detail = detail
        }
    }
}
