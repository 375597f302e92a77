import Foundation

func runResultsBench(_ options: [String]) {
    FileHandle.standardError.write(Data("folio-bench: the results suite is not written yet\n".utf8))
    exit(1)
}
