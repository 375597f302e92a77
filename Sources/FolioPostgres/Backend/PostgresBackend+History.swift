import FolioStore

// The history table's form: rows carry their mark as their position (see PostgresHistory).
extension PostgresBackend {
    /// What an older build meets when it saves here: its history row names
    /// no position, and the default refuses it.
    static let olderBuildRefusal = "this store's history is kept by a newer version of Folio; update this program to save here"

    /// Makes the history table, or moves one of the older form (positions
    /// drawn from a sequence under a lock) to marks: the old positions stay
    /// as they were, the sequence orders rows of one mark. Then, when a
    /// position in the store is past the newest completed transaction
    /// (a store older than its marks, or restored into another cluster),
    /// the history is trimmed through the newest ID, so every reader
    /// reloads once rather than wait for IDs to pass what it read.
    func prepareHistory() throws {
        let table = try connection.scalar("SELECT to_regclass('folio_history') IS NOT NULL") == .integer(1)
        let marked = try isHistoryMarked()
        if !table || !marked {
            try connection.execute(
                """
                CREATE OR REPLACE FUNCTION folio_history_unmarked() RETURNS bigint LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION '\(Self.olderBuildRefusal.replacingOccurrences(of: "'", with: "''"))'; END $$
                """)
        }
        if !table {
            try connection.execute(
                """
                CREATE TABLE folio_history (seq BIGSERIAL PRIMARY KEY, position BIGINT NOT NULL DEFAULT folio_history_unmarked(),
                                            author TEXT NOT NULL, changes TEXT NOT NULL);
                CREATE INDEX folio_history_position ON folio_history (position)
                """)
        } else if !marked {
            try connection.execute(
                """
                ALTER TABLE folio_history RENAME COLUMN position TO seq;
                ALTER TABLE folio_history ADD COLUMN position BIGINT;
                UPDATE folio_history SET position = seq;
                ALTER TABLE folio_history ALTER COLUMN position SET NOT NULL, ALTER COLUMN position SET DEFAULT folio_history_unmarked();
                CREATE INDEX folio_history_position ON folio_history (position)
                """)
        }
        let ahead = try connection.scalar(
            """
            SELECT GREATEST((SELECT max(position) FROM folio_history), (SELECT max(position) FROM folio_readers), \(PostgresHistory.trimmedSQL))
                   > pg_snapshot_xmax(pg_current_snapshot())::text::bigint
            """)
        if ahead == .integer(1) {
            try connection.execute(
                """
                DELETE FROM folio_history;
                INSERT INTO folio_metadata (key, value)
                VALUES ('history_trimmed_through', (pg_snapshot_xmax(pg_current_snapshot())::text::bigint - 1)::text)
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """)
        }
    }

    /// Whether the history table has the marked form (or is not there yet).
    func isHistoryMarked() throws -> Bool {
        try connection.scalar(
            """
            SELECT to_regclass('folio_history') IS NULL OR EXISTS (
                SELECT 1 FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'folio_history' AND column_name = 'seq')
            """) == .integer(1)
    }
}
