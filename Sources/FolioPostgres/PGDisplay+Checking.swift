import CLibPQ
import Foundation

extension PGDisplay {
    /// Why libpq would refuse `uri` before connecting (an unknown query
    /// parameter, a malformed URI), in its words; nil when it parses. No
    /// server is asked, and the password never shows.
    ///
    ///     PGDisplay.parseProblem("postgresql:///folio?colour=red")   // "invalid URI query parameter: \"colour\""
    public static func parseProblem(_ uri: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &error) else {
            defer { if let error { PQfreemem(error) } }
            let text = error.map { String(cString: $0) } ?? "not a connection URI"
            // libpq may quote the URI: never its password.
            return text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: uri, with: redacted(uri))
        }
        PQconninfoFree(options)
        return nil
    }
}
