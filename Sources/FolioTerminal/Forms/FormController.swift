import FolioTable

/// A form built from table cells, as the seeds build theirs: text-field rows
/// (editing starts when the row is selected), value1 rows with a disclosure
/// that run an action (push a picker), button rows, and list sections whose
/// rows are the items of a list value (deleted and reordered in edit mode).
/// The form holds its values apart from any object: "Done" (key `e`) calls
/// ``onDone``, Esc (back) discards them. ``editedKeys`` and ``changedValues``
/// say what the user changed, so a save writes only that; a form that
/// edits something others may change meanwhile follows it
/// (``follow(noun:read:)``).
///
/// ```swift
/// let form = FormController(title: "Add Animal", sections: [
///     .init(title: nil, fields: [.text("name", "Common Name"), .text("habitat", "Habitat")]),
/// ])
/// form.onDone = { form in save(form.value("name"), form.value("habitat")) }
/// navigation.push(form)
/// ```
@MainActor
public final class FormController: TableViewController, TableViewEditingDataSource, TableViewReorderingDataSource,
    TableViewDelegate
{
    /// The form's sections.
    public let sections: [Section]
    /// What the form holds now.
    var current: Values
    /// The values as the form showed them from its source (the starting
    /// values, a reset, or the followed source as last read) before the user
    /// touched them.
    var shown: Values
    /// The current text values by field key.
    ///
    /// ```swift
    /// let typed = form.values["name"]
    /// ```
    public var values: [String: String] { current.texts }
    /// The text values as the form showed them before the user touched them.
    public var shownValues: [String: String] { shown.texts }
    /// Keys whose values only make sense together (a guide's race and its
    /// build order): the user's change to one makes them all the user's, so
    /// a save writes them together and a change elsewhere to any of them is
    /// pointed out rather than adopted under the user's edit.
    ///
    /// ```swift
    /// form.keptTogether = [["race", "units"]]
    /// ```
    public var keptTogether: [Set<String>] = []
    /// The fields the user changed: their value differs from the one shown
    /// (a field edited and typed back as it was is not changed), with the
    /// keys kept together with them.
    ///
    /// ```swift
    /// if form.editedKeys.contains("units") { guide.units = form.items("units") }
    /// ```
    public var editedKeys: Set<String> {
        let edited = current.keys(differingFrom: shown)
        return keptTogether.reduce(edited) { keys, group in keys.isDisjoint(with: group) ? keys : keys.union(group) }
    }
    /// The fields that are the user's: those changed, and the one being
    /// typed in (its text is not a value until editing ends, but a change
    /// from elsewhere must not replace it unnoticed).
    var userKeys: Set<String> {
        guard let path = editingTextIndexPath, let field = field(at: path) else { return editedKeys }
        return editedKeys.union([field.key])
    }
    /// The text values of the fields the user changed, the only ones a save
    /// writes: an untouched field keeps what the store has, however another
    /// program changed it meanwhile and however precisely it is stored (a
    /// date shown to the second, a number as text).
    ///
    /// ```swift
    /// if let habitat = form.changedValues["habitat"] { animal.habitat = habitat }
    /// ```
    public var changedValues: [String: String] {
        Dictionary(uniqueKeysWithValues: editedKeys.filter { current.lists[$0] == nil }.map { ($0, value($0)) })
    }
    /// Called when Done is pressed (not when the edited object is gone).
    ///
    /// ```swift
    /// form.onDone = { form in save(form.changedValues); form.close() }
    /// ```
    public var onDone: ((FormController) -> Void)?
    /// What the form edits, when it follows something (see ``follow(noun:read:)``).
    var followed: FollowedSource?
    /// Whether Done's save is waiting or running (FolioAdapters' `save(in:touching:_:onSaved:)`):
    /// a second Done meanwhile only says it is still saving.
    ///
    /// ```swift
    /// if form.isSavingDone { return }
    /// ```
    public package(set) var isSavingDone = false
    /// The followed source's values as the form had read them when Done was pressed, while its save waits.
    var shownAtDone: Values?

    /// A form titled `title` with `sections` and optional starting values
    /// (`lists` for its list sections).
    ///
    /// ```swift
    /// let form = FormController(title: "Edit", sections: sections, values: ["name": "Okapi"])
    /// ```
    public init(title: String, sections: [Section], values: [String: String] = [:], lists: [String: [String]] = [:]) {
        self.sections = sections
        current = Values(texts: values, lists: lists)
        shown = current
        super.init(title: title)
        tableView.register(forCellReuseIdentifier: "Text") { TextFieldCell(style: .default, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Choice") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Button") { TableViewCell(style: .default, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Item") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
        if sections.contains(where: { $0.listKey != nil }) {
            // The list's delete markers and reorder handles show, and the other rows still work.
            tableView.allowsSelectionDuringEditing = true
            setEditing(true)
        }
        navigationItem.rightBarButtonItems = [
            BarButtonItem(system: .done) { [weak self] in
                guard let self else { return }
                if self.isSavingDone { return self.application?.showNotice(Self.stillSaving) ?? () }
                // A source gone elsewhere is never written to.
                if self.followedSourceIsGone() { return self.closeForGoneSource() }
                self.onDone?(self)
            }
        ]
    }

    /// A pushed form puts Cancel (Esc) where the back button was, as an
    /// iOS edit form does: leaving it discards what it holds, and its bar and
    /// hints say so rather than "back".
    override public func viewWillAppear() {
        super.viewWillAppear()
        guard let navigation = navigationController, navigation.viewControllers.first !== self else { return }
        navigationItem.leftBarButtonItem = BarButtonItem(system: .cancel) { [weak self] in
            guard let self, let navigation = self.navigationController, navigation.topViewController === self else { return }
            navigation.pop()
        }
    }

    /// The value of the field `key` ("" when unset).
    ///
    /// ```swift
    /// let name = form.value("name")
    /// ```
    public func value(_ key: String) -> String { current.texts[key] ?? "" }

    /// Sets a field's value as the user chose it (a picker) and redraws its
    /// row; it counts as edited when it differs from the value shown.
    ///
    /// ```swift
    /// picker.onChoose = { form.setValue($0, for: "category") }
    /// ```
    public func setValue(_ value: String, for key: String) {
        current.texts[key] = value
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// Sets several values at once (a reset after saving); nothing counts as edited.
    ///
    /// ```swift
    /// form.setValues(["name": "", "habitat": ""])
    /// ```
    public func setValues(_ newValues: [String: String], lists: [String: [String]] = [:]) {
        current = Values(texts: newValues, lists: lists)
        shown = current
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// Shows a value from elsewhere (the object changed), unless it is the user's.
    func refreshValue(_ key: String, from fresh: Values) {
        guard !userKeys.contains(key) else { return }
        current.take(key, from: fresh)
        shown.take(key, from: fresh)
    }

    /// Takes the value of `key` in `fresh` as the one the form showed, keeping the user's.
    func takeAsShown(_ key: String, from fresh: Values) {
        shown.take(key, from: fresh)
    }

    /// The field a row shows, or nil for a list item.
    func field(at indexPath: IndexPath) -> Field? {
        guard indexPath.section < sections.count, indexPath.row < sections[indexPath.section].fields.count else { return nil }
        return sections[indexPath.section].fields[indexPath.row]
    }

    /// What Enter does: edit a text field, choose for a choice row, the button's action.
    override public func enterHint(forRowAt indexPath: IndexPath) -> String? {
        guard let field = field(at: indexPath) else { return nil }
        if case .text = field.kind { return "edit text" }
        return field.hint
    }

    /// The number of sections.
    public func numberOfSections(in tableView: TableView) -> Int { sections.count }

    /// The number of rows in a section.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        sections[section].listKey.map { items($0).count } ?? sections[section].fields.count
    }

    /// A section's header title.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        sections[section].title
    }

    /// The cell for a row, configured from its data.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        guard let field = field(at: indexPath) else { return itemCell(tableView, at: indexPath) }
        switch field.kind {
        case .text(let placeholder):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Text", for: indexPath)
            guard let textCell = cell as? TextFieldCell else { return cell }
            textCell.textLabel?.text = field.label
            textCell.placeholder = placeholder
            if !textCell.isEditingText { textCell.text = value(field.key) }
            textCell.onCommit = { [weak self] text in
                self?.current.texts[field.key] = text
            }
            return textCell
        case .choice:
            let cell = tableView.dequeueReusableCell(withIdentifier: "Choice", for: indexPath)
            cell.textLabel?.text = field.label
            cell.detailTextLabel?.text = value(field.key)
            cell.accessoryType = .disclosureIndicator
            cell.editingAccessoryType = .disclosureIndicator
            return cell
        case .button:
            let cell = tableView.dequeueReusableCell(withIdentifier: "Button", for: indexPath)
            cell.textLabel?.text = field.label
            return cell
        }
    }

    /// The user selected a row.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        switch field(at: indexPath)?.kind {
        case .choice(let action)?, .button(let action)?: action(self)
        default: break
        }
    }
}
