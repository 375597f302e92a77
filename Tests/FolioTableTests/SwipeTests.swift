import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md, rules 3.7–3.11: swipe actions.
@MainActor
struct SwipeTests {
    private let fixture = TableFixture([["a", "b", "c"]])
    private var source: TableArrayDataSource { fixture.source }
    private var delegate: TableRecordingDelegate { fixture.delegate }
    private var table: TableView { fixture.table }

    private func p(_ row: Int) -> IndexPath { IndexPath(row: row, section: 0) }

    @Test func rule_3_7_swipeIsItsOwnEditingStateForOneRow() {
        #expect(table.revealTrailingSwipeActions(forRowAt: p(1)))
        #expect(table.isSwipeEditing)
        #expect(!table.isEditing)
        #expect(table.swipedIndexPath == p(1))
        #expect(table.revealTrailingSwipeActions(forRowAt: p(2)))  // at most one row revealed
        #expect(table.swipedIndexPath == p(2))
        table.hideSwipeActions()
        #expect(
            delegate.events.filter { !$0.hasPrefix("editingStyle") } == [
                "willBeginEditing [0, 1]", "didEndEditing [0, 1]", "willBeginEditing [0, 2]", "didEndEditing [0, 2]",
            ])
        #expect(!table.isSwipeEditing)
    }

    @Test func rule_3_7_scrollOrHighlightHidesTheActions() {
        table.revealTrailingSwipeActions(forRowAt: p(1))
        table.scroll(byLines: 1)
        #expect(!table.isSwipeEditing)
        table.revealTrailingSwipeActions(forRowAt: p(1))
        table.moveHighlight(by: 1)
        #expect(!table.isSwipeEditing)
    }

    @Test func rule_3_8_defaultSwipeDeletesThroughCommit() {
        #expect(table.revealTrailingSwipeActions(forRowAt: p(0)))
        #expect(table.revealedSwipeActions.map(\.title) == ["Delete"])
        #expect(table.revealedSwipeActions.first?.style == .destructive)
        table.performFocusedSwipeAction()
        #expect(source.log == ["commit delete [0, 0]"])
        #expect(source.sections == [["b", "c"]])
        #expect(!table.isSwipeEditing)
        #expect(delegate.events.last == "didEndEditing nil")  // the row is gone
        table.checkInvariants()
    }

    @Test func rule_3_8_noSwipeForRowsThatCannotBeEditedOrInEditMode() {
        source.uneditable = [p(1)]
        #expect(!table.revealTrailingSwipeActions(forRowAt: p(1)))
        table.setEditing(true)
        #expect(!table.revealTrailingSwipeActions(forRowAt: p(0)))
    }

    @Test func rule_3_9_emptyConfigurationShowsNothing() {
        delegate.swipeConfigurations[p(0)] = SwipeActionsConfiguration(actions: [])
        #expect(!table.revealTrailingSwipeActions(forRowAt: p(0)))
    }

    @Test func rule_3_10_actionsZeroIsOutermostAndFullSwipePerformsIt() {
        var performed: [String] = []
        let flag = ContextualAction(style: .normal, title: "Flag") { _, done in
            performed.append("Flag"); done(true)
        }
        let more = ContextualAction(style: .normal, title: "More") { _, done in
            performed.append("More"); done(false)
        }
        delegate.swipeConfigurations[p(0)] = SwipeActionsConfiguration(actions: [flag, more])
        table.revealTrailingSwipeActions(forRowAt: p(0))
        #expect(table.focusedSwipeActionIndex == 1)  // the innermost, nearest the text
        #expect(table.focusNextSwipeAction())
        #expect(table.focusedSwipeActionIndex == 0)
        #expect(!table.focusNextSwipeAction())
        #expect(table.focusPreviousSwipeAction())
        table.performFocusedSwipeAction()
        #expect(performed == ["More"])
        #expect(!table.isSwipeEditing)  // completion(false) also closes
        #expect(table.performFullSwipe(onRowAt: p(0)))
        #expect(performed == ["More", "Flag"])
        let configuration = SwipeActionsConfiguration(actions: [flag])
        configuration.performsFirstActionWithFullSwipe = false
        delegate.swipeConfigurations[p(1)] = configuration
        #expect(!table.performFullSwipe(onRowAt: p(1)))
    }

    @Test func rule_3_11_completionMayComeLater() {
        var pending: (@MainActor (Bool) -> Void)?
        let ask = ContextualAction(style: .destructive, title: "Delete") { _, done in pending = done }
        delegate.swipeConfigurations[p(2)] = SwipeActionsConfiguration(actions: [ask])
        table.revealTrailingSwipeActions(forRowAt: p(2))
        table.performFocusedSwipeAction()
        #expect(table.isSwipeEditing)  // e.g. a confirmation sheet is open
        pending?(false)
        #expect(!table.isSwipeEditing)
        #expect(ContextualAction.Style.destructive.rawValue == 1)
    }
}
