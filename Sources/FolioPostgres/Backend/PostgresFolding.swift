/// `folio_fold(text, flags)` on the server: ``StringFilter``'s case-,
/// diacritic- and width-insensitive folding in SQL, as SQLite's registered
/// function does it in Swift. Case folds by ICU (upper, then lower, so
/// "ß" becomes "ss") where the server has ICU, else by the database's
/// locale; marks are dropped from the canonical (or compatibility)
/// decomposition. It follows the Swift folding for the scripts the tests
/// cover (Latin, Greek, Cyrillic, fullwidth forms); marks outside the
/// listed blocks are kept.
enum PostgresFolding {
    /// The option bits as ``TextFolding`` passes them (NSString.CompareOptions).
    static let caseInsensitive = 1, diacriticInsensitive = 128, widthInsensitive = 256

    /// The combining marks that diacritic-insensitive folding drops.
    static let marks =
        #"[\u0300-\u036F\u0483-\u0489\u0591-\u05BD\u05BF\u05C1-\u05C2\u05C4-\u05C5\u05C7\u0610-\u061A\u064B-\u065F\u0670\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20F0\u3099-\u309A\uFE20-\uFE2F]"#

    static func functionSQL(icu: Bool) -> String {
        let collate = icu ? #" COLLATE "und-x-icu""# : ""
        return """
            CREATE OR REPLACE FUNCTION folio_fold(t text, flags bigint) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fold$
            DECLARE r text := t;
            BEGIN
              IF flags & \(diacriticInsensitive) <> 0 THEN
                r := CASE WHEN flags & \(widthInsensitive) <> 0 THEN normalize(r, NFKD) ELSE normalize(r, NFD) END;
                IF flags & \(caseInsensitive) <> 0 THEN
                  r := lower(upper(r\(collate))\(collate));
                  r := CASE WHEN flags & \(widthInsensitive) <> 0 THEN normalize(r, NFKD) ELSE normalize(r, NFD) END;
                END IF;
                RETURN regexp_replace(r, '\(marks)', '', 'g');
              END IF;
              r := CASE WHEN flags & \(widthInsensitive) <> 0 THEN normalize(r, NFKC) ELSE normalize(r, NFC) END;
              IF flags & \(caseInsensitive) <> 0 THEN r := normalize(lower(upper(r\(collate))\(collate)), NFC); END IF;
              RETURN r;
            END
            $fold$
            """
    }
}
