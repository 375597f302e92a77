import FolioAdapters
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// `folio` with no arguments: a table of the four apps. Enter opens one on
/// its default store, Esc (on the app's first screen) returns here, q quits.
///
/// ```swift
/// let launcher = LauncherController(apps: [PlanetsApp.self, ZootasticApp.self], environment: env)
/// try await Application.run(launcher)
/// ```
@MainActor
public final class LauncherController: ViewController {
    private let apps: [any FolioApp.Type]
    private let environment: [String: String]
    private let list: NavigationController
    private let menu: AppMenuController
    /// The app open now, if any.
    public private(set) var openApp: ViewController?

    /// A launcher over `apps`, whose stores follow `environment`'s `XDG_DATA_HOME` / `HOME`.
    public init(apps: [any FolioApp.Type], environment: [String: String]) {
        self.apps = apps
        self.environment = environment
        menu = AppMenuController(apps: apps)
        list = NavigationController(root: menu)
        super.init(title: "Folio")
        addChild(list)
        menu.onOpen = { [weak self] index in self?.open(index) }
    }

    var current: ViewController { openApp ?? list }

    /// Whether an app is being opened (its store waits for another program's write lock).
    public private(set) var isOpening = false

    /// Opens the app at `index` in the launcher's list. Opening a store
    /// writes to it for a moment, so while another program holds its write
    /// lock the launcher waits off the main actor, keeps taking keys and
    /// says "opening…" in the hint bar; the app appears when the lock is free.
    public func open(_ index: Int) {
        guard !isOpening else { return application?.showNotice("Still opening an app: wait for it") ?? () }
        let app = apps[index]
        let url: URL, replica: URL?
        do {
            url = try StoreLocation.resolve(app: app.command, explicitPath: nil, environment: environment)
            replica = try StoreLocation.resolveReplica(explicitPath: nil, store: url, environment: environment)
        } catch {
            return presentError(title: "Cannot Open \(app.title)", message: ErrorText.sentence(for: error, namingTheStore: true))
        }
        isOpening = true
        let application = self.application
        application?.status = Self.openingStatus
        Task { @MainActor [weak self] in
            await PersistentContainer.waitUntilWritable(AppStore.description(url, replica: replica))
            if application?.status == Self.openingStatus { application?.status = nil }
            guard let self else { return }
            self.isOpening = false
            self.finishOpening(app, at: url, replica: replica)
        }
    }

    /// What the hint bar shows while an app's store waits to be opened.
    static var openingStatus: String { "opening…" }

    private func finishOpening(_ app: any FolioApp.Type, at url: URL, replica: URL?) {
        do {
            let screen = try app.makeScreen(storeURL: url, replica: replica)
            openApp = screen
            addChild(screen)
        } catch {
            presentError(title: "Cannot Open \(app.title)", message: ErrorText.sentence(for: error, namingTheStore: true))
        }
        setNeedsDisplay()
    }

    /// Back to the list of apps.
    public func closeApp() {
        openApp?.removeFromParent()
        openApp = nil
        addChild(list)
        list.viewWillAppear()
        setNeedsDisplay()
    }

    /// Draws the open app, or the list of apps.
    override public func draw(into screen: inout Screen, in rect: Rect) {
        current.frame = rect
        current.draw(into: &screen, in: rect)
    }

    /// The app first; Esc that the app leaves unused (on its first screen) returns here.
    override public func handle(_ event: InputEvent) -> Bool {
        if current.handle(event) { return true }
        if openApp != nil, case .key(let key) = event, key == Key(.escape) {
            closeApp()
            return true
        }
        return false
    }

    /// The open app's keys, plus Esc to return to the apps.
    override public var keyHints: [KeyHint] {
        openApp == nil ? current.keyHints : current.keyHints + (current.canQuit ? [KeyHint("Esc", "apps")] : [])
    }

    /// The open app's sync status (set by the app; none over the list of apps).
    override public var syncIndicator: SyncIndicator? {
        get { openApp?.syncIndicator }
        set { openApp?.syncIndicator = newValue }
    }

    /// Whether the screen shown may quit.
    override public var canQuit: Bool { current.canQuit }
    /// Whether the screen shown is editing text.
    override public var isEditingText: Bool { current.isEditingText }
    /// Passes the call to the screen shown.
    override public func viewWillAppear() { current.viewWillAppear() }
}

extension LauncherController: DebugInspectable {
    package var debugVisibleChild: ViewController? { current }
}

/// The launcher's table: one subtitle row per app (title, summary).
@MainActor
final class AppMenuController: TableViewController, TableViewDataSource, TableViewDelegate {
    private let apps: [any FolioApp.Type]
    var onOpen: ((Int) -> Void)?

    init(apps: [any FolioApp.Type]) {
        self.apps = apps
        super.init(title: "Folio")
        tableView.register(forCellReuseIdentifier: "App") { TableViewCell(style: .subtitle, reuseIdentifier: $0) }
        // Compact: each app's summary follows its name on the one line.
        tableView.rowHeight = 1
        tableView.dataSource = self
        tableView.delegate = self
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { apps.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "App", for: indexPath)
        // Titles padded to the longest, so that the summaries form a column.
        let width = apps.map { DisplayWidth.of($0.title) }.max() ?? 0
        let title = apps[indexPath.row].title
        cell.textLabel?.text = title + String(repeating: " ", count: width - DisplayWidth.of(title))
        cell.detailTextLabel?.text = apps[indexPath.row].summary
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        onOpen?(indexPath.row)
    }

    override func enterHint(forRowAt indexPath: IndexPath) -> String? { "open" }
}
