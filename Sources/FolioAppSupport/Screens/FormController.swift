import FolioTable
import FolioTerminal

/// A form built from table cells, as the seeds build theirs: text-field rows
/// (editing starts when the row is selected) and value1 rows with a
/// disclosure that run an action (push a picker). "Done" (key `e`) calls
/// ``onDone``.
///
/// ```swift
/// let form = FormController(title: "Add Animal", sections: [
///     .init(title: nil, fields: [.text("name", "Common Name"), .text("habitat", "Habitat")]),
/// ])
/// form.onDone = { form in save(form.value("name"), form.value("habitat")) }
/// navigation.push(form)
/// ```
@MainActor
public final class FormController: TableViewController, TableViewDataSource, TableViewDelegate {
    /// One row of the form.
    public struct Field {
        /// What the row does when selected.
        public enum Kind {
            /// An editable line of text with a placeholder.
            case text(placeholder: String)
            /// A value1 row with a disclosure; the action runs on selection.
            case choice(action: @MainActor (FormController) -> Void)
        }

        /// The key its value is read and written by.
        public let key: String
        /// The row's label.
        public let label: String
        /// Text field or choice.
        public let kind: Kind

        /// A text-field row: `.text("name", "Common Name")`.
        public static func text(_ key: String, _ label: String, placeholder: String = "") -> Field {
            Field(key: key, label: label, kind: .text(placeholder: placeholder))
        }

        /// A value1 row that runs `action` when selected: `.choice("category", "Category") { form in ... }`.
        public static func choice(_ key: String, _ label: String, action: @escaping @MainActor (FormController) -> Void) -> Field {
            Field(key: key, label: label, kind: .choice(action: action))
        }
    }

    /// A titled group of rows.
    public struct Section {
        /// The header, if any.
        public let title: String?
        /// The rows.
        public let fields: [Field]

        /// A section: `.init(title: "Location", fields: [...])`.
        public init(title: String?, fields: [Field]) {
            self.title = title
            self.fields = fields
        }
    }

    /// The form's sections.
    public let sections: [Section]
    /// The current values by field key.
    public private(set) var values: [String: String] = [:]
    /// The values as the form showed them from its source (the starting
    /// values, a reset, or the followed object as last read) before the user
    /// touched them.
    public private(set) var shownValues: [String: String] = [:]
    /// The fields the user changed: their value differs from the one shown
    /// (a field edited and typed back as it was is not changed).
    public var editedKeys: Set<String> {
        Set(values.keys).union(shownValues.keys).filter { value($0) != (shownValues[$0] ?? "") }
    }
    /// The fields that are the user's: those changed, and the one being
    /// typed in (its text is not a value until editing ends, but a change
    /// from elsewhere must not replace it unnoticed).
    var userKeys: Set<String> {
        guard let path = editingTextIndexPath, path.section < sections.count,
              path.row < sections[path.section].fields.count else { return editedKeys }
        return editedKeys.union([sections[path.section].fields[path.row].key])
    }
    /// The values of the fields the user changed, the only ones a save
    /// writes: an untouched field keeps what the store has, however another
    /// program changed it meanwhile and however precisely it is stored (a
    /// date shown to the second, a number as text).
    ///
    /// ```swift
    /// if let habitat = form.changedValues["habitat"] { animal.habitat = habitat }
    /// ```
    public var changedValues: [String: String] {
        Dictionary(uniqueKeysWithValues: editedKeys.map { ($0, value($0)) })
    }
    /// Called when Done is pressed (not when the edited object is gone).
    public var onDone: ((FormController) -> Void)?
    /// The object the form edits, when it follows one (see `follow(_:in:noun:values:)`).
    var followed: FollowedObject?

    /// A form titled `title` with `sections` and optional starting values.
    public init(title: String, sections: [Section], values: [String: String] = [:]) {
        self.sections = sections
        self.values = values
        shownValues = values
        super.init(title: title)
        tableView.register(forCellReuseIdentifier: "Text") { TextFieldCell(style: .default, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Choice") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
        navigationItem.rightBarButtonItems = [BarButtonItem(system: .done) { [weak self] in
            guard let self else { return }
            // An object deleted elsewhere is never written to.
            if self.followedObjectIsGone() { return self.closeForGoneObject() }
            self.onDone?(self)
        }]
    }

    /// The value of the field `key` ("" when unset).
    public func value(_ key: String) -> String { values[key] ?? "" }

    /// Sets a field's value as the user chose it (a picker) and redraws its row.
    public func setValue(_ value: String, for key: String) {
        values[key] = value
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// Sets several values at once (a reset after saving); nothing counts as edited.
    public func setValues(_ newValues: [String: String]) {
        values = newValues
        shownValues = newValues
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// Shows a field's value from elsewhere (the object changed), unless it is the user's.
    func refreshValue(_ value: String, for key: String) {
        guard !userKeys.contains(key) else { return }
        values[key] = value
        shownValues[key] = value
    }

    /// Takes `value` as the one the form showed for `key`, keeping the user's text.
    func takeAsShown(_ value: String, for key: String) {
        shownValues[key] = value
    }

    /// What Enter does: edit a text field, or choose for a choice row.
    override public func enterHint(forRowAt indexPath: IndexPath) -> String? {
        guard indexPath.section < sections.count, indexPath.row < sections[indexPath.section].fields.count else { return nil }
        switch sections[indexPath.section].fields[indexPath.row].kind {
        case .text: return "edit text"
        case .choice: return "choose"
        }
    }

    /// The number of sections.
    public func numberOfSections(in tableView: TableView) -> Int { sections.count }

    /// The number of rows in a section.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        sections[section].fields.count
    }

    /// A section's header title.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        sections[section].title
    }

    /// The cell for a row, configured from its data.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let field = sections[indexPath.section].fields[indexPath.row]
        switch field.kind {
        case .text(let placeholder):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Text", for: indexPath)
            guard let textCell = cell as? TextFieldCell else { return cell }
            textCell.textLabel?.text = field.label
            textCell.placeholder = placeholder
            if !textCell.isEditingText { textCell.text = value(field.key) }
            textCell.onCommit = { [weak self] text in
                self?.values[field.key] = text
            }
            return textCell
        case .choice:
            let cell = tableView.dequeueReusableCell(withIdentifier: "Choice", for: indexPath)
            cell.textLabel?.text = field.label
            cell.detailTextLabel?.text = value(field.key)
            cell.accessoryType = .disclosureIndicator
            return cell
        }
    }

    /// The user selected a row.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        if case .choice(let action) = sections[indexPath.section].fields[indexPath.row].kind {
            action(self)
        }
    }
}
